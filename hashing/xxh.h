// xxHash (libxxhash) as an ideal, well-mixed reference hash.
#pragma once

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// The seed is xxHash's own seed (zero-extended to 64 bits for XXH64/XXH3);
// seed 0 gives the published unseeded values.
std::uint64_t xxh32(Key key, std::uint32_t seed) noexcept;
std::uint64_t xxh64(Key key, std::uint32_t seed) noexcept;
std::uint64_t xxh3(Key key, std::uint32_t seed) noexcept;  // XXH3_64bits_withSeed

}  // namespace ecmpsim::hashing
