// Which fabric endpoints a job's ranks land on, in rank order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ecmpsim::workloads {

enum class Placement : std::uint8_t {
  Contiguous,  // endpoints in fabric order: a ToR fills before the next one
  Strided,     // round-robin over ToRs: consecutive ranks sit on different ToRs
  Random,      // a seeded uniform shuffle of all endpoints (Fisher-Yates over SplitMix64)
};

std::optional<Placement> parse_placement(std::string_view name) noexcept;
std::string_view placement_name(Placement p) noexcept;

// tor_of: for every endpoint (in fabric order), the index of its ToR.
// Returns `count` endpoint indices; the caller checks count <= tor_of.size().
// `seed` only matters for Placement::Random.
std::vector<std::uint32_t> place(Placement p, std::span<const std::uint32_t> tor_of, std::size_t count,
                                 std::uint64_t seed = 0);

}  // namespace ecmpsim::workloads
