// Per-tier and per-switch hash seeds derived from one configured seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/base/splitmix.h"
#include "sim/config/routing_spec.h"

namespace ecmpsim {

// The seed switch `switch_index` (tier `tier`: 1 leaf, 2 spine, 3 core) uses
// when its scenario says `seed` with `mode`:
//   same:       seed
//   per-tier:   low 32 bits of the (tier + 1)-th output of SplitMix64 seeded with `seed`
//   per-switch: low 32 bits of the (switch_index + 1)-th output of SplitMix64 seeded with `seed`
// (splitmix64_output, sim/base/splitmix.h).
constexpr std::uint32_t derive_seed(std::uint32_t seed, SeedMode mode, std::uint32_t tier,
                                    std::uint32_t switch_index) noexcept {
  switch (mode) {
    case SeedMode::Same: return seed;
    case SeedMode::PerTier: return static_cast<std::uint32_t>(splitmix64_output(seed, tier + 1ULL));
    case SeedMode::PerSwitch:
      return static_cast<std::uint32_t>(splitmix64_output(seed, switch_index + 1ULL));
  }
  return seed;
}

}  // namespace ecmpsim
