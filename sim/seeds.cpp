#include "sim/seeds.h"

namespace ecmpsim {

std::string_view seed_mode_name(SeedMode m) noexcept {
  switch (m) {
    case SeedMode::Same: return "same";
    case SeedMode::PerTier: return "per-tier";
    case SeedMode::PerSwitch: return "per-switch";
  }
  return "?";
}

std::optional<SeedMode> parse_seed_mode(std::string_view s) noexcept {
  if (s == "same") return SeedMode::Same;
  if (s == "per-tier") return SeedMode::PerTier;
  if (s == "per-switch") return SeedMode::PerSwitch;
  return std::nullopt;
}

}  // namespace ecmpsim
