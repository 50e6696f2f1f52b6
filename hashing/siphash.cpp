#include "hashing/siphash.h"

#include <bit>

namespace ecmpsim::hashing {
namespace {

struct V {
  std::uint64_t v0, v1, v2, v3;
};

constexpr void sip_round(V& v) noexcept {
  v.v0 += v.v1; v.v1 = std::rotl(v.v1, 13); v.v1 ^= v.v0; v.v0 = std::rotl(v.v0, 32);
  v.v2 += v.v3; v.v3 = std::rotl(v.v3, 16); v.v3 ^= v.v2;
  v.v0 += v.v3; v.v3 = std::rotl(v.v3, 21); v.v3 ^= v.v0;
  v.v2 += v.v1; v.v1 = std::rotl(v.v1, 17); v.v1 ^= v.v2; v.v2 = std::rotl(v.v2, 32);
}

constexpr void compress(V& v, std::uint64_t m) noexcept {
  v.v3 ^= m;
  sip_round(v);
  sip_round(v);
  v.v0 ^= m;
}

}  // namespace

std::uint64_t siphash24(Key data, SipKey key) noexcept {
  V v{key.k0 ^ 0x736f6d6570736575ULL, key.k1 ^ 0x646f72616e646f6dULL,
      key.k0 ^ 0x6c7967656e657261ULL, key.k1 ^ 0x7465646279746573ULL};
  const std::size_t n = data.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t m = 0;
    for (std::size_t j = 0; j < 8; ++j) m |= static_cast<std::uint64_t>(data[i + j]) << (8 * j);
    compress(v, m);
  }
  // Last block: the remaining bytes, little-endian, with the length's low
  // byte in the top byte.
  std::uint64_t b = static_cast<std::uint64_t>(n) << 56;
  for (std::size_t j = 0; i + j < n; ++j) b |= static_cast<std::uint64_t>(data[i + j]) << (8 * j);
  compress(v, b);
  v.v2 ^= 0xff;
  for (int r = 0; r < 4; ++r) sip_round(v);
  return v.v0 ^ v.v1 ^ v.v2 ^ v.v3;
}

}  // namespace ecmpsim::hashing
