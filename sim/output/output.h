// The result of `ecmpsim run` in its shapes: the table, JSON and CSV
// (sim/base/format.h writes them).
#pragma once

#include <string>
#include <vector>

#include "sim/output/busbw_figures.h"  // the labels of run's two busbw figures, and their help
#include "sim/base/format.h"
#include "sim/output/run_data.h"

namespace ecmpsim {

// Written to `w` link by link and flow by flow: the document, gigabytes on a
// large fabric, is never in memory whole.
void run_json(const RunData& data, JsonWriter& w);
// With per_link = false (`--format summary`) the per-link list is left out:
// the output no longer grows with the fabric.
std::string run_table(const RunData& data, bool per_link = true);
// One row per (scenario, switch-to-switch link).
void run_csv(const RunData& data, Csv& csv);
// Every shape above, for write(); `data` outlives it.
Result run_result(const RunData& data);

}  // namespace ecmpsim
