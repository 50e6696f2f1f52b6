#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "hashing/address.h"
#include "workloads/import/import_pcap.h"
#include "workloads/roce.h"
#include "tests/support/test_data.h"

namespace import_pcap_test {

using namespace ecmpsim::workloads;

// The captures were written by Wireshark's text2pcap from the hand-written,
// byte-by-byte commented dumps tests/data/*.hex (tests/data/make_captures.sh).

namespace {

std::string slurp(const std::string& name) { return ecmpsim::test_support::test_data(name); }

ImportResult read(const std::string& name) { return parse_pcap(slurp(name), name); }

std::string error_of(const ImportResult& r) {
  const auto* e = std::get_if<ecmpsim::InputError>(&r);
  return e ? e->describe() : "no error";
}

constexpr std::uint32_t ip(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return a << 24 | b << 16 | c << 8 | d;
}

void check_mixed(const ImportResult& r, const std::string& name) {
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  CHECK(im.format == "pcap");
  REQUIRE(im.flows.size() == 2);
  // Flow 1: records 1 and 3, two 74-byte frames, to QP 0x2b7; its source port
  // is the kernel's for the QP pair (0x1a5, 0x2b7): 63202.
  const FlowRecord a = im.flows[0], c = im.flows[1];
  CHECK(a.src_ip == ip(10, 0, 0, 1));
  CHECK(a.dst_ip == ip(10, 0, 1, 2));
  CHECK(a.proto == 17);
  CHECK(a.sport == 63202);
  CHECK(a.sport == linux_roce_sport(0x1a5, 0x2b7));
  CHECK(a.dport == 4791);
  CHECK(a.bytes == 148);
  CHECK(a.rqpn == 0x2b7);
  CHECK(im.src_where[0].record == 1);
  // Flow 2: records 5 (74 bytes) and 7 (78 bytes: the same packet with an 802.1Q tag).
  CHECK(c.src_ip == ip(10, 0, 0, 2));
  CHECK(c.dst_ip == ip(10, 0, 2, 1));
  CHECK(c.sport == 49153);
  CHECK(c.bytes == 152);
  CHECK(c.rqpn == 0x105);
  CHECK(im.dst_where[1].record == 5);
  // Records 2 (ARP) and 6 (DNS) skipped; record 4, the responder's ACK, counted apart.
  CHECK(im.notes == std::vector<std::string>{
                        name + ": skipped 2 non-RoCE packets",
                        name + ": 1 RoCEv2 packet carries no data and makes no flow: 1 ACK/NAK (BTH opcode 0x11)"});
}

}  // namespace

TEST_CASE("a pcap capture reads back to one flow per five-tuple, bytes summed, skipped packets counted") {
  check_mixed(read("roce_mixed.pcap"), "roce_mixed.pcap");
}

TEST_CASE("pcapng and nanosecond pcap captures of the same packets read back alike") {
  check_mixed(read("roce_mixed.pcapng"), "roce_mixed.pcapng");
  check_mixed(read("roce_mixed_ns.pcap"), "roce_mixed_ns.pcap");
}

TEST_CASE("a Linux cooked (SLL) capture: the pseudo-header counts as Ethernet, the first QP is kept") {
  const auto r = read("roce_sll.pcap");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  REQUIRE(im.flows.size() == 1);
  const FlowRecord f = im.flows[0];
  CHECK(f.src_ip == ip(10, 0, 3, 1));
  CHECK(f.dst_ip == ip(10, 0, 0, 3));
  CHECK(f.sport == 51000);
  CHECK(f.bytes == 2 * (76 - 16 + 14));
  CHECK(f.rqpn == 0x200);
  CHECK(im.notes == std::vector<std::string>{"roce_sll.pcap: 1 flow carried more than one destination QP; kept the first"});
}

TEST_CASE("truncated, empty, foreign and RoCE-free captures are errors naming the file and record") {
  CHECK(error_of(read("roce_truncated.pcap")) ==
        "roce_truncated.pcap: record 3: damaged or truncated capture (libpcap: truncated dump file; tried to read 74 "
        "captured bytes, only got 12)");
  const std::string ng = error_of(read("roce_truncated.pcapng"));
  CHECK(ng.rfind("roce_truncated.pcapng: record 7: damaged or truncated capture (libpcap: ", 0) == 0);
  CHECK(error_of(read("non_roce.pcap")) ==
        "non_roce.pcap: no RoCEv2 packets (IPv4 or IPv6, UDP to port 4791) among its 2 records");
  CHECK(error_of(parse_pcap("", "e.pcap")) == "e.pcap: empty file: not a pcap or pcapng capture");
  const std::string junk = error_of(parse_pcap("src_ip,dst_ip\n10.0.0.1,10.0.0.2\n", "j.pcap"));
  CHECK(junk.rfind("j.pcap: not a readable pcap or pcapng capture (libpcap: ", 0) == 0);
  // The pcap file header alone: a capture with no records.
  CHECK(error_of(parse_pcap(slurp("roce_mixed.pcap").substr(0, 24), "h.pcap")) ==
        "h.pcap: no RoCEv2 packets (IPv4 or IPv6, UDP to port 4791) among its 0 records");
}

TEST_CASE("every prefix of a capture is read without crashing") {
  // Cutting the file anywhere must give an error or fewer flows, never undefined behaviour.
  for (const char* name : {"roce_mixed.pcap", "roce_mixed.pcapng", "roce_sll.pcap", "roce_control.pcap"}) {
    const std::string all = slurp(name);
    for (std::size_t n = 0; n < all.size(); ++n) {
      const auto r = parse_pcap(std::string_view(all).substr(0, n), name);
      if (const auto* im = std::get_if<ImportedFlows>(&r)) CHECK(im->flows.size() <= 2);
    }
  }
}

TEST_CASE("ACKs, NAKs, atomic ACKs and CNPs are counted apart, not made flows") {
  // tests/data/roce_control.hex: one RDMA WRITE in two packets (records 1, 6),
  // an ACK and a NAK (2, 3), a CNP with UDP source port 0 (4), an atomic ACK (5).
  const auto r = read("roce_control.pcap");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  REQUIRE(im.flows.size() == 1);
  const FlowRecord f = im.flows[0];
  CHECK(f.src_ip == ip(10, 0, 0, 1));
  CHECK(f.dst_ip == ip(10, 0, 1, 2));
  CHECK(f.sport == 63202);
  CHECK(f.bytes == 106 + 90);
  CHECK(f.rqpn == 0x2b7);
  CHECK(im.notes == std::vector<std::string>{"roce_control.pcap: 4 RoCEv2 packets carry no data and make no flow: "
                                             "2 ACK/NAKs (BTH opcode 0x11), 1 atomic ACK (0x12), 1 CNP (0x81)"});
  // Negative control: no flow has source port 0 (the CNP's) or runs 10.0.1.2 -> 10.0.0.1.
  for (std::size_t i = 0; i < im.flows.size(); ++i) {
    CHECK(im.flows.sport[i] != 0);
    CHECK(im.flows.src_ip[i] != ip(10, 0, 1, 2));
  }
  // A capture of control packets alone has no flow: the error says what it held.
  const std::string all = slurp("roce_control.pcap");
  // The file header (24 bytes), record 1 (16 + 106): records 2-5 start at 146 and
  // end where record 6 starts, 146 + (16+62) * 2 + 16+74 + 16+70.
  const std::string control_only = all.substr(0, 24) + all.substr(146, 2 * 78 + 90 + 86);
  CHECK(error_of(parse_pcap(control_only, "c.pcap")) ==
        "c.pcap: no RoCEv2 data packets: 4 RoCEv2 packets carry no data and make no flow: "
        "2 ACK/NAKs (BTH opcode 0x11), 1 atomic ACK (0x12), 1 CNP (0x81)");
}

TEST_CASE("a snap length that cut the BTH is named, not called 'no RoCEv2 packets'") {
  // editcap -s 50 on roce_mixed.pcap: the five RoCEv2 frames end at byte 50,
  // before their BTH (bytes 42..53, or 46..57 with the VLAN tag).
  CHECK(error_of(read("roce_snap50.pcap")) ==
        "roce_snap50.pcap: 5 packets to port 4791 truncated before the BTH (captured length 50)");
  // The same cut in pcapng (editcap -F pcapng -s 50 on roce_mixed.pcapng): its
  // interface block keeps snaplen 262144, the packets hold 50 bytes each.
  CHECK(error_of(read("roce_snap50.pcapng")) ==
        "roce_snap50.pcapng: 5 packets to port 4791 truncated before the BTH (captured length 50)");
  // editcap -s 54 keeps every untagged BTH whole; record 7's (VLAN) is cut. The
  // original lengths still count: flow 2 is record 5 alone, 74 bytes.
  const auto r = read("roce_snap54.pcap");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  REQUIRE(im.flows.size() == 2);
  CHECK(im.flows.bytes[0] == 148);
  CHECK(im.flows.bytes[1] == 74);
  CHECK(im.notes == std::vector<std::string>{
                        "roce_snap54.pcap: skipped 2 non-RoCE packets",
                        "roce_snap54.pcap: skipped 1 packet to port 4791 truncated before the BTH (captured length 54)",
                        "roce_snap54.pcap: 1 RoCEv2 packet carries no data and makes no flow: 1 ACK/NAK (BTH opcode 0x11)"});
}

namespace {

// A classic pcap (Ethernet) holding the given frames, little-endian header.
std::string pcap_of(const std::vector<std::string>& frames) {
  std::string out;
  auto u32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>(v >> (8 * i));
  };
  auto u16 = [&](std::uint16_t v) {
    out += static_cast<char>(v);
    out += static_cast<char>(v >> 8);
  };
  u32(0xa1b2c3d4);
  u16(2);
  u16(4);
  u32(0);
  u32(0);
  u32(65535);
  u32(1);  // DLT_EN10MB
  for (const std::string& f : frames) {
    u32(0);
    u32(0);
    u32(static_cast<std::uint32_t>(f.size()));
    u32(static_cast<std::uint32_t>(f.size()));
    out += f;
  }
  return out;
}

// Ethernet + IPv6 (RFC 8200: version 6, traffic class 0, the 20-bit flow
// label, next header UDP) + UDP to `dport` + a 12-byte BTH (opcode 0x0A RC
// RDMA WRITE only, destination QP 0x000123) + 4 payload bytes.
std::string rocev2_ipv6_frame(std::uint8_t src_last, std::uint8_t dst_last, std::uint16_t sport, std::uint32_t label,
                              std::uint16_t dport = 4791) {
  std::string f(14, '\0');
  f[12] = '\x86';
  f[13] = '\xdd';
  const std::uint16_t payload = 8 + 12 + 4;
  f += static_cast<char>(0x60);
  f += static_cast<char>((label >> 16) & 0x0F);
  f += static_cast<char>(label >> 8);
  f += static_cast<char>(label);
  f += static_cast<char>(payload >> 8);
  f += static_cast<char>(payload);
  f += static_cast<char>(17);
  f += static_cast<char>(64);
  for (std::uint8_t last : {src_last, dst_last}) {
    f += std::string("\xfd\x00", 2);
    f += std::string(13, '\0');
    f += static_cast<char>(last);
  }
  f += static_cast<char>(sport >> 8);
  f += static_cast<char>(sport);
  f += static_cast<char>(dport >> 8);
  f += static_cast<char>(dport);
  f += static_cast<char>(payload >> 8);
  f += static_cast<char>(payload);
  f += std::string(2, '\0');
  f += std::string("\x0a\x00\xff\xff\x00\x00\x01\x23\x00\x00\x00\x01", 12);
  f += std::string(4, '\0');
  return f;
}

}  // namespace

