// Bob Jenkins' lookup3 hash (SAI_HASH_ALGORITHM_JENKINS_LO / _HI).
#pragma once

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// lookup3.c hashlittle(key, length, initval): the 32-bit little-endian
// variant (the byte-at-a-time path, which equals the word paths on
// little-endian hosts). initval is the seed; 0 is lookup3's own default.
std::uint32_t lookup3_hashlittle(Key key, std::uint32_t initval) noexcept;

// Catalogue entries: the 32-bit value, and its low / high 16 bits as SAI's
// JENKINS_LO / JENKINS_HI name them.
std::uint64_t jenkins(Key key, std::uint32_t seed) noexcept;
std::uint64_t jenkins_lo(Key key, std::uint32_t seed) noexcept;
std::uint64_t jenkins_hi(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
