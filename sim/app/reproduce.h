// `reproduce`: a published experiment of the catalogue by name
// (sim/report/published.h; docs/published.md), or the FlowTracer comparison
// on a config: ECMP's FIM over many seeds against the static table, with the
// config's assumptions varied (sensitivity) and the HTML report.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/limits.h"
#include "sim/output/run_data.h"
#include "sim/report/published.h"
#include "sim/report/reproduce.h"
#include "sim/report/sensitivity.h"

namespace ecmpsim::app {

struct ReproduceRequest {
  Limits limits;
  std::string config;           // a catalogue NAME or a config path; empty: default_config_path()
  std::string seeds = "0:1000";  // A:B[:STEP], the ECMP hash seeds of a config's comparison
  bool csv = false;             // the door writes CSV: only a catalogue experiment's cases have that shape
  std::string command;          // the command line the page shows in its header
  std::string out;              // where the page goes: refused before the work if it names an input
};

struct ReproduceReport {
  std::optional<PublishedResult> published;  // a catalogue experiment
  // A config: the run, the comparison, the sensitivity and the page.
  std::shared_ptr<const RunData> run;
  FlowTracerComparison comparison;
  Sensitivity sensitivity;
  std::string html;
  std::vector<std::string> inputs;  // the files read: what no output may replace
};

ReproduceReport reproduce(const ReproduceRequest& request);

// One catalogue experiment run on its config, compiled in, with these limits.
PublishedResult reproduce_published(const PublishedExperiment& e, const Limits& limits);

}  // namespace ecmpsim::app
