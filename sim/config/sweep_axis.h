// The axes of `ecmpsim sweep`, by the names `--rank-by` and `--over` take:
// each one's flag without its dashes. One table names them for parsing, for
// --help and for every output, so a name cannot be accepted one way and
// printed another.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/base/named.h"

namespace ecmpsim {

// In the order of the variant numbering, outermost first (sim/sweep/sweep.h).
enum class SweepAxis : std::uint8_t { Scenario, Algos, PlacementSeeds, Qps, QpnBase, SportBase, Seeds };
inline constexpr std::size_t kSweepAxisCount = 7;

inline constexpr std::array<Named<SweepAxis>, kSweepAxisCount> kSweepAxes{
    {{SweepAxis::Scenario, "scenario", "the scenarios (--scenario)"},
     {SweepAxis::Algos, "algos", "the hash algorithms (--algos)"},
     {SweepAxis::PlacementSeeds, "placement-seeds", "the seeds of a random placement (--placement-seeds)"},
     {SweepAxis::Qps, "qps", "the QPs per connection (--qps)"},
     {SweepAxis::QpnBase, "qpn-base", "the first QP numbers (--qpn-base)"},
     {SweepAxis::SportBase, "sport-base", "the source-port bases (--sport-base)"},
     {SweepAxis::Seeds, "seeds", "the ECMP seeds (--seeds)"}}};

// The axes `ecmpsim plan --choose` takes: settings an operator picks, given
// as lists (the range axes are the unknowns: seeds, QP numbers, placements).
constexpr bool choosable(SweepAxis a) noexcept {
  return a == SweepAxis::Scenario || a == SweepAxis::Algos || a == SweepAxis::Qps;
}

}  // namespace ecmpsim
