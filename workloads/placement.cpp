#include "workloads/placement.h"

#include <algorithm>

#include "workloads/splitmix.h"

namespace ecmpsim::workloads {

std::optional<Placement> parse_placement(std::string_view name) noexcept {
  if (name == "contiguous") return Placement::Contiguous;
  if (name == "strided") return Placement::Strided;
  if (name == "random") return Placement::Random;
  return std::nullopt;
}

std::string_view placement_name(Placement p) noexcept {
  switch (p) {
    case Placement::Contiguous: return "contiguous";
    case Placement::Strided: return "strided";
    case Placement::Random: return "random";
  }
  return "?";
}

std::vector<std::uint32_t> place(Placement p, std::span<const std::uint32_t> tor_of, std::size_t count,
                                 std::uint64_t seed) {
  std::vector<std::uint32_t> out;
  out.reserve(count);
  if (p == Placement::Random) {
    std::vector<std::uint32_t> all(tor_of.size());
    for (std::uint32_t e = 0; e < all.size(); ++e) all[e] = e;
    // Fisher-Yates from the back: position i swaps with a uniform j in [0, i].
    SplitMix64 rng(seed);
    for (std::size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
    all.resize(std::min(count, all.size()));
    return all;
  }
  if (p == Placement::Contiguous) {
    for (std::uint32_t e = 0; e < count; ++e) out.push_back(e);
    return out;
  }
  std::uint32_t tors = 0;
  for (std::uint32_t t : tor_of) tors = std::max(tors, t + 1);
  std::vector<std::vector<std::uint32_t>> by_tor(tors);
  for (std::uint32_t e = 0; e < tor_of.size(); ++e) by_tor[tor_of[e]].push_back(e);
  for (std::size_t round = 0; out.size() < count; ++round)
    for (const auto& group : by_tor)
      if (round < group.size() && out.size() < count) out.push_back(group[round]);
  return out;
}

}  // namespace ecmpsim::workloads
