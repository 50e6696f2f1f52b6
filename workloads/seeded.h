// Deterministic randomness: every random choice is a pure function of the
// config seed and what is being chosen, never of a global generator.
#pragma once

#include <cstdint>

#include "sim/base/splitmix.h"

namespace ecmpsim::workloads {

// Distinct purposes keep e.g. the placement shuffle and the QP numbers of one
// seed independent of each other.
enum class Purpose : std::uint64_t { Placement = 1, Qpn = 2, Sport = 3 };

constexpr std::uint64_t seeded(std::uint64_t seed, Purpose p, std::uint64_t a, std::uint64_t b = 0) noexcept {
  return splitmix64(splitmix64(splitmix64(seed ^ (static_cast<std::uint64_t>(p) << 56)) ^ a) ^ b);
}

}  // namespace ecmpsim::workloads
