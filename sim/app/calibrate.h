// `calibrate NCCL_TESTS_OUTPUT --config C`: fits the host parameters
// (nic_efficiency, intra_busbw_gbs, net_latency_us) that make NCCL's cost
// model on the config's routed fabric match a real nccl-tests table; the fit
// with each parameter's uncertainty and bound flag, the residual per size,
// run's notes on the job and the [calibration] snippet
// (sim/output/calibrate_output.h).
#pragma once

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
  std::string job;        // empty: the first job NCCL's cost model prices
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

}  // namespace ecmpsim::app
