// The values the report tries for what a source or a config leaves unknown
// (QP numbering, channel count, hash algorithm), shared by the sensitivity
// table and the published-results catalogue so that both vary an unknown the
// same way.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ecmpsim {

// The hash algorithms tried beside the config's own.
inline constexpr std::array<std::string_view, 4> kUnknownAlgos{"crc16-ccitt", "crc32", "toeplitz", "xxh3"};

// `x` appended unless `v` holds it: value lists keep their first-seen order.
template <class T>
void add_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// The first QP number `base` and `count - 1` more, 4099 apart, wrapped to
// the 24-bit QPN space (docs/walkthrough.md, docs/published.md).
inline std::vector<std::uint32_t> qpn_bases(std::uint32_t base, std::uint32_t count) {
  constexpr std::uint32_t kQpnStep = 4099;
  std::vector<std::uint32_t> out;
  for (std::uint32_t k = 0; k < count; ++k) add_unique(out, (base + k * kQpnStep) % (1u << 24));
  return out;
}

// The config's channel count, then half and double it.
inline std::vector<std::uint32_t> channel_counts(std::uint32_t channels) {
  std::vector<std::uint32_t> out{channels};
  add_unique(out, std::max(1u, channels / 2));
  add_unique(out, channels * 2);
  return out;
}

}  // namespace ecmpsim
