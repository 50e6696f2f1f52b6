#include "hashing/key.h"

#include <array>

#include "hashing/bonding.h"
#include "hashing/linux_multipath.h"

namespace ecmpsim::hashing {
namespace {

// Every field once, IPv6: 16 + 16 + 1 + 2 + 2 + 4 + 2 + 3 bytes, then 6 + 6 + 2 + 2 of Ethernet.
static_assert(46 + 16 <= kMaxKeyBytes && kFlowKeysHashLengthV6 <= kMaxKeyBytes && kBondL34KeyBytes <= kMaxKeyBytes);

inline std::size_t put_ip(std::uint8_t* p, const IpAddr& a) noexcept {
  const auto w = a.wire();
  for (std::size_t i = 0; i < w.size(); ++i) p[i] = w[i];
  return w.size();
}

inline std::size_t put_be(std::uint8_t* p, std::uint64_t v, std::size_t bytes) noexcept {
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * (bytes - 1 - i)));
  return bytes;
}

}  // namespace

std::optional<Field> repeated_field(std::span<const Field> fields) noexcept {
  std::uint32_t seen = 0;
  for (Field f : fields) {
    const std::uint32_t bit = 1u << static_cast<unsigned>(f);
    if (seen & bit) return f;
    seen |= bit;
  }
  return std::nullopt;
}

std::size_t build_key(KeyLayout layout, std::span<const Field> fields, const Tuple& t,
                      KeyBuffer& out) noexcept {
  std::uint8_t* p = out.data();
  std::size_t n = 0;
  switch (layout) {
    case KeyLayout::Fields:
      for (Field f : fields) {
        switch (f) {
          case Field::SrcIp: n += put_ip(p + n, t.src_ip); break;
          case Field::DstIp: n += put_ip(p + n, t.dst_ip); break;
          case Field::Proto: n += put_be(p + n, t.proto, 1); break;
          case Field::SrcPort: n += put_be(p + n, t.sport, 2); break;
          case Field::DstPort: n += put_be(p + n, t.dport, 2); break;
          case Field::FlowLabel: n += put_be(p + n, t.flow_label & 0xFFFFFu, 4); break;
          case Field::InPort: n += put_be(p + n, t.in_port, 2); break;
          case Field::DstQp: n += put_be(p + n, t.dst_qp & 0xFFFFFFu, 3); break;
          case Field::SrcMac: n += put_be(p + n, t.src_mac & 0xFFFFFFFFFFFFull, 6); break;
          case Field::DstMac: n += put_be(p + n, t.dst_mac & 0xFFFFFFFFFFFFull, 6); break;
          case Field::EtherType: n += put_be(p + n, t.ethertype, 2); break;
          case Field::VlanId: n += put_be(p + n, t.vlan_id & 0xFFFu, 2); break;
        }
      }
      return n;
    case KeyLayout::LinuxL3: return linux_flow_keys(t, false, p);
    case KeyLayout::LinuxL4: return linux_flow_keys(t, true, p);
    case KeyLayout::BondL34: return bond_l34_key(t, p);
  }
  return n;
}

}  // namespace ecmpsim::hashing
