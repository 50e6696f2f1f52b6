// Packing a flow's header fields into hash key bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "hashing/address.h"
#include "hashing/hasher.h"
#include "sim/base/named.h"

namespace ecmpsim::hashing {

enum class Field : std::uint8_t {
  SrcIp, DstIp, Proto, SrcPort, DstPort, FlowLabel, InPort, DstQp,
  SrcMac, DstMac, EtherType, VlanId,  // the Ethernet header of the hop (sim/routing/next_link.h)
};

inline constexpr std::array<Named<Field>, 12> kFields{{{Field::SrcIp, "src-ip"},
                                                      {Field::DstIp, "dst-ip"},
                                                      {Field::Proto, "proto"},
                                                      {Field::SrcPort, "src-port"},
                                                      {Field::DstPort, "dst-port"},
                                                      {Field::FlowLabel, "flow-label"},
                                                      {Field::InPort, "in-port"},
                                                      {Field::DstQp, "dst-qp"},
                                                      {Field::SrcMac, "src-mac"},
                                                      {Field::DstMac, "dst-mac"},
                                                      {Field::EtherType, "ethertype"},
                                                      {Field::VlanId, "vlan-id"}}};

// The same fields as SONiC's ECMP_HASH lists name them (SAI_NATIVE_HASH_FIELD_<name>,
// opencomputeproject/SAI inc/saihash.h), accepted wherever a field is named,
// upper case as SAI spells them or lower case as SONiC's APP_DB does
// (sonic-net/sonic-pins p4rt_app/sonic/hashing.cc: "src_ip", "l4_src_port");
// outputs print the names above. SRC_IPV4 / SRC_IPV6 (and DST_) are the
// family-specific spellings of the address fields (SAI's IPv4 and IPv6 hash
// objects; SONiC's SAI-P4 program uses them): a field list applies to the
// flows' own family. The tunnel (INNER_*) fields have no row: tunnel_field().
inline constexpr std::array<Named<Field>, 16> kSonicFields{{{Field::SrcIp, "SRC_IP"},
                                                           {Field::DstIp, "DST_IP"},
                                                           {Field::Proto, "IP_PROTOCOL"},
                                                           {Field::SrcPort, "L4_SRC_PORT"},
                                                           {Field::DstPort, "L4_DST_PORT"},
                                                           {Field::FlowLabel, "IPV6_FLOW_LABEL"},
                                                           {Field::InPort, "IN_PORT"},
                                                           {Field::DstQp, "RDMA_BTH_DEST_QP"},
                                                           {Field::SrcMac, "SRC_MAC"},
                                                           {Field::DstMac, "DST_MAC"},
                                                           {Field::EtherType, "ETHERTYPE"},
                                                           {Field::VlanId, "VLAN_ID"},
                                                           {Field::SrcIp, "SRC_IPV4"},
                                                           {Field::DstIp, "DST_IPV4"},
                                                           {Field::SrcIp, "SRC_IPV6"},
                                                           {Field::DstIp, "DST_IPV6"}}};

// The same fields as Cumulus Linux's NVUE names them (`nv set system forwarding
// ecmp-hash|lag-hash NAME`; NVIDIA, NVUE Command Reference, "System
// Forwarding", Cumulus Linux 5.2 and later:
// docs.nvidia.com/networking-ethernet-software/nvue-reference/Show-Commands/System-Forwarding/),
// accepted wherever a field is named. ipv6-label is the IPv6 flow label,
// ingress-interface the port the packet came in on; NVUE names no BTH field.
// The inner-* (tunnel) and gtp-teid fields have no row.
inline constexpr std::array<Named<Field>, 11> kNvueFields{{{Field::SrcIp, "source-ip"},
                                                          {Field::DstIp, "destination-ip"},
                                                          {Field::Proto, "ip-protocol"},
                                                          {Field::SrcPort, "source-port"},
                                                          {Field::DstPort, "destination-port"},
                                                          {Field::FlowLabel, "ipv6-label"},
                                                          {Field::InPort, "ingress-interface"},
                                                          {Field::SrcMac, "source-mac"},
                                                          {Field::DstMac, "destination-mac"},
                                                          {Field::EtherType, "ether-type"},
                                                          {Field::VlanId, "vlan"}}};

// The same fields as Arista EOS's load-balance commands name them, as public
// EOS configurations write them: `port-channel load-balance trident fields ip
// source-ip destination-ip source-port destination-port` and `... fields mac
// src-mac dst-mac` (an EOS-4.23.0F running configuration, Cray-HPE/docs-csm),
// and the Jericho `load-balance sand profile` keywords `fields ipv6 outer dst-ip
// flow-label next-header src-ip` and `fields l4 outer dst-port src-port`
// (openconfig/featureprofiles); the EOS User Manual, Port Channels and LACP,
// "Load Balancing", documents both commands
// (www.arista.com/en/um-eos/eos-port-channels-and-lacp). next-header is the IPv6
// header's protocol field. Only the keywords quoted there have rows.
inline constexpr std::array<Named<Field>, 12> kEosFields{{{Field::SrcIp, "source-ip"},
                                                         {Field::DstIp, "destination-ip"},
                                                         {Field::SrcPort, "source-port"},
                                                         {Field::DstPort, "destination-port"},
                                                         {Field::SrcMac, "src-mac"},
                                                         {Field::DstMac, "dst-mac"},
                                                         {Field::SrcIp, "src-ip"},
                                                         {Field::DstIp, "dst-ip"},
                                                         {Field::FlowLabel, "flow-label"},
                                                         {Field::Proto, "next-header"},
                                                         {Field::SrcPort, "src-port"},
                                                         {Field::DstPort, "dst-port"}}};

// saihash.h's full spelling of a SONiC name: SAI_NATIVE_HASH_FIELD_SRC_IP.
inline constexpr std::string_view kSaiFieldPrefix = "SAI_NATIVE_HASH_FIELD_";

constexpr char lower_ascii(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// `s` is `upper` as SAI writes it, or (lower) wholly in lower case.
constexpr bool sai_spelt(std::string_view s, std::string_view upper, bool lower) noexcept {
  if (!lower) return s == upper;
  if (s.size() != upper.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] != lower_ascii(upper[i])) return false;
  return true;
}
// A SAI field name in one case throughout, short or in full; `inner`: as
// INNER_<name>.
constexpr std::optional<Field> parse_sai_field(std::string_view name, bool inner = false) noexcept {
  for (const bool lower : {false, true}) {
    std::string_view stem = name;
    if (sai_spelt(stem.substr(0, kSaiFieldPrefix.size()), kSaiFieldPrefix, lower))
      stem.remove_prefix(kSaiFieldPrefix.size());
    if (inner) {
      if (!sai_spelt(stem.substr(0, 6), "INNER_", lower)) continue;
      stem.remove_prefix(6);
    }
    for (const auto& row : kSonicFields)
      if (sai_spelt(stem, row.name, lower)) return row.value;
  }
  return std::nullopt;
}

constexpr std::string_view field_name(Field f) noexcept { return name_of(kFields, f); }
constexpr std::optional<Field> parse_field(std::string_view name) noexcept {
  if (name.empty()) return std::nullopt;
  if (const auto f = parse_name(kFields, name)) return f;
  if (const auto f = parse_name(kNvueFields, name)) return f;
  if (const auto f = parse_name(kEosFields, name)) return f;
  return parse_sai_field(name);
}
// A tunnel field: SAI's INNER_<field> (either case, short or in full) or
// NVUE's inner-<field>: the header of an encapsulated packet. Non-tunnelled
// RoCEv2 has none, so a field list may name them and they add no key bytes
// (a switch hashes an absent header as nothing); parse_field does not
// return them.
constexpr bool tunnel_field(std::string_view name) noexcept {
  return parse_sai_field(name, true).has_value() ||
         (name.starts_with("inner-") && parse_name(kNvueFields, name.substr(6)).has_value());
}
// Whether the field's value changes from hop to hop (the port a packet came
// in on, the MACs of the link it came over): a key with one is built per hop.
constexpr bool per_hop(Field f) noexcept { return f == Field::InPort || f == Field::SrcMac || f == Field::DstMac; }
// The first field listed more than once, if any. A field list names each
// field at most once (as a P4 field list does); that also keeps every key
// within kMaxKeyBytes, so lists must be checked with this before build_key.
std::optional<Field> repeated_field(std::span<const Field> fields) noexcept;

// The header values one hash decision can read. A field the flow lacks is 0.
struct Tuple {
  IpAddr src_ip;  // IPv4 or IPv6; both of one family
  IpAddr dst_ip;
  std::uint8_t proto = 0;
  std::uint16_t sport = 0;
  std::uint16_t dport = 0;
  std::uint32_t flow_label = 0;  // 20 bits; IPv6 only (an IPv4 packet has none)
  std::uint32_t dst_qp = 0;      // 24 bits
  std::uint16_t in_port = 0;
  std::uint64_t src_mac = 0;  // 48 bits
  std::uint64_t dst_mac = 0;
  std::uint16_t ethertype = 0;
  std::uint16_t vlan_id = 0;  // 12 bits; 0 = untagged
};

inline constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr std::uint16_t kEtherTypeIpv6 = 0x86DD;

inline constexpr std::size_t kMaxKeyBytes = 80;
using KeyBuffer = std::array<std::uint8_t, kMaxKeyBytes>;

// Writes the key for `layout` and returns the number of bytes written.
// KeyLayout::Fields: `fields` in order, network byte order: IPs 4 bytes
// (IPv4) or 16 (IPv6), proto 1, ports 2, flow label 4 (20 bits,
// right-aligned), in-port 2, dst-qp 3, MACs 6, ethertype 2, VLAN ID 2 (12
// bits, right-aligned);
// `fields` must have no repeated field (repeated_field).
// LinuxL3 / LinuxL4: the struct flow_keys bytes the kernel hashes, 48 for
// IPv4 (fib_multipath_hash), 72 for IPv6 (rt6_multipath_hash; linux_multipath.h). BondL34: ports word, src, dst (bonding.h). The Linux
// layouts ignore `fields`.
std::size_t build_key(KeyLayout layout, std::span<const Field> fields, const Tuple& t,
                      KeyBuffer& out) noexcept;

// What each key layout hashes, one row each: the fit, `ecmpsim hash`, the
// emulator, the default selection and the generated hash catalogue read these
// columns instead of naming layouts, so a new layout is a value in KeyLayout
// (hasher.h), its row here and its case in build_key (key.cpp).
struct KeyLayoutInfo {
  KeyLayout layout;
  std::string_view text;         // as the hash catalogue page describes it
  std::span<const Field> fixed;     // the fields it always hashes (IPv4); empty: the configured list
  std::span<const Field> fixed_v6;  // the same on IPv6, where policy 0 adds the flow label and next header
  int linux_policy;                 // the fib_multipath_hash_policy it models; -1 when none
};

inline constexpr std::array<Field, 2> kLinuxL3Fields{Field::SrcIp, Field::DstIp};
// rt6_multipath_hash, policy 0 (net/ipv6/route.c): ip6_multipath_l3_keys
// hashes the addresses, the flow label and the next header.
inline constexpr std::array<Field, 4> kLinuxL3FieldsV6{Field::SrcIp, Field::DstIp, Field::FlowLabel, Field::Proto};
inline constexpr std::array<Field, 5> kFiveTuple{Field::SrcIp, Field::DstIp, Field::Proto, Field::SrcPort,
                                                 Field::DstPort};
inline constexpr std::array<KeyLayoutInfo, 4> kKeyLayouts{{
    {KeyLayout::Fields, "configured fields", {}, {}, -1},
    {KeyLayout::LinuxL3, "Linux flow_keys, policy 0", kLinuxL3Fields, kLinuxL3FieldsV6, 0},
    {KeyLayout::LinuxL4, "Linux flow_keys, policy 1", kFiveTuple, kFiveTuple, 1},
    {KeyLayout::BondL34, "bond_ip_hash words", kFiveTuple, kFiveTuple, -1},
}};

constexpr const KeyLayoutInfo& key_layout(KeyLayout layout) noexcept {
  for (const KeyLayoutInfo& k : kKeyLayouts)
    if (k.layout == layout) return k;
  return kKeyLayouts.front();
}

// The fields a fixed layout hashes for one address family (empty: the
// configured list).
constexpr std::span<const Field> fixed_fields(KeyLayout layout, Family family) noexcept {
  const KeyLayoutInfo& k = key_layout(layout);
  return family == Family::V6 ? k.fixed_v6 : k.fixed;
}

// The fields a key of `layout` reads for that family: its fixed list, or the
// configured one (KeyLayout::Fields).
constexpr std::span<const Field> key_fields(KeyLayout layout, Family family,
                                            std::span<const Field> configured) noexcept {
  const std::span<const Field> fixed = fixed_fields(layout, family);
  return fixed.empty() ? configured : fixed;
}

inline const std::vector<Field>& default_fields() {
  static const std::vector<Field> f{Field::SrcIp, Field::DstIp, Field::Proto, Field::SrcPort,
                                    Field::DstPort};
  return f;
}

}  // namespace ecmpsim::hashing
