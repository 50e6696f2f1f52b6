#include "hashing/key.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "hashing/hasher.h"

namespace key_test {

namespace h = ecmpsim::hashing;

namespace {

h::Tuple rocev2() {
  h::Tuple t;
  t.src_ip = 0x0A000001;  // 10.0.0.1
  t.dst_ip = 0x0A000102;  // 10.0.1.2
  t.proto = 17;
  t.sport = 0xC001;
  t.dport = 4791;  // 0x12B7
  t.flow_label = 0xFFABCDE;
  t.dst_qp = 0xAB123456;
  t.in_port = 0x0102;
  return t;
}

std::vector<std::uint8_t> key(h::KeyLayout layout, std::vector<h::Field> fields, const h::Tuple& t) {
  h::KeyBuffer buf;
  const std::size_t n = h::build_key(layout, fields, t, buf);
  return {buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n)};
}

}  // namespace

TEST_CASE("field names round-trip") {
  for (const char* name : {"src-ip", "dst-ip", "proto", "src-port", "dst-port", "flow-label", "in-port",
                           "dst-qp"}) {
    const auto f = h::parse_field(name);
    REQUIRE(f.has_value());
    CHECK(h::field_name(*f) == name);
  }
  // SONiC's lower-case APP_DB spelling is a SAI name (vocabulary_test.cpp); a
  // mixed-case one is none.
  CHECK_FALSE(h::parse_field("Src_ip").has_value());
}

TEST_CASE("Fields layout: the listed fields in order, network byte order (P4 field lists)") {
  const h::Tuple t = rocev2();
  CHECK(key(h::KeyLayout::Fields, h::default_fields(), t) ==
        std::vector<std::uint8_t>{10, 0, 0, 1, 10, 0, 1, 2, 17, 0xC0, 0x01, 0x12, 0xB7});
  CHECK(key(h::KeyLayout::Fields, {h::Field::DstPort, h::Field::SrcIp}, t) ==
        std::vector<std::uint8_t>{0x12, 0xB7, 10, 0, 0, 1});
  // Flow label keeps 20 bits in 4 bytes, dst-qp 24 bits in 3, in-port 2.
  CHECK(key(h::KeyLayout::Fields, {h::Field::FlowLabel, h::Field::DstQp, h::Field::InPort}, t) ==
        std::vector<std::uint8_t>{0x00, 0x0A, 0xBC, 0xDE, 0x12, 0x34, 0x56, 0x01, 0x02});
}

TEST_CASE("a field the flow lacks hashes as zero") {
  h::Tuple t;
  t.src_ip = 0x01020304;
  CHECK(key(h::KeyLayout::Fields, {h::Field::SrcIp, h::Field::SrcPort}, t) ==
        std::vector<std::uint8_t>{1, 2, 3, 4, 0, 0});
}

TEST_CASE("Linux layouts ignore the field list; BondL34 is ports word + src + dst") {
  const h::Tuple t = rocev2();
  CHECK(key(h::KeyLayout::LinuxL3, {}, t).size() == 48);
  CHECK(key(h::KeyLayout::LinuxL4, {h::Field::SrcIp}, t) == key(h::KeyLayout::LinuxL4, {}, t));
  CHECK(key(h::KeyLayout::BondL34, {}, t) ==
        std::vector<std::uint8_t>{0xC0, 0x01, 0x12, 0xB7, 10, 0, 0, 1, 10, 0, 1, 2});
}

TEST_CASE("a field list names each field at most once, which bounds the key") {
  using F = h::Field;
  CHECK_FALSE(h::repeated_field(h::default_fields()).has_value());
  const std::vector<F> all{F::SrcIp, F::DstIp, F::Proto, F::SrcPort, F::DstPort, F::FlowLabel, F::InPort, F::DstQp};
  CHECK_FALSE(h::repeated_field(all).has_value());
  // Every field once: 4 + 4 + 1 + 2 + 2 + 4 + 2 + 3 = 22 bytes, within the key buffer.
  CHECK(key(h::KeyLayout::Fields, all, rocev2()).size() == 22);
  CHECK(h::repeated_field(std::vector<F>{F::SrcIp, F::DstPort, F::SrcIp}) == F::SrcIp);
  CHECK(h::repeated_field(std::vector<F>{F::DstQp, F::Proto, F::Proto, F::DstQp}) == F::Proto);
}