TEST_CASE("IPv6 RoCEv2 packets become flows with 16-byte addresses and the packet's flow label") {
  const std::string cap = pcap_of({rocev2_ipv6_frame(1, 2, 0xC123, 0xABCDE), rocev2_ipv6_frame(1, 2, 0xC123, 0xABCDE),
                                   rocev2_ipv6_frame(3, 4, 0xD000, 7), rocev2_ipv6_frame(3, 4, 0xD000, 7, 53)});
  const auto r = parse_pcap(cap, "v6.pcap");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  REQUIRE(im.flows.size() == 2);
  CHECK(ecmpsim::hashing::format_ip(im.flows.src_ip[0]) == "fd00::1");
  CHECK(ecmpsim::hashing::format_ip(im.flows.dst_ip[0]) == "fd00::2");
  CHECK(im.flows.sport[0] == 0xC123);
  CHECK(im.flows.flow_label[0] == 0xABCDE);
  CHECK(im.flows.rqpn[0] == 0x123);
  CHECK(im.flows.bytes[0] == 2 * (14 + 40 + 24));  // two frames, wire length each
  CHECK(im.flows.flow_label[1] == 7);
  // The UDP packet to port 53 is not RoCEv2: skipped, and said so.
  REQUIRE(im.notes.size() == 1);
  CHECK(im.notes[0] == "v6.pcap: skipped 1 non-RoCE packet");
}
}  // namespace import_pcap_test
