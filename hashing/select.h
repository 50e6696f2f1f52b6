// Turning a hash value into a member of an equal-cost group.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "sim/base/named.h"

namespace ecmpsim::hashing {

enum class Selection : std::uint8_t { Modulo, Threshold, Resilient };

inline constexpr std::array<Named<Selection>, 3> kSelections{
    {{Selection::Modulo, "modulo"}, {Selection::Threshold, "threshold"}, {Selection::Resilient, "resilient"}}};
constexpr std::string_view selection_name(Selection s) noexcept { return name_of(kSelections, s); }
constexpr std::optional<Selection> parse_selection(std::string_view name) noexcept { return parse_name(kSelections, name); }

// Keeps the algorithm's `bits` significant bits after rotating them right by
// `offset` within that width (SAI's per-switch hash offset).
constexpr std::uint64_t window(std::uint64_t h, unsigned bits, unsigned offset) noexcept {
  const std::uint64_t mask = bits >= 64 ? ~0ULL : ((1ULL << bits) - 1);
  h &= mask;
  offset %= bits;
  if (offset == 0) return h;
  return ((h >> offset) | (h << (bits - offset))) & mask;
}

constexpr std::uint32_t select_modulo(std::uint64_t h, std::uint32_t n) noexcept {
  return static_cast<std::uint32_t>(h % n);
}

// Hash-threshold (RFC 2992) as the Linux kernel implements it: member i owns
// the hashes up to bound_i = round(W_i * 2^bits / W) - 1, W_i the running sum
// of weights. Returns one bound per member.
std::vector<std::uint64_t> threshold_bounds(std::span<const std::uint32_t> weights, unsigned bits);

inline std::uint32_t select_threshold(std::uint64_t h, std::span<const std::uint64_t> bounds) noexcept {
  std::uint32_t i = 0;
  const auto n = static_cast<std::uint32_t>(bounds.size());
  while (i + 1 < n && h > bounds[i]) ++i;
  return i;
}

// Resilient (bucket table) hashing: bucket = h mod B; member i owns
// round(B*W_i/W) - round(B*W_{i-1}/W) buckets, laid out in member order.
std::vector<std::uint32_t> resilient_buckets(std::span<const std::uint32_t> weights,
                                             std::uint32_t buckets);

// Re-balances an existing bucket table for new weights while moving as few
// buckets as possible (the point of resilient hashing; Linux
// nexthop-group-resilient.rst, without its idle timers): a bucket keeps its
// member while that member is within its new quota (same rounding as
// resilient_buckets); the freed buckets go, in bucket order, to members below
// quota, in member order. Member ids are indices into `weights`: remove a
// member by setting its weight to 0 so the others keep their ids.
std::vector<std::uint32_t> resilient_rebalance(std::span<const std::uint32_t> table,
                                               std::span<const std::uint32_t> weights);

// The selection an algorithm's source system uses: hash-threshold for the
// Linux multipath models (fib_select_multipath), modulo otherwise (switch
// ASIC ECMP tables, Linux bonding).
constexpr Selection default_selection(const Algorithm& a) noexcept {
  return key_layout(a.layout).linux_policy >= 0 ? Selection::Threshold : Selection::Modulo;
}

}  // namespace ecmpsim::hashing
