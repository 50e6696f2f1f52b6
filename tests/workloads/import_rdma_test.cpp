#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "workloads/import_rdma.h"

using namespace ecmpsim::workloads;

namespace {

std::string slurp(const std::string& name) {
  std::ifstream in(std::string(ECMPSIM_SOURCE_DIR "/tests/data/rdma/") + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr std::uint32_t ip(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return a << 24 | b << 16 | c << 8 | d;
}

std::string error_of(const ImportResult& r) {
  const auto* e = std::get_if<ImportError>(&r);
  if (!e) return "no error";
  std::string s = e->file;
  if (e->line > 0) s += ":" + std::to_string(e->line);
  if (e->column > 0) s += ":" + std::to_string(e->column);
  if (e->record > 0) s += ": record " + std::to_string(e->record);
  s += ": ";
  if (!e->field.empty()) s += e->field + ": ";
  return s + e->message;
}

// One RC QP in RTS as `rdma resource show qp -j` prints it.
std::string rc(const char* dev, int lqpn, int rqpn) {
  return std::string("{\"ifindex\":0,\"ifname\":\"") + dev + "\",\"port\":1,\"lqpn\":" + std::to_string(lqpn) +
         ",\"rqpn\":" + std::to_string(rqpn) + ",\"type\":\"RC\",\"state\":\"RTS\",\"sq-psn\":0,\"pid\":1,\"comm\":\"x\"}";
}

const std::string kMap = "host,ifname,ip\na,mlx5_0,10.0.0.1\nb,mlx5_0,10.0.1.1\nc,mlx5_0,10.0.2.1\n";

ImportResult run(const std::vector<std::pair<std::string, std::string>>& hosts, const std::string& map = kMap,
                 bool allow_unpaired = false) {
  std::vector<RdmaDump> dumps;
  for (const auto& [name, text] : hosts) dumps.push_back({name, text});
  return parse_rdma(dumps, map, "map.csv", {4096, allow_unpaired});
}

}  // namespace

TEST_CASE("QPs pair across two hosts; each RC QP in RTS is one flow with the kernel's source port") {
  const std::string h1 = slurp("host1.json"), h2 = slurp("host2.json"), map = slurp("map.csv");
  const std::vector<RdmaDump> dumps{{"dumps/host1.json", h1}, {"dumps/host2.json", h2}};
  const auto r = parse_rdma(dumps, map, "map.csv", {1 << 20, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  CHECK(im.format == "rdma");
  REQUIRE(im.flows.size() == 4);
  // host1 mlx5_0 QP 421 (0x1a5) <-> host2 mlx5_0 QP 695 (0x2b7): the published
  // vector (0x1a5, 0x2b7) -> flow label 0x476f3 -> port 63202, the same both ways.
  // host1 mlx5_1 QP 256 <-> host2 mlx5_1 QP 257: 256 * 257 = 0x10100, no bits
  // above 20 to fold, label 0x10100; lo = 0x0100 ^ (0x10000 >> 14 = 0x4) = 0x104,
  // port 0xC104 = 49412.
  struct Expected {
    std::uint32_t src, dst, lqpn, rqpn;
    std::uint16_t sport;
  };
  const Expected want[] = {{ip(10, 0, 0, 1), ip(10, 0, 1, 1), 421, 695, 63202},
                           {ip(10, 0, 0, 2), ip(10, 0, 1, 2), 256, 257, 49412},
                           {ip(10, 0, 1, 1), ip(10, 0, 0, 1), 695, 421, 63202},
                           {ip(10, 0, 1, 2), ip(10, 0, 0, 2), 257, 256, 49412}};
  for (std::size_t i = 0; i < 4; ++i) {
    const FlowRecord f = im.flows[i];
    CHECK(f.src_ip == want[i].src);
    CHECK(f.dst_ip == want[i].dst);
    CHECK(f.lqpn == want[i].lqpn);
    CHECK(f.rqpn == want[i].rqpn);
    CHECK(f.sport == want[i].sport);
    CHECK(f.dport == 4791);
    CHECK(f.proto == 17);
    CHECK(f.bytes == (1u << 20));
  }
  // Addresses are located in the map: host1,mlx5_0 on line 4, host2,mlx5_1 on line 7, the ip column at 14.
  CHECK(im.files.at(im.src_where[0].file) == "map.csv");
  CHECK(im.src_where[0].line == 4);
  CHECK(im.src_where[0].column == 14);
  CHECK(im.dst_where[1].line == 7);
  CHECK(im.src_field == "ip");
  // host1: the GSI QP, the UD QP and the RC QP still in INIT; host2: its GSI QP.
  CHECK(im.notes == std::vector<std::string>{"dumps/host1.json: skipped 3 QPs not RC in RTS state",
                                             "dumps/host2.json: skipped 1 QP not RC in RTS state"});
}

TEST_CASE("the map's host matches a dump by path, file name or file name without extension") {
  for (const char* host : {"d/x.json", "x.json", "x"}) {
    const std::string map = std::string("host,ifname,ip\n") + host + ",mlx5_0,10.0.0.1\n" + host + ",mlx5_1,10.0.0.2\n";
    const auto r = parse_rdma(std::vector<RdmaDump>{{"d/x.json", "[" + rc("mlx5_0", 7, 9) + "," + rc("mlx5_1", 9, 7) + "]"}},
                              map, "m.csv", {1, false});
    REQUIRE(std::holds_alternative<ImportedFlows>(r));
    // Two devices of one host connected through the network: two flows.
    CHECK(std::get<ImportedFlows>(r).flows.size() == 2);
  }
}

TEST_CASE("a QP without a partner is an error naming the dump and the QP, or skipped when allowed") {
  const std::vector<std::pair<std::string, std::string>> hosts{
      {"a.json", "[" + rc("mlx5_0", 10, 20) + "," + rc("mlx5_0", 11, 99) + "]"}, {"b.json", "[" + rc("mlx5_0", 20, 10) + "]"}};
  CHECK(error_of(run(hosts)) ==
        "a.json: record 2: QP mlx5_0 lqpn 11 rqpn 99 has no partner (no QP with lqpn 99 and rqpn 11 in the dumps)");
  const auto r = run(hosts, kMap, true);
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  CHECK(std::get<ImportedFlows>(r).flows.size() == 2);
  CHECK(std::get<ImportedFlows>(r).notes == std::vector<std::string>{"rdma: skipped 1 QP without a partner in the dumps"});
}

TEST_CASE("pairing errors: several partners, no address for a device, nothing to import") {
  CHECK(error_of(run({{"a.json", "[" + rc("mlx5_0", 10, 20) + "]"},
                      {"b.json", "[" + rc("mlx5_0", 20, 10) + "]"},
                      {"c.json", "[" + rc("mlx5_0", 20, 10) + "]"}})) ==
        "a.json: record 1: QP mlx5_0 lqpn 10 rqpn 20 has several partners: b.json record 1 and c.json record 1");
  CHECK(error_of(run({{"a.json", "[" + rc("mlx5_1", 10, 20) + "]"}, {"b.json", "[" + rc("mlx5_0", 20, 10) + "]"}})) ==
        "a.json: record 1: QP mlx5_1 lqpn 10 rqpn 20: map.csv maps no address to device mlx5_1 of this host");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":\"mlx5_0\",\"lqpn\":1,\"type\":\"GSI\",\"state\":\"RTS\"}]"}})) ==
        "a.json: no flows: none of the 1 QP in 1 dump is an RC QP in RTS state with a partner on another device");
  // A QP pair within one device never reaches the network.
  const auto r = run({{"a.json", "[" + rc("mlx5_0", 10, 20) + "," + rc("mlx5_0", 20, 10) + "," + rc("mlx5_0", 30, 40) +
                                     "]"},
                      {"b.json", "[" + rc("mlx5_0", 40, 30) + "]"}});
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  CHECK(std::get<ImportedFlows>(r).flows.size() == 2);
  CHECK(std::get<ImportedFlows>(r).notes ==
        std::vector<std::string>{"rdma: skipped 2 QPs connected to a QP of the same device"});
}

