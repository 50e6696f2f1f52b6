// Linux bonding xmit_hash_policy=layer3+4 for IPv4 and IPv6 (bond_xmit_hash ->
// bond_ip_hash, drivers/net/bonding/bond_main.c; formula in
// Documentation/networking/bonding.rst), as a little-endian kernel runs it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hashing/hasher.h"
#include "hashing/key.h"

namespace ecmpsim::hashing {

inline constexpr std::size_t kBondL34KeyBytes = 36;  // IPv6; 12 for IPv4

// Key bytes: the 4 port bytes as they sit in the L4 header (source port then
// destination port, network order; zero for protocols without ports), then
// the source and destination addresses in network order (4 bytes each for
// IPv4, 16 for IPv6: 12 or 36 bytes). No symmetric sorting: bonding hashes
// the two directions differently. For IPv6 the kernel XORs
// ipv6_addr_hash() of each address (the XOR of its four native 32-bit
// words), which is what XORing all the key's words below does.
std::size_t bond_l34_key(const Tuple& t, std::uint8_t* out) noexcept;

// XOR of the key's little-endian 32-bit words (the kernel memcpy()s the port
// word and XORs the __be32 addresses as native u32), then
// h ^= h >> 16; h ^= h >> 8; h >>= 1 (31 bits). The slave is h % count.
// Linux has no seed; a non-zero seed is XORed into the word before folding.
std::uint64_t linux_bond_l34(Key key, std::uint32_t seed) noexcept;

}  // namespace ecmpsim::hashing
