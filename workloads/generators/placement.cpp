#include "workloads/generators/placement.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "workloads/seeded.h"

namespace ecmpsim::workloads {

std::vector<std::uint32_t> place(Placement p, std::span<const std::uint32_t> tor_of, std::size_t count,
                                 std::uint64_t seed, std::span<const std::uint8_t> taken) {
  assert(p != Placement::List);
  std::vector<std::uint32_t> free;
  for (std::uint32_t n = 0; n < tor_of.size(); ++n)
    if (taken.empty() || !taken[n]) free.push_back(n);
  count = std::min(count, free.size());
  std::vector<std::uint32_t> out;
  out.reserve(count);
  if (p == Placement::Contiguous) {
    out.assign(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(count));
  } else if (p == Placement::Random) {
    // Fisher-Yates, each draw a pure function of (seed, position).
    for (std::size_t i = free.size(); i > 1; --i) {
      const auto j = seeded(seed, Purpose::Placement, i) % i;
      std::swap(free[i - 1], free[j]);
    }
    out.assign(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(count));
  } else {
    std::uint32_t tors = 0;
    for (std::uint32_t t : tor_of) tors = std::max(tors, t + 1);
    std::vector<std::vector<std::uint32_t>> by_tor(tors);
    for (std::uint32_t n : free) by_tor[tor_of[n]].push_back(n);
    for (std::size_t round = 0; out.size() < count; ++round)
      for (const auto& group : by_tor)
        if (round < group.size() && out.size() < count) out.push_back(group[round]);
  }
  return out;
}

}  // namespace ecmpsim::workloads
