// Where a configured seed enters a hash: a vendor convention, not a property
// of the algorithm. "register" hands it to the algorithm (each family's own
// rule: a CRC's initial register, an XOR fold's result, xxHash's seed;
// hasher.h), "prefix" prepends it to the key as 4 big-endian bytes and runs the
// algorithm with seed 0 (SONiC's SAI-P4 program, sonic-net/sonic-pins
// sai_p4/instantiations/google/hashing.p4: hash(..., {seed, src, dst, ...})),
// "xor" XORs it into the algorithm's output (seed 0 inside). The same number
// is three different switches under the three conventions; every place that
// hashes with a seed goes through with_seed (docs/hash-models.md#seeds).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/toeplitz.h"
#include "sim/base/named.h"

namespace ecmpsim::hashing {

enum class SeedAs : std::uint8_t { Register, Prefix, Xor };

inline constexpr std::array<Named<SeedAs>, 3> kSeedAs{
    {{SeedAs::Register, "register", "handed to the algorithm (a CRC's initial register; each family's rule)"},
     {SeedAs::Prefix, "prefix",
      "prepended to the key as 4 big-endian bytes, the algorithm run with seed 0 (SONiC's SAI-P4 program)"},
     {SeedAs::Xor, "xor", "XORed into the algorithm's output, the algorithm run with seed 0"}}};

constexpr std::string_view seed_as_name(SeedAs s) noexcept { return name_of(kSeedAs, s); }
constexpr std::optional<SeedAs> parse_seed_as(std::string_view name) noexcept { return parse_name(kSeedAs, name); }

// Bytes the prefix convention adds in front of a key.
inline constexpr std::size_t kSeedPrefixBytes = 4;
// The longest key a seeded hash reads: every field and the prefix.
inline constexpr std::size_t kMaxSeededKeyBytes = kMaxKeyBytes + kSeedPrefixBytes;

// fn(key, seed) as the convention `as` applies `seed`; fn is the algorithm
// (or Toeplitz with its key) as a function of (key bytes, register seed).
template <class Fn>
std::uint64_t with_seed(SeedAs as, Key key, std::uint32_t seed, Fn&& fn) noexcept {
  switch (as) {
    case SeedAs::Register: return fn(key, seed);
    case SeedAs::Xor: return fn(key, 0) ^ seed;
    case SeedAs::Prefix: {
      std::array<std::uint8_t, kMaxSeededKeyBytes> buf;
      for (std::size_t i = 0; i < kSeedPrefixBytes; ++i)
        buf[i] = static_cast<std::uint8_t>(seed >> (8 * (kSeedPrefixBytes - 1 - i)));
      const std::size_t n = key.size() < buf.size() - kSeedPrefixBytes ? key.size() : buf.size() - kSeedPrefixBytes;
      for (std::size_t i = 0; i < n; ++i) buf[kSeedPrefixBytes + i] = key[i];
      return fn(Key{buf.data(), kSeedPrefixBytes + n}, 0);
    }
  }
  return fn(key, seed);
}

// A catalogue algorithm's output for `key` with `seed` entering as `as`.
inline std::uint64_t seeded(const Algorithm& a, SeedAs as, Key key, std::uint32_t seed) noexcept {
  return with_seed(as, key, seed, a.fn);
}

// A switch's raw hash: the algorithm, or Toeplitz with the switch's own key
// when it has one, the seed entering as `as`.
inline std::uint64_t switch_raw_hash(const Algorithm& a, const std::optional<RssKey>& rss_key, SeedAs as, Key key,
                                     std::uint32_t seed) noexcept {
  if (!rss_key) return seeded(a, as, key, seed);
  return with_seed(as, key, seed, [&](Key k, std::uint32_t s) -> std::uint64_t { return toeplitz_hash(k, *rss_key, s); });
}

}  // namespace ecmpsim::hashing
