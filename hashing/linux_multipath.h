// The Linux kernel's multipath hash, IPv4 (fib_multipath_hash) and IPv6
// (rt6_multipath_hash), kernels with net.ipv4.fib_multipath_hash_seed
// (6.11 and later; the one seed serves both families), for forwarded packets
// on legacy multipath routes, policies 0 (L3) and 1 (L4). The family follows
// the tuple's addresses.
//
// Kernel path (net/ipv4/route.c, include/net/ip_fib.h,
// net/core/flow_dissector.c):
//   1. A zeroed struct flow_keys; policy 0 sets the IPv4 addresses only
//      (not n_proto, not ip_proto); policy 1 sets ip_proto, both ports and
//      the addresses. control.addr_type = IPV4_ADDRS (outside the hash).
//   2. __flow_hash_consistentify: swap the addresses if dst < src and,
//      independently, the ports if dst < src, comparing the network-order
//      fields as native (little-endian) integers.
//   IPv6 (net/ipv6/route.c, rt6_multipath_hash and ip6_multipath_l3_keys;
//   net.ipv6.fib_multipath_hash_policy): policy 0 sets both addresses, the
//   flow label (tags.flow_label, the be32 word & IPV6_FLOWLABEL_MASK as
//   stored) and ip_proto = the next header; policy 1 the addresses, both
//   ports and ip_proto. control.addr_type = IPV6_ADDRS; step 2 then swaps
//   the addresses when memcmp(dst, src) < 0 and, independently, the ports.
//   3. siphash() over flow_keys_hash_length() bytes starting at `basic`,
//      keyed with k0 = k1 = (seed << 32) | seed; keep the low 32 bits; 0 -> 1.
//   4. fib_multipath_hash returns that >> 1 (31 bits); fib_select_multipath
//      takes the first next hop whose fib_rebalance bound is >= the hash.
//
// build_key(KeyLayout::LinuxL3/LinuxL4, ...) writes the bytes of step 3
// (after step 2); linux_multipath() does steps 3-4.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/siphash.h"

namespace ecmpsim::hashing {

// Layout of struct flow_keys on 64-bit kernels, relative to `basic` (offset 8,
// aligned to SIPHASH_ALIGNMENT = 8): basic 0-3 (n_proto, ip_proto, padding),
// tags 4-7, vlan 8-15, cvlan 16-23, keyid 24-27, ports 28-31, icmp 32-35,
// addrs 36-67. sizeof(struct flow_keys) = 76 rounded up to 80, so
// flow_keys_hash_length() for IPv4 = 80 - (8 + 32 - 8) = 48: the hash also
// covers 4 zero bytes of the addrs union after the two IPv4 addresses.
inline constexpr std::size_t kFlowKeysIpProto = 2;
inline constexpr std::size_t kFlowKeysPorts = 28;
inline constexpr std::size_t kFlowKeysV4Addrs = 36;
inline constexpr std::size_t kFlowKeysHashLength = 48;
// IPv6: tags (flow label) at 4-7, addrs 36-67 hold the two 16-byte addresses,
// flow_keys_hash_length() = 80 - (8 + 32 - 32) = 72.
inline constexpr std::size_t kFlowKeysFlowLabel = 4;
inline constexpr std::size_t kFlowKeysV6Addrs = 36;
inline constexpr std::size_t kFlowKeysHashLengthV6 = 72;

// Writes the hashed flow_keys bytes for `t` (policy 1 when `l4`), already
// put in symmetric order: IPv4 when both addresses are IPv4, else IPv6.
// `out` must hold kFlowKeysHashLengthV6 bytes; returns the length hashed.
std::size_t linux_flow_keys(const Tuple& t, bool l4, std::uint8_t* out) noexcept;

// The SipHash key fib_multipath_hash_construct_key builds from the sysctl.
constexpr SipKey linux_multipath_sipkey(std::uint32_t seed) noexcept {
  const std::uint64_t k = (static_cast<std::uint64_t>(seed) << 32) | seed;
  return {k, k};
}

// Steps 3-4 over `key`; the seed is net.ipv4.fib_multipath_hash_seed. The
// kernel replaces a sysctl value of 0 with a random per-boot seed, so seed 0
// here models a kernel whose random seed happened to be 0.
std::uint64_t linux_multipath(Key key, std::uint32_t seed) noexcept;

// Whether the flow dissector reports ports for this IP protocol
// (proto_ports_offset() == 0: TCP, UDP, DCCP, SCTP, UDP-Lite). Others hash
// with ports 0. (ESP's SPI and AH are not modelled.)
constexpr bool linux_proto_has_ports(std::uint8_t proto) noexcept {
  return proto == 6 || proto == 17 || proto == 33 || proto == 132 || proto == 136;
}

}  // namespace ecmpsim::hashing
