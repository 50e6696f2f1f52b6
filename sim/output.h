// Writers for `ecmpsim run`: table, JSON and CSV.
#pragma once

#include <string>
#include <vector>

#include "sim/simulation.h"

namespace ecmpsim {

std::string run_json(const Simulation& sim, const std::vector<ScenarioResult>& results);
std::string run_table(const Simulation& sim, const std::vector<ScenarioResult>& results);
// One row per (scenario, switch-to-switch link).
std::string run_csv(const Simulation& sim, const std::vector<ScenarioResult>& results);

// Writes `text` to `path` through a temporary file in the same directory,
// renamed into place only when complete. Throws InputError on failure.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace ecmpsim
