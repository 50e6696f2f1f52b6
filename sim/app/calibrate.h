// `calibrate NCCL_TESTS_OUTPUT --config C`: fits the host parameters
// (nic_efficiency, net_latency_us) that make NCCL's cost model on the
// config's routed fabric match a real nccl-tests table; the fit, the residual
// per size and the [calibration] snippet (sim/output/calibrate_output.h).
// measured_run is the step calibrate and validate (sim/app/validate.h) share:
// a measured table beside the routed job it ran as.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/base/limits.h"
#include "sim/output/calibrate_output.h"

namespace ecmpsim::app {

struct CalibrateRequest {
  Limits limits;
  std::string input;      // the nccl-tests output
  std::string config;     // empty: default_config_path()
  std::string scenario;   // empty: the config's first
  std::string job;        // empty: the first job NCCL's cost model prices that matches the table
  std::string fit_sizes;  // MIN:MAX (either may be empty): fit on these sizes only
  // Where the door will write the output and the snippet: refused before the
  // work if either names an input.
  std::string out, snippet;
};

struct CalibrateReport {
  CalibrationReport report;
  std::vector<std::string> inputs;  // the table, the config and the files it reads
};

CalibrateReport calibrate(const CalibrateRequest& request);

// One measured table and what it ran on.
struct TableRun {
  std::string table;        // the nccl-tests output
  std::string config;       // empty: default_config_path()
  std::string scenario;     // empty: the config's first
  std::string job;          // empty: the first priced job matching the table
  std::string calibration;  // a [calibration] file read over the config's hosts; empty: none
};

// A table beside the routed job it measured: the table parsed, the config
// loaded, its scenario routed, the job picked and checked against the table
// (collective, ranks, nodes).
struct MeasuredRun {
  NcclTestsTable table;
  NcclComm base;  // the job as NCCL's tuner sees it with nic_efficiency 1 and net_latency_us 0
  double bus_factor = 1;       // nccl-tests' busbw / algbw for the job's collective and ranks
  CalibrationOptions options;  // the job's forced nccl_algo / nccl_proto; every size
  double nic_efficiency = 1;   // what the config (and the calibration file over it) state
  double net_latency_us = 0;
  std::string config, scenario, job;
  double goodput_busbw = 0;  // GB/s: the routed RoCEv2 goodput, before nic_efficiency
  double intra_busbw = 0;    // GB/s: the intra-node hops' cap
  std::vector<std::string> inputs;  // the table, the config and the files it reads
};

// Reads and routes `run`; each of `outs` (output paths, "" or "-" for
// standard output) is refused, before the routing, if it names an input.
// InputError naming the file, line or option otherwise.
MeasuredRun measured_run(const TableRun& run, const Limits& limits, std::span<const std::string> outs);

// The fit of the two host parameters on a measured run over o's sizes
// (the run's own nccl_algo / nccl_proto), with what it was fitted on.
CalibrationReport fit_run(MeasuredRun&& run, CalibrationOptions o);

// "MIN:MAX" (either side empty: "256M:", ":1G") into o's fit range;
// InputError at the fit_sizes option.
void read_fit_sizes(const std::string& text, CalibrationOptions& o);

}  // namespace ecmpsim::app
