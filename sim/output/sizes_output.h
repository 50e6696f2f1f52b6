// The size table (sim/model/size_table.h) in run's three formats: nccl-tests'
// layout in the table, a "sizes" array per scenario in JSON, one CSV row per
// (scenario, job, size). Only when a job asks for sizes (wants_sizes).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/output/metrics_json.h"

namespace ecmpsim {

// Every scenario's table, as nccl-tests prints it plus algo, proto, slowdown.
// `sizes` holds one table per result (sim/output/run_data.h).
std::string sizes_text(const Simulation& sim, const std::vector<ScenarioResult>& results,
                       std::span<const std::vector<SizeRow>> sizes);
// One scenario's rows for its "sizes" key.
Json sizes_json(const Simulation& sim, std::span<const SizeRow> table);
// Replaces run's per-link CSV when sizes are asked for.
void sizes_csv(const Simulation& sim, const std::vector<ScenarioResult>& results,
               std::span<const std::vector<SizeRow>> sizes, Csv& csv);

}  // namespace ecmpsim
