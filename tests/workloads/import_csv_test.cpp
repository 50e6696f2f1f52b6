#include <doctest/doctest.h>

#include "hashing/address.h"
#include "workloads/import/import_csv.h"

namespace import_csv_test {

using namespace ecmpsim::workloads;

namespace {

std::string error_of(std::string_view text) {
  const auto r = parse_flows_csv(text, "f.csv");
  const auto* e = std::get_if<ecmpsim::InputError>(&r);
  return e ? e->describe() : "no error";
}

const char* const kHeader = "src_ip,dst_ip,proto,sport,dport,bytes\n";

}  // namespace

TEST_CASE("CSV rows become flows with their five-tuple, bytes and origin") {
  const std::string text =
      "# exported from a collector\n"
      "src_ip, dst_ip, proto, sport, dport, bytes\r\n"
      "10.0.0.1,10.0.1.2,17,49153,4791,1000\r\n"
      "\n"
      "  10.0.3.4 ,192.168.1.255,tcp,0,65535,18446744073709551615\n";
  const auto r = parse_flows_csv(text, "f.csv");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  CHECK(im.format == "csv");
  REQUIRE(im.flows.size() == 2);
  const FlowRecord a = im.flows[0], b = im.flows[1];
  CHECK(a.src_ip == 0x0A000001);  // 10.0.0.1
  CHECK(a.dst_ip == 0x0A000102);  // 10.0.1.2
  CHECK(a.proto == 17);
  CHECK(a.sport == 49153);
  CHECK(a.dport == 4791);
  CHECK(a.bytes == 1000);
  CHECK(a.lqpn == 0);
  CHECK(b.src_ip == 0x0A000304);
  CHECK(b.dst_ip == 0xC0A801FF);  // 192.168.1.255
  CHECK(b.proto == 6);
  CHECK(b.sport == 0);
  CHECK(b.dport == 65535);
  CHECK(b.bytes == 18446744073709551615ULL);
  // Line 3 (after a comment and the header), fields at columns 1 and 10;
  // line 5 has two leading blanks and " ,": dst_ip starts at column 13.
  CHECK(im.src_where[0].line == 3);
  CHECK(im.src_where[0].column == 1);
  CHECK(im.dst_where[0].column == 10);
  CHECK(im.src_where[1].line == 5);
  CHECK(im.src_where[1].column == 3);
  CHECK(im.dst_where[1].column == 13);
}

TEST_CASE("optional columns may come in any order") {
  const auto r = parse_flows_csv(
      "channel,bytes,dst_ip,rqpn,src_ip,job,proto,lqpn,dport,sport\n"
      "3,4096,10.0.0.2,0x2b7,10.0.0.1,7,17,421,4791,63202\n",
      "f.csv");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const FlowRecord f = std::get<ImportedFlows>(r).flows[0];
  CHECK(f.channel == 3);
  CHECK(f.bytes == 4096);
  CHECK(f.src_ip == 0x0A000001);
  CHECK(f.dst_ip == 0x0A000002);
  CHECK(f.rqpn == 0x2b7);
  CHECK(f.lqpn == 421);
  CHECK(f.job == 7);
  CHECK(f.sport == 63202);
}

TEST_CASE("bad CSV names file, line, column, the column name and the cause") {
  const std::string h = kHeader;
  CHECK(error_of("") == "f.csv: no header line (expected the columns src_ip,dst_ip,proto,sport,dport,bytes)");
  CHECK(error_of("# only a comment\n") ==
        "f.csv: no header line (expected the columns src_ip,dst_ip,proto,sport,dport,bytes)");
  CHECK(error_of(h) == "f.csv: no flows after the header line");
  CHECK(error_of("src_ip,dst_ip,proto,sport,dport\n") == "f.csv:1: header: missing column 'bytes'");
  CHECK(error_of("src_ip,dst_ip,proto,sport,dport,bytes,when\n") ==
        "f.csv:1:39: header: unknown column 'when' "
        "(known: src_ip,dst_ip,proto,sport,dport,bytes,lqpn,rqpn,job,channel,flow_label)");
  CHECK(error_of("src_ip,dst_ip,proto,sport,dport,bytes,sport\n") == "f.csv:1:39: header: duplicate column 'sport'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,4791\n") == "f.csv:2:28: expected 6 fields, found 5");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,4791,5,9\n") == "f.csv:2:31: expected 6 fields, found 7");
  CHECK(error_of(h + "10.0.0.1,10.0.0.256,17,1,4791,5\n") == "f.csv:2:10: dst_ip: invalid IP address '10.0.0.256'");
  CHECK(error_of(h + "10.0.0,10.0.0.2,17,1,4791,5\n") == "f.csv:2:1: src_ip: invalid IP address '10.0.0'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,icmp,1,4791,5\n") ==
        "f.csv:2:19: proto: expected a protocol number 0..255, udp or tcp, found 'icmp'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,65536,4791,5\n") ==
        "f.csv:2:22: sport: expected a port 0..65535, found '65536'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,-4791,5\n") ==
        "f.csv:2:24: dport: expected a port 0..65535, found '-4791'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,4791,0\n") == "f.csv:2:29: bytes: expected a byte count >= 1, found '0'");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,4791,\n") == "f.csv:2:29: bytes: expected a byte count >= 1, found ''");
  CHECK(error_of(h + "10.0.0.1,10.0.0.2,17,1,4791,18446744073709551616\n") ==
        "f.csv:2:29: bytes: expected a byte count >= 1, found '18446744073709551616'");
  CHECK(error_of("src_ip,dst_ip,proto,sport,dport,bytes,rqpn\n10.0.0.1,10.0.0.2,17,1,4791,5,0x1000000\n") ==
        "f.csv:2:31: rqpn: expected a 24-bit QP number, found '0x1000000'");
}

