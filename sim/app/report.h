// `report`: a self-contained HTML page (sim/report/report.h) for a config —
// the run's results with their size tables, each ECMP scenario's
// distribution over hash seeds, the FlowTracer comparison, measured
// emulation runs beside the prediction — or for the catalogue of published
// experiments.
#pragma once

#include <string>
#include <vector>

#include "sim/app/sizes.h"
#include "sim/base/limits.h"

namespace ecmpsim::app {

struct ReportRequest {
  Limits limits;
  std::string config;           // empty: default_config_path()
  std::string seeds = "0:1000";  // A:B[:STEP], the hash seeds of the distributions
  std::string scenario;         // the ECMP scenario whose seed is swept; empty: every one
  std::vector<std::string> emulation;  // `emulate --measure-time -f json` outputs
  bool published = false;              // the catalogue instead of a config
  SizeFlags sizes;
  std::string command;  // the command line the page shows in its header
  std::string out;      // where the door will write: refused before the work if it names an input
};

struct ReportPage {
  std::string html;
  std::vector<std::string> inputs;  // the files read: what no output may replace
};

ReportPage report(const ReportRequest& request);

}  // namespace ecmpsim::app
