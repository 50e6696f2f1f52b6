// `ecmpsim replay --html FILE`: one self-contained page (inline CSS and SVG)
// with a timeline per scenario, one lane per process group, each collective
// drawn twice: as measured (grey, above) and as predicted with the other
// collectives in flight (blue, below), and the per-group summary table.
#pragma once

#include <string>

#include "sim/model/replay.h"

namespace ecmpsim {

// `lanes`: at most this many groups a timeline, those with the most
// predicted communication (the rest are counted below the chart).
std::string replay_html(const ReplayReport& r, const std::string& command, std::size_t lanes = 48);

}  // namespace ecmpsim
