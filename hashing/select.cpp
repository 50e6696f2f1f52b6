#include "hashing/select.h"

#include <array>
#include <cmath>
#include <numeric>

namespace ecmpsim::hashing {

std::string_view selection_name(Selection s) noexcept {
  constexpr std::array<std::string_view, 3> names{"modulo", "threshold", "resilient"};
  return names[static_cast<std::size_t>(s)];
}

std::optional<Selection> parse_selection(std::string_view name) noexcept {
  if (name == "modulo") return Selection::Modulo;
  if (name == "threshold") return Selection::Threshold;
  if (name == "resilient") return Selection::Resilient;
  return std::nullopt;
}

std::vector<std::uint64_t> threshold_bounds(std::span<const std::uint32_t> weights, unsigned bits) {
  // Integer form of the kernel's fib_rebalance: DIV_ROUND_CLOSEST_ULL(w << bits, total) - 1.
  const std::uint64_t total = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint64_t> bounds;
  bounds.reserve(weights.size());
  unsigned __int128 running = 0;
  for (std::uint32_t w : weights) {
    running += w;
    const unsigned __int128 scaled = running << bits;
    const auto rounded = static_cast<std::uint64_t>((scaled + total / 2) / total);
    bounds.push_back(rounded - 1);
  }
  return bounds;
}

std::vector<std::uint32_t> resilient_buckets(std::span<const std::uint32_t> weights,
                                             std::uint32_t buckets) {
  const std::uint64_t total = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint32_t> table;
  table.reserve(buckets);
  std::uint64_t running = 0;
  std::uint64_t prev_edge = 0;
  for (std::uint32_t i = 0; i < weights.size(); ++i) {
    running += weights[i];
    const std::uint64_t edge = (running * buckets + total / 2) / total;
    for (std::uint64_t b = prev_edge; b < edge; ++b) table.push_back(i);
    prev_edge = edge;
  }
  return table;
}

}  // namespace ecmpsim::hashing
