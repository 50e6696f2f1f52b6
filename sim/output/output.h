// The result of `ecmpsim run` in its shapes: the table, JSON and CSV
// (sim/base/format.h writes them).
#pragma once

#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/model/simulation.h"

namespace ecmpsim {

// Written to `w` link by link and flow by flow: the document, gigabytes on a
// large fabric, is never in memory whole.
void run_json(const Simulation& sim, const std::vector<ScenarioResult>& results, JsonWriter& w);
// With per_link = false (`--format summary`) the per-link list is left out:
// the output no longer grows with the fabric.
std::string run_table(const Simulation& sim, const std::vector<ScenarioResult>& results, bool per_link = true);
// One row per (scenario, switch-to-switch link).
void run_csv(const Simulation& sim, const std::vector<ScenarioResult>& results, Csv& csv);
// Every shape above, for write(); `sim` and `results` outlive it.
Result run_result(const Simulation& sim, const std::vector<ScenarioResult>& results);

}  // namespace ecmpsim
