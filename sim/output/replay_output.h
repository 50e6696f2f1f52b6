// The result of `ecmpsim replay` in its shapes (sim/base/format.h writes them):
// a table per scenario (one row per collective, then per step and group),
// a JSON document whose scenarios hold `collectives` rows with the keys
// group, seq, collective, bytes, start_us, measured_us, predicted_us and
// alone_us (a public contract, docs/traces.md) and `groups` rows, and CSV,
// one row per (scenario, collective).
#pragma once

#include "sim/base/format.h"
#include "sim/model/replay.h"

namespace ecmpsim {

Json replay_json(const ReplayReport& r);
void replay_csv(const ReplayReport& r, Csv& csv);
std::string replay_text(const ReplayReport& r);
// All three, for write(); `r` outlives it.
Result replay_result(const ReplayReport& r);

}  // namespace ecmpsim
