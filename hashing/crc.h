// CRC-based switch hashes (Boost.CRC parameterisations, see README "Hash models").
#pragma once

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// CRC-16/CCITT-FALSE; a non-zero seed is XORed into the initial value.
std::uint64_t crc16_ccitt(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
