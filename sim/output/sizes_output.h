// The size table (sim/model/size_table.h) in run's three formats: nccl-tests'
// layout in the table, a "sizes" array per scenario in JSON, one CSV row per
// (scenario, job, size). Only when a job asks for sizes (wants_sizes).
#pragma once

#include <string>
#include <vector>

#include "sim/model/simulation.h"
#include "sim/output/metrics_json.h"

namespace ecmpsim {

// Every scenario's table, as nccl-tests prints it plus algo, proto, slowdown.
std::string sizes_text(const Simulation& sim, const std::vector<ScenarioResult>& results);
// One scenario's rows for its "sizes" key.
Json sizes_json(const Simulation& sim, const ScenarioResult& r);
// Replaces run's per-link CSV when sizes are asked for.
void sizes_csv(const Simulation& sim, const std::vector<ScenarioResult>& results, Csv& csv);

}  // namespace ecmpsim