namespace {

h::Tuple rocev2_v6() {
  h::Tuple t;
  t.src_ip = *h::parse_ip("fd00::1");
  t.dst_ip = *h::parse_ip("fd00::2");
  t.proto = 17;
  t.sport = 49152;
  t.dport = 4791;
  t.flow_label = 0xABCDE;
  return t;
}

}  // namespace

TEST_CASE("IPv6 keys pack 16-byte addresses in network order; CRC-32 of one matches zlib") {
  const auto k = key(h::KeyLayout::Fields, h::default_fields(), rocev2_v6());
  std::vector<std::uint8_t> want(37, 0);
  want[0] = 0xfd, want[15] = 1, want[16] = 0xfd, want[31] = 2;
  want[32] = 17, want[33] = 0xC0, want[34] = 0x00, want[35] = 0x12, want[36] = 0xB7;
  CHECK(k == want);
  // Python: hex(zlib.crc32(bytes.fromhex("fd00" + "00" * 13 + "01fd00" + "00" * 13 + "0211c00012b7")))
  CHECK(h::find("crc32")->fn(h::Key(k.data(), k.size()), 0) == 0xaa634194u);
  // Every field of an IPv6 flow fits the key buffer.
  const std::vector<h::Field> all{h::Field::SrcIp,   h::Field::DstIp,     h::Field::Proto,  h::Field::SrcPort,
                                  h::Field::DstPort, h::Field::FlowLabel, h::Field::InPort, h::Field::DstQp};
  CHECK(key(h::KeyLayout::Fields, all, rocev2_v6()).size() == 46);
}

TEST_CASE("BondL34 on IPv6: ports word then both 16-byte addresses (bond_ip_hash XORs ipv6_addr_hash)") {
  const auto k = key(h::KeyLayout::BondL34, {}, rocev2_v6());
  REQUIRE(k.size() == 36);
  CHECK(k[0] == 0xC0);
  CHECK(k[3] == 0xB7);
  CHECK(k[4] == 0xfd);
  CHECK(k[19] == 1);
  CHECK(k[20] == 0xfd);
  CHECK(k[35] == 2);
}

TEST_CASE("every catalogue algorithm hashes IPv6 keys; seed-affine ones stay affine at the longer length") {
  const h::Tuple a = rocev2_v6();
  h::Tuple b = a;
  b.src_ip = *h::parse_ip("2001:db8:1234::77");
  b.sport = 50000;
  for (const h::Algorithm& algo : h::catalogue()) {
    const auto ka = key(algo.layout, h::default_fields(), a);
    const auto kb = key(algo.layout, h::default_fields(), b);
    REQUIRE(ka.size() == kb.size());
    const auto ha0 = algo.fn(h::Key(ka.data(), ka.size()), 0), hb0 = algo.fn(h::Key(kb.data(), kb.size()), 0);
    const auto ha = algo.fn(h::Key(ka.data(), ka.size()), 0x5EED), hb = algo.fn(h::Key(kb.data(), kb.size()), 0x5EED);
    CHECK_MESSAGE(ha0 != hb0, algo.name);  // the addresses reach the hash
    if (algo.seed_affine) CHECK_MESSAGE((ha ^ ha0) == (hb ^ hb0), algo.name);
  }
}

TEST_CASE("SONiC ECMP_HASH names parse to the same fields and print as ecmpsim's") {
  const std::vector<std::pair<const char*, const char*>> pairs{
      {"SRC_IP", "src-ip"},           {"DST_IP", "dst-ip"},           {"IP_PROTOCOL", "proto"},
      {"L4_SRC_PORT", "src-port"},    {"L4_DST_PORT", "dst-port"},    {"IN_PORT", "in-port"},
      {"IPV6_FLOW_LABEL", "flow-label"}, {"RDMA_BTH_DEST_QP", "dst-qp"}, {"SRC_MAC", "src-mac"},
      {"DST_MAC", "dst-mac"},         {"ETHERTYPE", "ethertype"},     {"VLAN_ID", "vlan-id"}};
  for (const auto& [sonic, ours] : pairs) {
    CAPTURE(sonic);
    const auto f = h::parse_field(sonic);
    REQUIRE(f.has_value());
    CHECK(f == h::parse_field(ours));
    CHECK(h::field_name(*f) == ours);
  }
  // Tunnel fields are no field of the key (they are accepted and left out:
  // vocabulary_test.cpp); one case per name.
  CHECK_FALSE(h::parse_field("INNER_SRC_IP").has_value());
  CHECK(h::parse_field("src_ip") == h::Field::SrcIp);
  CHECK_FALSE(h::parse_field("Src_Ip").has_value());
}

