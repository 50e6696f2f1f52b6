// SplitMix64 (Steele, Lea, Flood 2014; Vigna's reference C): the one source of
// derived randomness. Everything random in ecmpsim is a pure function of a
// seed through it, never of time or a global generator.
#pragma once

#include <cstdint>

namespace ecmpsim::workloads {

inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

// The output mix of SplitMix64 applied to a state value.
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The k-th output (k >= 1) of SplitMix64 seeded with `seed`.
constexpr std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t k) noexcept {
  return splitmix64_mix(seed + k * kGoldenGamma);
}

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
  constexpr std::uint64_t next() noexcept { return splitmix64_mix(state_ += kGoldenGamma); }
  // Uniform-ish in [0, n): the high word of a 64x64-bit product (Lemire, no rejection).
  constexpr std::uint64_t below(std::uint64_t n) noexcept {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ecmpsim::workloads
