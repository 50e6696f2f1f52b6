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

std::optional<RssKey> parse_rss_key(std::string_view text) noexcept {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  RssKey key{};
  std::size_t digits = 0;
  for (char c : text) {
    if (c == ':') continue;
    const int v = nibble(c);
    if (v < 0 || digits == 2 * key.size()) return std::nullopt;
    key[digits / 2] = static_cast<std::uint8_t>(key[digits / 2] << 4 | v);
    ++digits;
  }
  if (digits != 2 * key.size()) return std::nullopt;
  return key;
}

std::uint64_t toeplitz(Key key, std::uint32_t seed) noexcept {
  return toeplitz_hash(key, kDefaultRssKey, seed);
}

}  // namespace ecmpsim::hashing