TEST_CASE("SAI's full field spelling and Cumulus NVUE's field names parse to the same fields") {
  // saihash.h: SAI_NATIVE_HASH_FIELD_<SONiC name>.
  CHECK(h::parse_field("SAI_NATIVE_HASH_FIELD_SRC_IP") == h::Field::SrcIp);
  CHECK(h::parse_field("SAI_NATIVE_HASH_FIELD_RDMA_BTH_DEST_QP") == h::Field::DstQp);
  CHECK(h::parse_field("SAI_NATIVE_HASH_FIELD_IPV6_FLOW_LABEL") == h::Field::FlowLabel);
  // The NVUE keys of `nv show system forwarding` (ecmp-hash and lag-hash;
  // NVIDIA's NVUE Command Reference, "System Forwarding") and the field each means.
  const std::vector<std::pair<const char*, const char*>> nvue{
      {"source-ip", "src-ip"},         {"destination-ip", "dst-ip"},       {"ip-protocol", "proto"},
      {"source-port", "src-port"},     {"destination-port", "dst-port"},   {"ipv6-label", "flow-label"},
      {"ingress-interface", "in-port"}, {"source-mac", "src-mac"},         {"destination-mac", "dst-mac"},
      {"ether-type", "ethertype"},     {"vlan", "vlan-id"}};
  for (const auto& [theirs, ours] : nvue) {
    CAPTURE(theirs);
    const auto f = h::parse_field(theirs);
    REQUIRE(f.has_value());
    CHECK(h::field_name(*f) == ours);
  }
  // A five-tuple named the NVUE way packs the same key bytes as ecmpsim's.
  h::Tuple t;
  t.src_ip = *h::parse_ip("10.0.0.1");
  t.dst_ip = *h::parse_ip("10.0.1.1");
  t.proto = 17;
  t.sport = 49152;
  t.dport = 4791;
  std::vector<h::Field> theirs;
  for (const char* n : {"source-ip", "destination-ip", "ip-protocol", "source-port", "destination-port"})
    theirs.push_back(*h::parse_field(n));
  CHECK(key(h::KeyLayout::Fields, theirs, t) == std::vector<std::uint8_t>{10, 0, 0, 1, 10, 0, 1, 1, 17, 0xC0, 0x00,
                                                                          0x12, 0xB7});
  // Negative controls: the prefix goes with SONiC names only; NVUE's tunnel and
  // GTP keys, and other spellings, are no field.
  CHECK_FALSE(h::parse_field("SAI_NATIVE_HASH_FIELD_src-ip").has_value());
  CHECK_FALSE(h::parse_field("SAI_NATIVE_HASH_FIELD_").has_value());
  CHECK_FALSE(h::parse_field("SAI_NATIVE_HASH_FIELD_INNER_SRC_IP").has_value());
  CHECK_FALSE(h::parse_field("inner-source-ip").has_value());
  CHECK_FALSE(h::parse_field("gtp-teid").has_value());
  CHECK_FALSE(h::parse_field("source_ip").has_value());
  CHECK_FALSE(h::parse_field("Source-IP").has_value());
}

TEST_CASE("Ethernet fields: MACs 6 bytes, ethertype 2, VLAN ID 12 bits in 2, network byte order") {
  h::Tuple t;
  t.src_mac = 0x0c42a1000102;
  t.dst_mac = 0xFF020000000a0bULL;  // bits above 48 are not a MAC's
  t.ethertype = 0x0800;
  t.vlan_id = 0xF123;  // 12 bits: 0x123
  CHECK(key(h::KeyLayout::Fields, {h::Field::SrcMac, h::Field::DstMac, h::Field::EtherType, h::Field::VlanId}, t) ==
        std::vector<std::uint8_t>{0x0c, 0x42, 0xa1, 0x00, 0x01, 0x02, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x0b, 0x08, 0x00,
                                  0x01, 0x23});
  CHECK(h::per_hop(h::Field::SrcMac));
  CHECK(h::per_hop(h::Field::DstMac));
  CHECK(h::per_hop(h::Field::InPort));
  CHECK_FALSE(h::per_hop(h::Field::EtherType));
  CHECK_FALSE(h::per_hop(h::Field::VlanId));
  CHECK_FALSE(h::per_hop(h::Field::SrcIp));
}
// fd00::n
h::IpAddr v6_addr(std::uint16_t n) {
  std::array<std::uint8_t, 16> b{0xfd};
  b[14] = static_cast<std::uint8_t>(n >> 8);
  b[15] = static_cast<std::uint8_t>(n);
  return h::IpAddr::v6(b);
}

