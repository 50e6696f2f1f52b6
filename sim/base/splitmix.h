// SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c), the one
// pseudo-random step of the project: seeds, placements, QP numbers, the
// fit's probes and calibration's weights all draw from it, so every random
// choice is a pure function of its seed. Here, at the bottom, so that every
// stage (workloads, routing, model, fit) and the tests use one copy.
#pragma once

#include <cstdint>

namespace ecmpsim {

inline constexpr std::uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;

// One step from state x: the first output of the generator seeded with x.
constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
  x += kSplitMixGamma;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The k-th output (k >= 1) of the generator seeded with `seed`.
constexpr std::uint64_t splitmix64_output(std::uint64_t seed, std::uint64_t k) noexcept {
  return splitmix64(seed + (k - 1) * kSplitMixGamma);
}

// The generator: next() is splitmix64.c's next(), below(n) a draw in [0, n).
struct SplitMix64 {
  std::uint64_t state;
  constexpr std::uint64_t next() noexcept {
    const std::uint64_t x = state;
    state += kSplitMixGamma;
    return splitmix64(x);
  }
  constexpr std::uint64_t below(std::uint64_t n) noexcept { return next() % n; }
};

}  // namespace ecmpsim
