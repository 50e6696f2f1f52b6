// Writers for `ecmpsim run`: table, JSON and CSV.
#pragma once

#include <string>
#include <vector>

#include "sim/model/simulation.h"

namespace ecmpsim {

std::string run_json(const Simulation& sim, const std::vector<ScenarioResult>& results);
// With per_link = false (`--format summary`) the per-link list is left out:
// the output no longer grows with the fabric.
std::string run_table(const Simulation& sim, const std::vector<ScenarioResult>& results, bool per_link = true);
// One row per (scenario, switch-to-switch link).
std::string run_csv(const Simulation& sim, const std::vector<ScenarioResult>& results);

}  // namespace ecmpsim
