#include "hashing/toeplitz.h"

namespace ecmpsim::hashing {

std::uint32_t toeplitz_hash(Key input, const RssKey& rss_key, std::uint32_t seed) noexcept {
  RssKey k = rss_key;
  for (std::size_t i = 0; i < k.size(); ++i) k[i] ^= static_cast<std::uint8_t>(seed >> (24 - 8 * (i % 4)));

  // `window` holds the 64 key bits starting at input byte i: every 32-bit
  // key slice that byte's eight bits select lies inside it.
  std::uint64_t window = 0;
  for (std::size_t j = 0; j < 8; ++j) window = (window << 8) | k[j];
  std::uint32_t result = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    for (unsigned b = 0; b < 8; ++b)
      if (input[i] & (0x80u >> b)) result ^= static_cast<std::uint32_t>(window >> (32 - b));
    window = (window << 8) | (i + 8 < k.size() ? k[i + 8] : 0u);
  }
  return result;
}

std::uint64_t toeplitz(Key key, std::uint32_t seed) noexcept {
  return toeplitz_hash(key, kDefaultRssKey, seed);
}

}  // namespace ecmpsim::hashing
