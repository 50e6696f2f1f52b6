#include "hashing/linux_multipath.h"

#include <algorithm>
#include <cstring>

namespace ecmpsim::hashing {
namespace {

void put_be32(std::uint8_t* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}
void put_be16(std::uint8_t* p, std::uint16_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

// The kernel compares (__force u32) of a network-order field, i.e. the
// little-endian reading of its bytes on x86-64 / arm64.
constexpr std::uint32_t native32(std::uint32_t host_order) noexcept {
  return (host_order >> 24) | ((host_order >> 8) & 0xFF00u) | ((host_order << 8) & 0xFF0000u) |
         (host_order << 24);
}
constexpr std::uint16_t native16(std::uint16_t host_order) noexcept {
  return static_cast<std::uint16_t>((host_order >> 8) | (host_order << 8));
}

// The ports of policy 1, in consistentified order (both families).
void put_ports(const Tuple& t, std::uint8_t* out) noexcept {
  if (!linux_proto_has_ports(t.proto)) return;
  std::uint16_t sport = t.sport;
  std::uint16_t dport = t.dport;
  if (native16(dport) < native16(sport)) std::swap(sport, dport);
  put_be16(out + kFlowKeysPorts, sport);
  put_be16(out + kFlowKeysPorts + 2, dport);
}

// rt6_multipath_hash: policy 0 = addresses, flow label, next header;
// policy 1 = addresses, ports, next header.
std::size_t linux_flow_keys_v6(const Tuple& t, bool l4, std::uint8_t* out) noexcept {
  std::memset(out, 0, kFlowKeysHashLengthV6);
  const auto* src = t.src_ip.bytes().data();
  const auto* dst = t.dst_ip.bytes().data();
  if (std::memcmp(dst, src, 16) < 0) std::swap(src, dst);
  std::memcpy(out + kFlowKeysV6Addrs, src, 16);
  std::memcpy(out + kFlowKeysV6Addrs + 16, dst, 16);
  out[kFlowKeysIpProto] = t.proto;
  if (l4)
    put_ports(t, out);
  else
    put_be32(out + kFlowKeysFlowLabel, t.flow_label & 0xFFFFFu);
  return kFlowKeysHashLengthV6;
}

}  // namespace

std::size_t linux_flow_keys(const Tuple& t, bool l4, std::uint8_t* out) noexcept {
  if (!t.src_ip.is_v4() || !t.dst_ip.is_v4()) return linux_flow_keys_v6(t, l4, out);
  std::memset(out, 0, kFlowKeysHashLength);
  std::uint32_t src = t.src_ip.v4();
  std::uint32_t dst = t.dst_ip.v4();
  if (native32(dst) < native32(src)) std::swap(src, dst);
  put_be32(out + kFlowKeysV4Addrs, src);
  put_be32(out + kFlowKeysV4Addrs + 4, dst);
  if (l4) {
    out[kFlowKeysIpProto] = t.proto;
    put_ports(t, out);
  }
  return kFlowKeysHashLength;
}

std::uint64_t linux_multipath(Key key, std::uint32_t seed) noexcept {
  auto h = static_cast<std::uint32_t>(siphash24(key, linux_multipath_sipkey(seed)));
  if (h == 0) h = 1;
  return h >> 1;
}

}  // namespace ecmpsim::hashing
