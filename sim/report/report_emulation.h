// Measured beside predicted in the report: `ecmpsim report --emulation FILE`
// reads the JSON of `ecmpsim emulate --measure-time --format json` runs (as
// data: the report sits below the emulate stage) and shows each run's
// measured completion and slowdown next to the prediction it was compared
// with, and next to the report's own prediction of the same scenario.
#pragma once

#include <string>
#include <vector>

#include "sim/model/simulation.h"
#include "sim/output/metrics_json.h"

namespace ecmpsim {

struct EmulationRun {
  std::string file;
  std::string config, scenario, predicted_scenario, note;
  std::size_t flows = 0, paths_agree = 0;
  double slowdown_measured = 0, slowdown_predicted = 0;
  double completion_measured_s = 0, completion_predicted_s = 0;
  double relative_error = 0;
  bool time_agree = false;
  std::string scale, queue, congestion;
  bool ring_steps = false;
  std::vector<double> finish_predicted_s, finish_measured_s;  // per flow (NaN: did not finish)
};

// One run from its JSON text. InputError naming `file` when the text is not
// JSON or lacks the --measure-time keys.
EmulationRun parse_emulation(const std::string& file, const std::string& text);

// The report section: one row per run; `results` are the report's own
// scenario results (a row shows the report's slowdown for its scenario when
// it has one of that name).
std::string emulation_section(const std::vector<EmulationRun>& runs, const std::vector<ScenarioResult>& results);
// The same runs for the page's embedded JSON (an array).
Json emulation_json(const std::vector<EmulationRun>& runs);

}  // namespace ecmpsim