TEST_CASE("bad dumps and maps name the file, the line:column or record, and the cause") {
  const std::string ok = "[" + rc("mlx5_0", 20, 10) + "]";
  // Line 2 is `  {"ifname": "mlx5_0",,}`: the second comma is at column 23.
  CHECK(error_of(run({{"a.json", "[\n  {\"ifname\": \"mlx5_0\",,}\n]"}})) ==
        "a.json:2:23: invalid JSON: syntax error while parsing object key - unexpected ','; expected string literal");
  // The number starts at column 11 of line 2; nlohmann reports overflow without a position of its own.
  CHECK(error_of(run({{"a.json", "[\n {\"lqpn\": 7.77E777787777,\"ifname\":\"x\"}]"}})) ==
        "a.json:2:11: invalid JSON: number overflow parsing '7.77E777787777'");
  CHECK(error_of(run({{"a.json", "{\"qp\": []}"}})) == "a.json: expected a JSON array of QPs (rdma resource show qp -j)");
  CHECK(error_of(run({{"a.json", "[1]"}})) == "a.json: record 1: expected a JSON object describing one QP");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":\"mlx5_0\",\"type\":\"RC\",\"state\":\"RTS\"}]"}})) ==
        "a.json: record 1: lqpn: missing key");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":\"mlx5_0\",\"lqpn\":-3,\"type\":\"RC\",\"state\":\"RTS\"}]"}})) ==
        "a.json: record 1: lqpn: expected an unsigned integer <= 16777215");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":\"mlx5_0\",\"lqpn\":16777216,\"type\":\"RC\",\"state\":\"RTS\"}]"}})) ==
        "a.json: record 1: lqpn: expected an unsigned integer <= 16777215");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":0,\"lqpn\":5,\"type\":\"RC\",\"state\":\"RTS\"}]"}})) ==
        "a.json: record 1: ifname: expected a string");
  CHECK(error_of(run({{"a.json", "[{\"ifname\":\"mlx5_0\",\"lqpn\":5,\"type\":\"RC\",\"state\":\"RTS\"}]"}})) ==
        "a.json: record 1: QP mlx5_0 lqpn 5: RC QP in RTS state without rqpn");
  // Per-device arrays are flattened: the record counts QPs across them.
  CHECK(error_of(run({{"a.json", "[[" + ok + "],[1]]"}})) ==
        "a.json: record 1: expected a JSON object describing one QP");
  CHECK(error_of(run({{"a.json", ok}}, "")) == "map.csv: no header line (expected host,ifname,ip)");
  CHECK(error_of(run({{"a.json", ok}}, "host,device,ip\n")) == "map.csv:1:1: header: expected the columns host,ifname,ip");
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0\n")) == "map.csv:2:9: expected 3 fields, found 2");
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0,10.0.0.300\n")) ==
        "map.csv:2:10: ip: invalid IPv4 address '10.0.0.300'");
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0,10.0.0.1\na.json,mlx5_0,10.0.0.2\n")) ==
        "map.csv:3:8: ifname: device mlx5_0 of a.json already mapped on line 2");
  CHECK(error_of(run({{"x/a.json", ok}, {"y/a.json", ok}}, "host,ifname,ip\na,mlx5_0,10.0.0.1\n")) ==
        "map.csv:2:1: host: 'a' matches both x/a.json and y/a.json");
}
