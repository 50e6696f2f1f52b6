#include "hashing/select.h"

#include <array>
#include <cmath>
#include <numeric>

namespace ecmpsim::hashing {

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

namespace {

// Buckets per member: round(B*W_i/W) - round(B*W_{i-1}/W).
std::vector<std::uint64_t> bucket_quotas(std::span<const std::uint32_t> weights, std::uint64_t buckets) {
  const std::uint64_t total = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint64_t> quota;
  quota.reserve(weights.size());
  std::uint64_t running = 0;
  std::uint64_t prev_edge = 0;
  for (std::uint32_t w : weights) {
    running += w;
    const std::uint64_t edge = total == 0 ? 0 : (running * buckets + total / 2) / total;
    quota.push_back(edge - prev_edge);
    prev_edge = edge;
  }
  return quota;
}

}  // namespace

std::vector<std::uint32_t> resilient_buckets(std::span<const std::uint32_t> weights,
                                             std::uint32_t buckets) {
  std::vector<std::uint32_t> table;
  table.reserve(buckets);
  const std::vector<std::uint64_t> quota = bucket_quotas(weights, buckets);
  for (std::uint32_t i = 0; i < quota.size(); ++i) table.insert(table.end(), quota[i], i);
  return table;
}

std::vector<std::uint32_t> resilient_rebalance(std::span<const std::uint32_t> table,
                                               std::span<const std::uint32_t> weights) {
  std::vector<std::uint64_t> room = bucket_quotas(weights, table.size());
  std::vector<std::uint32_t> out(table.begin(), table.end());
  std::vector<std::size_t> freed;
  for (std::size_t b = 0; b < out.size(); ++b) {
    const std::uint32_t m = out[b];
    if (m < room.size() && room[m] > 0)
      --room[m];
    else
      freed.push_back(b);
  }
  std::uint32_t m = 0;
  for (std::size_t b : freed) {
    while (m < room.size() && room[m] == 0) ++m;
    if (m == room.size()) break;  // all weights zero: nothing to assign
    out[b] = m;
    --room[m];
  }
  return out;
}

}  // namespace ecmpsim::hashing
