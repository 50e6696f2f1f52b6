// Which nodes (servers) a job's ranks land on, in communicator order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "sim/base/named.h"

namespace ecmpsim::workloads {

enum class Placement : std::uint8_t {
  Contiguous,  // nodes in fabric order: a ToR fills before the next one
  Strided,     // round-robin over ToRs: consecutive nodes sit on different ToRs
  Random,      // a seeded shuffle of the free nodes
  List,        // an explicit list of node names (resolved by the caller)
};
inline constexpr std::array<Named<Placement>, 4> kPlacements{{{Placement::Contiguous, "contiguous"},
                                                              {Placement::Strided, "strided"},
                                                              {Placement::Random, "random"},
                                                              {Placement::List, "list"}}};
constexpr std::optional<Placement> parse_placement(std::string_view name) noexcept {
  return parse_name(kPlacements, name);
}
constexpr std::string_view placement_name(Placement p) noexcept { return name_of(kPlacements, p); }

// tor_of: for every node (in fabric order), the index of the ToR of its first NIC.
// taken: nodes already used by other jobs (empty = none). Returns `count` node
// indices among the free ones; the caller checks that enough are free.
// List placement is resolved by the caller and is not accepted here.
std::vector<std::uint32_t> place(Placement p, std::span<const std::uint32_t> tor_of, std::size_t count,
                                 std::uint64_t seed = 0, std::span<const std::uint8_t> taken = {});

}  // namespace ecmpsim::workloads
