// CRC-based switch hashes. Every variant is a Boost.CRC crc_optimal
// parameterisation from the CRC catalogue (see docs/hash-models.md).
//
// Seed: a non-zero seed is XORed into the initial register value (Boost's
// InitRem); CRC-16 variants use its low 16 bits. CRCs are linear, so for a
// fixed key length this equals XORing a seed-dependent constant into the
// output: two tiers that differ only in seed pick ports from the same bits.
#pragma once

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection (check 0x29B1).
std::uint64_t crc16_ccitt(Key key, std::uint32_t seed) noexcept;
// CRC-16/XMODEM: poly 0x1021, init 0 (check 0x31C3).
std::uint64_t crc16_xmodem(Key key, std::uint32_t seed) noexcept;
// CRC-16/KERMIT: poly 0x1021, init 0, reflected (check 0x2189).
std::uint64_t crc16_kermit(Key key, std::uint32_t seed) noexcept;
// CRC-16/ARC: poly 0x8005 ("BISYNC"), init 0, reflected (check 0xBB3D).
std::uint64_t crc16_arc(Key key, std::uint32_t seed) noexcept;
// CRC-16/BUYPASS: poly 0x8005, init 0, not reflected (check 0xFEE8).
std::uint64_t crc16_buypass(Key key, std::uint32_t seed) noexcept;
// CRC-32 (Ethernet, ISO-HDLC) (check 0xCBF43926).
std::uint64_t crc32(Key key, std::uint32_t seed) noexcept;
// SAI CRC_32LO / CRC_32HI: the low / high 16 bits of CRC-32.
std::uint64_t crc32_lo(Key key, std::uint32_t seed) noexcept;
std::uint64_t crc32_hi(Key key, std::uint32_t seed) noexcept;
// CRC-32C (Castagnoli, poly 0x1EDC6F41) (check 0xE3069283).
std::uint64_t crc32c(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
