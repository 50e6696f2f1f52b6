// The vendors' field and algorithm names (issue 49 item 5), each with the
// public text it is quoted from, and the fields no RoCEv2 packet carries.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/suggest.h"
#include "hashing/vocabulary.h"

namespace vocabulary_test {

namespace {

namespace h = ecmpsim::hashing;

std::vector<std::uint8_t> key_of(const std::vector<h::Field>& fields) {
  h::Tuple t;
  t.src_ip = *h::parse_ip("10.0.0.1");
  t.dst_ip = *h::parse_ip("10.0.1.1");
  t.proto = 17;
  t.sport = 49152;
  t.dport = 4791;
  h::KeyBuffer buf;
  const std::size_t n = h::build_key(h::KeyLayout::Fields, fields, t, buf);
  return {buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n)};
}

std::vector<h::Field> list(const std::vector<std::string>& names) {
  std::vector<h::Field> out;
  const auto why = ecmpsim::parse_field_list(names, out);
  REQUIRE_FALSE(why.has_value());
  return out;
}

}  // namespace

TEST_CASE("Arista EOS load-balance keywords name ecmpsim's fields") {
  // EOS User Manual, Port Channels and LACP, "Load Balancing"
  // (https://www.arista.com/en/um-eos/eos-port-channels-and-lacp); the keywords
  // as public EOS configurations write them: an EOS-4.23.0F running config
  // (Cray-HPE/docs-csm): "port-channel load-balance trident fields ip source-ip
  // destination-ip source-port destination-port", "... fields mac src-mac
  // dst-mac"; the Jericho sand profile (openconfig/featureprofiles, Apache-2.0):
  // "fields ipv6 outer dst-ip flow-label next-header src-ip", "fields l4 outer
  // dst-port src-port".
  const std::vector<std::pair<const char*, const char*>> eos{
      {"source-ip", "src-ip"},   {"destination-ip", "dst-ip"}, {"source-port", "src-port"},
      {"destination-port", "dst-port"}, {"src-mac", "src-mac"},  {"dst-mac", "dst-mac"},
      {"dst-ip", "dst-ip"},      {"flow-label", "flow-label"}, {"next-header", "proto"},
      {"src-ip", "src-ip"},      {"dst-port", "dst-port"},     {"src-port", "src-port"}};
  for (const auto& [theirs, ours] : eos) CHECK(std::pair(theirs, h::parse_field(theirs)) == std::pair(theirs, h::parse_field(ours)));
  // The sand profile's IPv6 list packs as ecmpsim's own names would.
  CHECK(key_of(list({"src-ip", "dst-ip", "next-header", "src-port", "dst-port"})) ==
        key_of(h::default_fields()));
  // Negative control: a keyword the quoted texts do not show has no row.
  CHECK_FALSE(h::parse_field("vlan-priority").has_value());
}

TEST_CASE("lower-case SAI spellings: SONiC's APP_DB names for algorithms and fields") {
  // sonic-net/sonic-pins p4rt_app/sonic/hashing.cc maps SAI_HASH_ALGORITHM_CRC_32LO
  // to "crc_32lo", SAI_NATIVE_HASH_FIELD_SRC_IPV4 to "src_ip", ..._L4_SRC_PORT to
  // "l4_src_port", ..._IPV6_FLOW_LABEL to "ipv6_flow_label".
  CHECK(h::find("crc_32lo") == h::find("crc32-lo"));
  CHECK(h::find("crc_32hi") == h::find("crc32-hi"));
  CHECK(h::find("crc_ccitt") == h::find("crc16-ccitt"));
  CHECK(list({"src_ip", "dst_ip", "l4_src_port", "l4_dst_port", "ipv6_flow_label"}) ==
        std::vector<h::Field>{h::Field::SrcIp, h::Field::DstIp, h::Field::SrcPort, h::Field::DstPort,
                              h::Field::FlowLabel});
  CHECK(h::parse_field("sai_native_hash_field_ip_protocol") == h::Field::Proto);
  CHECK(h::algorithm_vocabulary("crc_32lo") == h::Vocabulary::Sai);
  // Negative controls: one case per name.
  CHECK_FALSE(h::parse_field("Src_Ip").has_value());
  CHECK_FALSE(h::parse_field("SAI_NATIVE_HASH_FIELD_src_ip").has_value());
  CHECK(h::find("Crc_32Lo") == nullptr);
}

TEST_CASE("SAI's family-specific address fields SRC_IPV4/DST_IPV4/SRC_IPV6/DST_IPV6 are the address fields") {
  // opencomputeproject/SAI inc/saihash.h: "Native hash field source IPv4" ...;
  // SONiC's SAI-P4 program annotates its IPv4 hash with them
  // (sonic-net/sonic-pins sai_p4/instantiations/google/hashing.p4).
  CHECK(h::parse_field("SAI_NATIVE_HASH_FIELD_SRC_IPV4") == h::Field::SrcIp);
  CHECK(h::parse_field("SAI_NATIVE_HASH_FIELD_DST_IPV4") == h::Field::DstIp);
  CHECK(h::parse_field("SRC_IPV6") == h::Field::SrcIp);
  CHECK(h::parse_field("DST_IPV6") == h::Field::DstIp);
  // Outputs print the SAI name of a field as SRC_IP, the first row.
  CHECK(ecmpsim::name_of(h::kSonicFields, h::Field::SrcIp) == "SRC_IP");
  CHECK_FALSE(h::parse_field("SRC_IPV5").has_value());
}