TEST_CASE("IPv6 rows: 16-byte addresses, a flow_label column or the QP pair's rdma_calc_flow_label") {
  const auto r = parse_flows_csv(
      "src_ip,dst_ip,proto,sport,dport,bytes,lqpn,rqpn,flow_label\n"
      "fd00::1,fd00::1:2,17,49153,4791,1000,0x100,0x200,77\n",
      "f.csv");
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& f = std::get<ImportedFlows>(r).flows;
  CHECK(ecmpsim::hashing::format_ip(f.dst_ip[0]) == "fd00::1:2");
  CHECK(f.flow_label[0] == 77);
  const auto d = parse_flows_csv("src_ip,dst_ip,proto,sport,dport,bytes,lqpn,rqpn\nfd00::1,fd00::2,17,1,4791,9,3,5\n", "f.csv");
  REQUIRE(std::holds_alternative<ImportedFlows>(d));
  // rdma_calc_flow_label(3, 5): v = 15; v ^= v >> 20; v ^= v >> 40; 15 & 0xFFFFF.
  CHECK(std::get<ImportedFlows>(d).flows.flow_label[0] == 15);
}

TEST_CASE("IPv6 CSV errors: mixed families name the first offender, labels are 20 bits") {
  CHECK(error_of(std::string(kHeader) + "fd00::1,fd00::2,17,1,4791,5\n10.0.0.1,10.0.0.2,17,1,4791,5\n") ==
        "f.csv:3:1: src_ip: IPv4 address '10.0.0.1' among IPv6 flows (one address family per file)");
  CHECK(error_of(std::string(kHeader) + "fd00::1,10.0.0.2,17,1,4791,5\n") ==
        "f.csv:2:9: dst_ip: IPv4 address '10.0.0.2' among IPv6 flows (one address family per file)");
  CHECK(error_of("src_ip,dst_ip,proto,sport,dport,bytes,flow_label\nfd00::1,fd00::2,17,1,4791,5,0x100000\n") ==
        "f.csv:2:29: flow_label: expected a 20-bit flow label, found '0x100000'");
  CHECK(error_of(std::string(kHeader) + "fd00::1,fd00:::2,17,1,4791,5\n") == "f.csv:2:9: dst_ip: invalid IP address 'fd00:::2'");
}
}  // namespace import_csv_test
