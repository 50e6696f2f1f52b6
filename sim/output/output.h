// The result of `ecmpsim run` in its shapes: the table, JSON and CSV
// (sim/base/format.h writes them).
#pragma once

#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/output/run_data.h"

namespace ecmpsim {

Json run_json(const RunData& data);
// With per_link = false (`--format summary`) the per-link list is left out:
// the output no longer grows with the fabric.
std::string run_table(const RunData& data, bool per_link = true);
// One row per (scenario, switch-to-switch link).
Csv run_csv(const RunData& data);
// Every shape above, for write(); `data` outlives it.
Result run_result(const RunData& data);

}  // namespace ecmpsim
