// Toeplitz hash as NICs compute RSS (Microsoft RSS specification; Intel 82599
// datasheet 7.1.2.8). Used by host-side models and as a switch option.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

using RssKey = std::array<std::uint8_t, 40>;

// The standard 40-byte key from the RSS specification (the one the 82599
// verification suite and DPDK's test_thash use).
inline constexpr RssKey kDefaultRssKey{
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

// For every input bit set (first byte's MSB first), XOR in the 32 key bits
// that start at that bit position. A 40-byte key covers 36 input bytes (an
// IPv6 four-tuple); key bits past its end read as zero. A non-zero seed is
// XORed into every 32-bit big-endian word of the key. The hash is linear in
// the key, so this adds toeplitz(input, seed repeated): a term that depends on
// every input bit and reaches every output bit. (Seeding only the first word
// would reach output bit j only through input bits 0..31-j, so the low bits a
// modulo selection reads would depend on the top bits of the source address
// alone, which a fabric's address plan keeps constant.)
std::uint32_t toeplitz_hash(Key input, const RssKey& rss_key, std::uint32_t seed) noexcept;

// A 40-byte key as 80 hex digits, optionally separated by ':' as `ethtool -x`
// prints it ("6d:5a:56:da:..."); nullopt if malformed or not 40 bytes.
std::optional<RssKey> parse_rss_key(std::string_view text) noexcept;

// Catalogue entry: toeplitz_hash with kDefaultRssKey.
std::uint64_t toeplitz(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
