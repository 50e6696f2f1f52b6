#include "hashing/xxh.h"

#include <xxhash.h>

namespace ecmpsim::hashing {

std::uint64_t xxh32(Key key, std::uint32_t seed) noexcept { return XXH32(key.data(), key.size(), seed); }
std::uint64_t xxh64(Key key, std::uint32_t seed) noexcept { return XXH64(key.data(), key.size(), seed); }
std::uint64_t xxh3(Key key, std::uint32_t seed) noexcept {
  return XXH3_64bits_withSeed(key.data(), key.size(), seed);
}

}  // namespace ecmpsim::hashing