TEST_CASE("tunnel fields are accepted and change no key: non-tunnelled RoCEv2 has no inner header") {
  // SONiC's own sample lists INNER_* fields (saihash.h: SAI_NATIVE_HASH_FIELD_INNER_SRC_IP, ...).
  const std::vector<h::Field> with = list({"SRC_IP", "INNER_SRC_IP", "DST_IP", "INNER_DST_IP", "IP_PROTOCOL",
                                           "INNER_IP_PROTOCOL", "L4_SRC_PORT", "INNER_L4_SRC_PORT", "L4_DST_PORT",
                                           "SAI_NATIVE_HASH_FIELD_INNER_L4_DST_PORT", "inner_ethertype"});
  CHECK(with == h::default_fields());
  CHECK(key_of(with) == key_of(h::default_fields()));
  // NVUE's inner-* keys likewise.
  CHECK(list({"source-ip", "inner-source-ip", "inner-ipv6-label"}) == std::vector<h::Field>{h::Field::SrcIp});
  CHECK(h::tunnel_field("INNER_SRC_IPV6"));
  // Negative controls: a list of tunnel fields only leaves no key; an unknown
  // inner name is no tunnel field.
  std::vector<h::Field> none;
  const auto why = ecmpsim::parse_field_list(std::vector<std::string>{"INNER_SRC_IP", "INNER_DST_IP"}, none);
  REQUIRE(why.has_value());
  CHECK(why->find("no key is left") != std::string::npos);
  CHECK_FALSE(h::tunnel_field("INNER_FOO"));
  CHECK_FALSE(h::tunnel_field("inner-gtp-teid"));
}

TEST_CASE("SONiC's own Generic Hash sample: its lag_hash list reads as its outer fields") {
  // sonic-net/SONiC doc/hash/hash-design.md (commit 31aa74ef), 2.4.4
  // "Configuration sample", "Outer/Inner frame hashing": SWITCH_HASH|GLOBAL
  // lag_hash, in the order given there.
  const std::vector<std::string> lag_hash{
      "DST_MAC",       "SRC_MAC",         "ETHERTYPE",         "IP_PROTOCOL",  "DST_IP",       "SRC_IP",
      "L4_DST_PORT",   "L4_SRC_PORT",     "INNER_DST_MAC",     "INNER_SRC_MAC", "INNER_ETHERTYPE",
      "INNER_IP_PROTOCOL", "INNER_DST_IP", "INNER_SRC_IP",     "INNER_L4_DST_PORT", "INNER_L4_SRC_PORT",
      "IPV6_FLOW_LABEL"};
  CHECK(list(lag_hash) == std::vector<h::Field>{h::Field::DstMac, h::Field::SrcMac, h::Field::EtherType,
                                                h::Field::Proto, h::Field::DstIp, h::Field::SrcIp,
                                                h::Field::DstPort, h::Field::SrcPort, h::Field::FlowLabel});
  // Its ecmp_hash list adds RDMA_BTH_OPCODE and RDMA_BTH_DEST_QP: the QP is
  // a field, the opcode is refused with its reason (it changes from packet
  // to packet of one flow, and ecmpsim routes flows).
  std::vector<std::string> ecmp_hash = lag_hash;
  ecmp_hash.insert(ecmp_hash.end(), {"RDMA_BTH_OPCODE", "RDMA_BTH_DEST_QP"});
  std::vector<h::Field> out;
  const auto why = ecmpsim::parse_field_list(ecmp_hash, out);
  REQUIRE(why.has_value());
  CHECK(why->find("'RDMA_BTH_OPCODE' is not modelled: a flow's BTH opcode changes from packet to packet") !=
        std::string::npos);
  ecmp_hash.erase(ecmp_hash.end() - 2);
  CHECK(list(ecmp_hash).back() == h::Field::DstQp);
}

TEST_CASE("fields no RoCEv2 packet carries are explained, not only refused") {
  CHECK(ecmpsim::unknown_field("gtp-teid") ==
        "hash field 'gtp-teid' is the GTP-U tunnel endpoint identifier of mobile user-plane traffic (NVUE): no "
        "RoCEv2 packet carries a GTP header");
  CHECK(ecmpsim::unknown_field("SAI_NATIVE_HASH_FIELD_MPLS_LABEL_0") ==
        "hash field 'SAI_NATIVE_HASH_FIELD_MPLS_LABEL_0' is an MPLS label (SAI): a RoCEv2 fabric routes IP, and its "
        "packets carry no label stack");
  CHECK(ecmpsim::unknown_field("MPLS_LABEL_ALL").find("MPLS label") != std::string::npos);
  // A typo still gets its suggestion.
  CHECK(ecmpsim::unknown_field("src-ipp").rfind("unknown hash field 'src-ipp' (did you mean 'src-ip'?", 0) == 0);
}

TEST_CASE("each vocabulary's seed convention, and its source") {
  CHECK(h::vocabulary(h::Vocabulary::Sai).seed_as == h::SeedAs::Prefix);
  CHECK(h::vocabulary(h::Vocabulary::Sai).seed_source.find("hashing.p4") != std::string_view::npos);
  CHECK(h::vocabulary(h::Vocabulary::Catalogue).seed_as == h::SeedAs::Register);
  for (const auto& v : h::kVocabularies) {
    CAPTURE(v.name);
    CHECK_FALSE(v.seed_source.empty());
    CHECK_FALSE(v.fields.empty());
  }
}

}  // namespace vocabulary_test