// The layout table's `fixed` and `fixed_v6` columns checked against the key
// bytes build_key writes: on an IPv4 (IPv6) RoCEv2 tuple, changing a field the
// row lists changes the key and changing any other field does not.
TEST_CASE("each key layout's row lists exactly the fields its key bytes depend on") {
  using F = h::Field;
  auto key_of = [](h::KeyLayout layout, const h::Tuple& t) {
    h::KeyBuffer k{};
    const std::size_t n = h::build_key(layout, {}, t, k);
    return std::vector<std::uint8_t>(k.begin(), k.begin() + static_cast<std::ptrdiff_t>(n));
  };
  auto changed = [](h::Tuple t, F f) {
    switch (f) {
      case F::SrcIp: t.src_ip = t.src_ip.is_v4() ? h::IpAddr(0x0A000009) : v6_addr(9); break;
      case F::DstIp: t.dst_ip = t.dst_ip.is_v4() ? h::IpAddr(0x0A000109) : v6_addr(0x109); break;
      case F::Proto: t.proto = 1; break;  // ICMP: no ports
      case F::SrcPort: t.sport = 0xC002; break;
      case F::DstPort: t.dport = 4792; break;
      case F::FlowLabel: t.flow_label = 0x12345; break;
      case F::InPort: t.in_port = 7; break;
      case F::DstQp: t.dst_qp = 0x77; break;
      case F::SrcMac: t.src_mac = 0x0200000000AA; break;
      case F::DstMac: t.dst_mac = 0x0200000000BB; break;
      case F::EtherType: t.ethertype = 0x86DD; break;
      case F::VlanId: t.vlan_id = 5; break;
    }
    return t;
  };
  h::Tuple v4 = rocev2();
  v4.flow_label = 0;  // IPv4 carries none
  h::Tuple v6 = rocev2();
  v6.src_ip = v6_addr(1);
  v6.dst_ip = v6_addr(0x102);
  v6.flow_label = 0x12344;
  v6.ethertype = 0x86DD;
  REQUIRE(h::kKeyLayouts.size() == 4);
  for (const h::KeyLayoutInfo& row : h::kKeyLayouts) {
    CHECK(&h::key_layout(row.layout) == &row);
    if (row.fixed.empty()) continue;  // Fields: the configured list, checked above
    CAPTURE(row.text);
    for (const h::Tuple& base : {v4, v6}) {
      const auto fixed = h::fixed_fields(row.layout, base.src_ip.family());
      CAPTURE(h::family_name(base.src_ip.family()));
      for (const auto& named : h::kFields) {
        CAPTURE(h::field_name(named.value));
        const bool listed = std::find(fixed.begin(), fixed.end(), named.value) != fixed.end();
        CHECK((key_of(row.layout, changed(base, named.value)) != key_of(row.layout, base)) == listed);
      }
    }
  }
  // The check tells the families apart: policy 0's IPv4 list lacks the flow
  // label its IPv6 key reads, so one list for both would fail above.
  const auto l3v4 = h::fixed_fields(h::KeyLayout::LinuxL3, h::Family::V4);
  CHECK(std::find(l3v4.begin(), l3v4.end(), F::FlowLabel) == l3v4.end());
  CHECK(key_of(h::KeyLayout::LinuxL3, changed(v6, F::FlowLabel)) != key_of(h::KeyLayout::LinuxL3, v6));
  CHECK(h::key_layout(h::KeyLayout::LinuxL3).linux_policy == 0);
  CHECK(h::key_layout(h::KeyLayout::LinuxL4).linux_policy == 1);
}
}  // namespace key_test
