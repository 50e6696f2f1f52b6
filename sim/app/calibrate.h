// `calibrate NCCL_TESTS_OUTPUT --config C`: fits the host parameters
// (nic_efficiency, intra_busbw_gbs, net_latency_us) that make NCCL's cost
// model on the config's routed fabric match a real nccl-tests table; the fit
// with each parameter's uncertainty and bound flag, the residual per size,
// run's notes on the job and the [calibration] snippet
// (sim/output/calibrate_output.h). measured_run is the step calibrate and
// validate (sim/app/validate.h) share: a measured table beside the routed
// job it ran as.
#pragma once

#include <cstdint>
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
  std::uint32_t run = 0;  // the run of a file holding several (1-based); 0: the file must hold one
  // Where the door will write the output and the snippet: refused before the
  // work if either names an input.
  std::string out, snippet;
};

struct CalibrateReport {
  CalibrationReport report;
  std::vector<std::string> notes;   // "note: ..." lines: run's on the config's workload
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
  std::uint32_t run = 0;    // the run of a file holding several (1-based); 0: the file must hold one
};

// A table beside the routed job it measured: the table parsed, the config
// loaded, its scenario routed, the job picked and checked against the table
// (collective, ranks, nodes).
struct MeasuredRun {
  NcclTestsTable table;
  // The job as NCCL's tuner sees it with nic_efficiency 1, net_latency_us 0
  // and the intra-node ceiling at its top: the hardware's, or the config's
  // intra_busbw_gbs where it states more.
  NcclComm base;
  double bus_factor = 1;       // nccl-tests' busbw / algbw for the job's collective and ranks
  CalibrationOptions options;  // the job's forced nccl_algo / nccl_proto; every size
  double nic_efficiency = 1;   // what the config (and the calibration file over it) state
  double net_latency_us = 0;
  double intra_busbw_gbs = 0;  // the config's intra_busbw_gbs; 0: the hardware's
  std::string config, scenario, job;
  double goodput_busbw = 0;  // GB/s: the routed RoCEv2 goodput, before nic_efficiency
  double intra_busbw = 0;    // GB/s: base's ceiling
  CalibrationContext context;       // what bound_causes needs of the job
  std::vector<std::string> notes;   // "note: ..." lines: run's on the config's workload
  std::vector<std::string> inputs;  // the table, the config and the files it reads
};

// Reads and routes `run`; each of `outs` (output paths, "" or "-" for
// standard output) is refused, before the routing, if it names an input.
// InputError naming the file, line or option otherwise.
MeasuredRun measured_run(const TableRun& run, const Limits& limits, std::span<const std::string> outs);

// The fit of the three host parameters on a measured run over o's sizes
// (the run's own nccl_algo / nccl_proto), their flags' causes, and what it
// was fitted on.
CalibrationReport fit_run(MeasuredRun&& run, CalibrationOptions o);

// "MIN:MAX" (either side empty: "256M:", ":1G") into o's fit range;
// InputError at the fit_sizes option.
void read_fit_sizes(const std::string& text, CalibrationOptions& o);

}  // namespace ecmpsim::app
