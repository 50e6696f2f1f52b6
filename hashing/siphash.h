// SipHash-2-4 (Aumasson & Bernstein, 2012), the PRF behind the Linux
// kernel's flow hash.
#pragma once

#include <cstdint>

#include "hashing/hasher.h"

namespace ecmpsim::hashing {

// The 128-bit key as two 64-bit words: k0 is key bytes 0-7 read
// little-endian, k1 bytes 8-15 (the kernel's siphash_key_t layout).
struct SipKey {
  std::uint64_t k0 = 0;
  std::uint64_t k1 = 0;
};

// SipHash-2-4 with 64-bit output; message words are read little-endian.
std::uint64_t siphash24(Key data, SipKey key) noexcept;

}  // namespace ecmpsim::hashing
