// The two bus bandwidths ecmpsim reports, named once so that every table,
// chart and help text labels them alike (issue 50 item 3). They differ by
// what they are comparable with, and differ on one run (issue 50 saw 400 vs
// 345.6 GB/s side by side on 8 x 400G): docs/prediction.md "Two busbw
// figures" works an example of each.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ecmpsim {

enum class BusbwFigure : std::uint8_t {
  // The flow model's: line-rate links shared max-min fair, no wire, protocol
  // or host overhead (`predicted.busbw_gbps`, sweep's per-job `busbw`).
  FabricBound,
  // nccl-tests' busBw = algBw x the collective's factor, priced by NCCL's cost
  // model at the RoCEv2 goodput with the protocols' factors and host caps
  // (the size table's `busbw_gbs`, sweep's `busbw_at` and `busbw_avg`).
  NcclTests,
};

struct BusbwFigureRow {
  BusbwFigure figure;
  std::string_view label;         // what the tables print before the unit
  std::string_view compare_with;  // what a reader holds it against
};

inline constexpr std::array<BusbwFigureRow, 2> kBusbwFigures{{
    {BusbwFigure::FabricBound, "fabric-bound busbw", "the NICs' line rate; the fabric's bound, before wire and protocol overheads"},
    {BusbwFigure::NcclTests, "nccl-tests busbw", "a measured nccl-tests busbw; RoCEv2 goodput and NCCL's protocol factors applied"},
}};

constexpr const BusbwFigureRow& busbw_figure(BusbwFigure f) { return kBusbwFigures[static_cast<std::size_t>(f)]; }

// "fabric-bound busbw" / "nccl-tests busbw".
constexpr std::string_view busbw_label(BusbwFigure f) { return busbw_figure(f).label; }

// One line: "LABEL: compare with WHAT".
inline std::string busbw_legend(BusbwFigure f) {
  return std::string(busbw_figure(f).label) + ": compare with " + std::string(busbw_figure(f).compare_with);
}

// The help's paragraph: each figure with an example and what it compares with.
std::string busbw_help_text();

}  // namespace ecmpsim
