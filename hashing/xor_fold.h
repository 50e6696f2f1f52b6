// XOR-folding switch hashes (SAI_HASH_ALGORITHM_XOR, P4 bmv2 xor16).
#pragma once

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// XOR of the key's big-endian 16-bit words; an odd tail byte is padded with
// a zero byte on the right (bmv2 xor16). A non-zero seed's low 16 bits are
// XORed into the result.
std::uint64_t xor16(Key key, std::uint32_t seed) noexcept;

// XOR of the key's big-endian 32-bit words, a short tail zero-padded on the
// right. A non-zero seed is XORed into the result.
std::uint64_t xor32(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
