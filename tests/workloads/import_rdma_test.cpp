#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "workloads/import/import_rdma.h"
#include "tests/support/test_data.h"

namespace import_rdma_test {

using namespace ecmpsim::workloads;

namespace {

// `name` relative to tests/data/rdma/ (or "../rdma_text/...").
std::string slurp(const std::string& name) { return ecmpsim::test_support::test_data("rdma/" + name); }

constexpr std::uint32_t ip(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
  return a << 24 | b << 16 | c << 8 | d;
}

std::string error_of(const ImportResult& r) {
  const auto* e = std::get_if<ecmpsim::InputError>(&r);
  return e ? e->describe() : "no error";
}

// One RC QP in RTS as `rdma resource show qp -j` prints it.
std::string rc(const char* dev, int lqpn, int rqpn) {
  return std::string("{\"ifindex\":0,\"ifname\":\"") + dev + "\",\"port\":1,\"lqpn\":" + std::to_string(lqpn) +
         ",\"rqpn\":" + std::to_string(rqpn) + ",\"type\":\"RC\",\"state\":\"RTS\",\"sq-psn\":0,\"pid\":1,\"comm\":\"x\"}";
}

const std::string kMap = "host,ifname,ip\na,mlx5_0,10.0.0.1\nb,mlx5_0,10.0.1.1\nc,mlx5_0,10.0.2.1\n";

ImportResult run(const std::vector<std::pair<std::string, std::string>>& hosts, const std::string& map = kMap,
                 bool allow_unpaired = false) {
  std::vector<ImportFile> dumps;
  for (const auto& [name, text] : hosts) dumps.push_back({name, text});
  return parse_rdma(dumps, {{"map.csv", map}, 4096, allow_unpaired});
}

}  // namespace

TEST_CASE("QPs pair across two hosts; each RC QP in RTS is one flow with the kernel's source port") {
  const std::string h1 = slurp("host1.json"), h2 = slurp("host2.json"), map = slurp("map.csv");
  const std::vector<ImportFile> dumps{{"dumps/host1.json", h1}, {"dumps/host2.json", h2}};
  const auto r = parse_rdma(dumps, {{"map.csv", map}, 1 << 20, false});
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
    CHECK(f.bytes == (1u << 19));  // each pair carries 1 MiB, half each way
  }
  // Addresses are located in the map: host1,mlx5_0 on line 4, host2,mlx5_1 on line 7, the ip column at 14.
  CHECK(im.files.at(im.src_where[0].file) == "map.csv");
  CHECK(im.src_where[0].line == 4);
  CHECK(im.src_where[0].column == 14);
  CHECK(im.dst_where[1].line == 7);
  CHECK(im.src_field == "ip");
  // host1: the GSI QP, the UD QP and the RC QP still in INIT; host2: its GSI QP.
  CHECK(im.notes == std::vector<std::string>{
                        "dumps/host1.json: skipped 3 QPs not RC in RTS state: 1 GSI in RTS, 1 RC in INIT, 1 UD in RTS",
                        "dumps/host2.json: skipped 1 QP not RC in RTS state: 1 GSI in RTS"});
}

TEST_CASE("the map's host matches a dump by path, file name or file name without extension") {
  for (const char* host : {"d/x.json", "x.json", "x"}) {
    const std::string map = std::string("host,ifname,ip\n") + host + ",mlx5_0,10.0.0.1\n" + host + ",mlx5_1,10.0.0.2\n";
    const auto r = parse_rdma(std::vector<ImportFile>{{"d/x.json", "[" + rc("mlx5_0", 7, 9) + "," + rc("mlx5_1", 9, 7) + "]"}},
                              {{"m.csv", map}, 1, false});
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
        "map.csv:2:10: ip: invalid IP address '10.0.0.300'");
  // IPv6 (issue 23): a malformed address, and one family per map, the first offender named.
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0,fd00::1::\n")) ==
        "map.csv:2:10: ip: invalid IP address 'fd00::1::'");
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0,fd00::1\nb,mlx5_0,10.0.0.2\n")) ==
        "map.csv:3:10: ip: IPv4 address '10.0.0.2' among IPv6 addresses (one address family per map)");
  CHECK(error_of(run({{"a.json", ok}}, "host,ifname,ip\na,mlx5_0,10.0.0.1\na.json,mlx5_0,10.0.0.2\n")) ==
        "map.csv:3:8: ifname: device mlx5_0 of a.json already mapped on line 2");
  CHECK(error_of(run({{"x/a.json", ok}, {"y/a.json", ok}}, "host,ifname,ip\na,mlx5_0,10.0.0.1\n")) ==
        "map.csv:2:1: host: 'a' matches both x/a.json and y/a.json");
}

TEST_CASE("a QP pair's traffic is counted once: its two directions share flow_bytes") {
  const std::string a = "[" + rc("mlx5_0", 10, 20) + "]", b = "[" + rc("mlx5_0", 20, 10) + "]";
  const std::vector<ImportFile> dumps{{"a.json", a}, {"b.json", b}};
  for (const std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{5}, std::uint64_t{1}}) {
    CAPTURE(bytes);
    const auto r = parse_rdma(dumps, {{"map.csv", kMap}, bytes, false});
    REQUIRE(std::holds_alternative<ImportedFlows>(r));
    const auto& f = std::get<ImportedFlows>(r).flows;
    REQUIRE(f.size() == 2);
    // One flow each way, with the same kernel source port.
    CHECK(f.src_ip[0] == f.dst_ip[1]);
    CHECK(f.src_ip[1] == f.dst_ip[0]);
    CHECK(f.sport[0] == f.sport[1]);
    // The QP read first takes the odd byte; a 1-byte pair still gives each direction a byte.
    CHECK(f.bytes[0] == std::max<std::uint64_t>(1, (bytes + 1) / 2));
    CHECK(f.bytes[1] == std::max<std::uint64_t>(1, bytes / 2));
    if (bytes > 1) CHECK(f.bytes[0] + f.bytes[1] == bytes);
  }
}

TEST_CASE("the text `rdma resource show qp` prints reads to the same flows as its -j JSON") {
  const std::string map = slurp("map.csv");
  const std::string j1 = slurp("host1.json"), j2 = slurp("host2.json");
  const std::string t1 = slurp("../rdma_text/host1.txt"), t2 = slurp("../rdma_text/host2.txt");
  const std::vector<ImportFile> json{{"host1.json", j1}, {"host2.json", j2}};
  const std::vector<ImportFile> text{{"host1.txt", t1}, {"host2.txt", t2}};
  const std::vector<ImportFile> mixed{json[0], text[1]};
  const auto a = parse_rdma(json, {{"map.csv", map}, 1 << 20, false});
  const auto b = parse_rdma(text, {{"map.csv", map}, 1 << 20, false});
  const auto c = parse_rdma(mixed, {{"map.csv", map}, 1 << 20, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(a));
  REQUIRE(std::holds_alternative<ImportedFlows>(b));
  REQUIRE(std::holds_alternative<ImportedFlows>(c));
  const auto &fa = std::get<ImportedFlows>(a).flows, &fb = std::get<ImportedFlows>(b).flows,
             &fc = std::get<ImportedFlows>(c).flows;
  REQUIRE(fa.size() == 4);
  for (const Flows* f : {&fb, &fc}) {
    CHECK(f->src_ip == fa.src_ip);
    CHECK(f->dst_ip == fa.dst_ip);
    CHECK(f->lqpn == fa.lqpn);
    CHECK(f->rqpn == fa.rqpn);
    CHECK(f->sport == fa.sport);
    CHECK(f->bytes == fa.bytes);
  }
  // The same QPs skipped: host2.txt's prompt line is not a QP.
  CHECK(std::get<ImportedFlows>(b).notes ==
        std::vector<std::string>{"host1.txt: skipped 3 QPs not RC in RTS state: 1 GSI in RTS, 1 RC in INIT, 1 UD in RTS",
                                 "host2.txt: skipped 1 QP not RC in RTS state: 1 GSI in RTS"});
}

namespace {

// The pasted session read to the flows of the clean dumps.
void same_flows(const ImportResult& r, const Flows& expected) {
  INFO(error_of(r));
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const Flows& got = std::get<ImportedFlows>(r).flows;
  CHECK(got.src_ip == expected.src_ip);
  CHECK(got.dst_ip == expected.dst_ip);
  CHECK(got.sport == expected.sport);
}

}  // namespace

TEST_CASE("pasted sessions: prompts that run rdma are skipped, in text and above -j JSON") {
  const std::string map = slurp("map.csv");
  const std::string t1 = slurp("../rdma_text/host1.txt"), t2 = slurp("../rdma_text/host2.txt");
  const std::string j1 = slurp("host1.json"), j2 = slurp("host2.json");
  const auto want = parse_rdma(std::vector<ImportFile>{{"host1", t1}, {"host2", t2}}, {{"map.csv", map}, 2, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(want));
  const Flows& expected = std::get<ImportedFlows>(want).flows;
  REQUIRE(expected.size() == 4);
  for (const char* prompt : {"root@host:~# rdma res show qp", "$ sudo rdma resource show qp",
                             "# /opt/mellanox/iproute2/sbin/rdma res show qp", "[root@h ~]# rdma res show qp"}) {
    CAPTURE(prompt);
    const std::string p = std::string(prompt) + "\n";
    // JSON pasted below its prompt ("rdma -j ..."); the other host as text.
    same_flows(parse_rdma(std::vector<ImportFile>{{"host1", p + t1}, {"host2", p + j2}}, {{"map.csv", map}, 2, false}),
               expected);
  }
  // Negative control: a prompt that runs another command is not skipped, and
  // says so; a JSON error below a prompt keeps its own line and column.
  CHECK(error_of(run({{"a.txt", "root@host:~# ip -br addr\nlink mlx5_0/1 lqpn 7 rqpn 9 type RC state RTS\n"}})) ==
        "a.txt:1:1: expected a QP line 'link DEV/PORT lqpn N ...' (rdma resource show qp), found 'root@host:~#'");
  CHECK(error_of(run({{"a.json", "$ rdma -j res show qp\n[{\"ifname\": \"x\",,}]"}})).rfind("a.json:2:", 0) == 0);
}

TEST_CASE("pasted sessions: the bare prompt a terminal shows after the output is skipped (issue 49)") {
  const std::string map = slurp("map.csv");
  const std::string t1 = slurp("../rdma_text/host1.txt"), t2 = slurp("../rdma_text/host2.txt");
  const std::string j2 = slurp("host2.json");
  const auto want = parse_rdma(std::vector<ImportFile>{{"host1", t1}, {"host2", t2}}, {{"map.csv", map}, 2, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(want));
  const Flows& expected = std::get<ImportedFlows>(want).flows;
  REQUIRE(expected.size() == 4);
  // As bash, a root shell, RHEL's bracketed prompt and zsh/tcsh print them,
  // with and without the trailing space and newline a copy keeps.
  for (const char* prompt : {"root@host:~# ", "user@gpu-07:~$", "[root@h ~]# ", "h% >", "$ "}) {
    const std::string end = std::string(prompt);
    CAPTURE(end);
    for (const std::string& tail : {end, end + "\n"}) {
      same_flows(
          parse_rdma(std::vector<ImportFile>{{"host1", t1 + tail}, {"host2", j2 + tail}}, {{"map.csv", map}, 2, false}),
          expected);
    }
  }
  // Negative control: a prompt with a command typed after it is not bare.
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 7 rqpn 9 type RC state RTS\nroot@host:~# exit\n"}})) ==
        "a.txt:2:1: expected a QP line 'link DEV/PORT lqpn N ...' (rdma resource show qp), found 'root@host:~#'");
}

TEST_CASE("skipped QPs are counted by type and state; connected QPs that send data are named apart") {
  // iproute2's type and state names (rdma/res.c qp_types_to_str, res-qp.c
  // qp_states_to_str). An XRC initiator and a UC QP in RTS send data (IBA
  // vol. 1); a UD, GSI or RC QP not yet in RTS carries none of a connection's.
  const std::string a =
      "link mlx5_0/1 lqpn 7 rqpn 9 type RC state RTS sq-psn 0 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core]\n"
      "link mlx5_0/1 lqpn 30 type XRC_INI state RTS sq-psn 0 pdn 3 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 31 type XRC_INI state RTS sq-psn 0 pdn 3 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 32 rqpn 77 type UC state RTS sq-psn 0 pdn 3 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 33 type XRC_INI state INIT sq-psn 0 pdn 3 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 34 type UD state RTS sq-psn 0 pdn 3 pid 1 comm x\n"
      "link mlx5_0/1 lqpn 35 type XRC_TGT state RTR pdn 3 pid 1 comm x\n";
  const std::string b = "link mlx5_0/1 lqpn 9 rqpn 7 type RC state RTS sq-psn 0 pid 1 comm x\n";
  const auto r = parse_rdma(std::vector<ImportFile>{{"a", a}, {"b", b}}, {{"m.csv", kMap}, 2, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  const auto& im = std::get<ImportedFlows>(r);
  CHECK(im.flows.size() == 2);
  CHECK(im.notes ==
        std::vector<std::string>{"a: 3 QPs carry data but no flow is made of it (only RC QPs in RTS state are imported): "
                                 "1 UC in RTS, 2 XRC_INI in RTS",
                                 "a: skipped 4 QPs not RC in RTS state: 1 GSI in RTS, 1 UD in RTS, 1 XRC_INI in INIT, "
                                 "1 XRC_TGT in RTR"});
  // Negative control: with no sending QP there is no such note.
  CHECK(std::get<ImportedFlows>(
            parse_rdma(std::vector<ImportFile>{{"a", a.substr(0, a.find("link mlx5_0/1 lqpn 30"))}, {"b", b}},
                       {{"m.csv", kMap}, 2, false}))
            .notes == std::vector<std::string>{"a: skipped 1 QP not RC in RTS state: 1 GSI in RTS"});
}

TEST_CASE("rdma -dd: indented driver fields are skipped in text; its broken JSON says to drop -dd") {
  // hns RoCE QPs with the driver fields iproute2 prints after -dd (hns_roce restrack).
  const std::string map = "host,ifname,ip\na,hns_0,10.0.0.1\nb,hns_0,10.0.1.1\n";
  const std::string a =
      "link hns_0/1 lqpn 8 rqpn 9 type RC state RTS rq-psn 0 sq-psn 0 path-mig-state MIGRATED pdn 5 pid 77 comm ib_send_bw \n"
      "    drv_sq_wqe_cnt 128 drv_sq_max_gs 2 drv_rq_wqe_cnt 512 drv_rq_max_gs 1 drv_ext_sge_sge_cnt 0 \n";
  const std::string b =
      "link hns_0/1 lqpn 9 rqpn 8 type RC state RTS rq-psn 0 sq-psn 0 path-mig-state MIGRATED pdn 5 pid 78 comm ib_send_bw \\"
      "    drv_sq_wqe_cnt 128 drv_sq_max_gs 2 \n";  // -o: one line, driver fields after a backslash
  const auto r = parse_rdma(std::vector<ImportFile>{{"a", a}, {"b", b}}, {{"m.csv", map}, 2, false});
  REQUIRE(std::holds_alternative<ImportedFlows>(r));
  CHECK(std::get<ImportedFlows>(r).flows.size() == 2);
  // iproute2 5.5-6.6 with -j -dd: the QP's object is closed before the driver fields.
  const std::string broken =
      "[{\"ifindex\":3,\"ifname\":\"hns_0\",\"port\":1,\"lqpn\":8,\"rqpn\":9,\"type\":\"RC\",\"state\":\"RTS\","
      "\"rq-psn\":0,\"sq-psn\":0,\"path-mig-state\":\"MIGRATED\",\"pdn\":5,\"pid\":77,\"comm\":\"ib_send_bw\"},"
      "\"drv_sq_wqe_cnt\":128,\"drv_sq_max_gs\":2}]";
  const std::string e = error_of(parse_rdma(std::vector<ImportFile>{{"a.json", broken}}, {{"m.csv", map}, 2, false}));
  CHECK(e.rfind("a.json:1:", 0) == 0);
  CHECK(e.find("drop -dd") != std::string::npos);
  // Negative control: other broken JSON keeps the parser's own message.
  CHECK(error_of(run({{"a.json", "[{\"ifname\": \"x\",,}]"}})).find("drop -dd") == std::string::npos);
}

TEST_CASE("bad text dumps name the file, line, column and field") {
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 7 rqpn 9 type RC state RTS\nmlx5_0 lqpn 8\n"}})) ==
        "a.txt:2:1: expected a QP line 'link DEV/PORT lqpn N ...' (rdma resource show qp), found 'mlx5_0'");
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 16777216 type RC state RTS\n"}})) ==
        "a.txt:1:20: lqpn: expected an unsigned integer <= 16777215, found '16777216'");
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 7 rqpn x9 type RC state RTS\n"}})) ==
        "a.txt:1:27: rqpn: expected an unsigned integer <= 16777215, found 'x9'");
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 type RC state RTS sq-psn 0\n"}})) ==
        "a.txt:1:41: lqpn: missing (raw -r dumps hold no QP numbers: drop -r)");
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 7 type RC state\n"}})) == "a.txt:1:35: state: missing value");
  CHECK(error_of(run({{"a.txt", "link mlx5_0/1 lqpn 7 type RC state RTS\n"}})) ==
        "a.txt:1:1: QP mlx5_0 lqpn 7: RC QP in RTS state without rqpn");
  CHECK(error_of(run({{"a.txt", "link\n"}})) == "a.txt:1:5: link: missing DEV/PORT");
  // Pairing errors point at the line of the QP.
  CHECK(error_of(run({{"a.txt", "\nlink mlx5_0/1 lqpn 10 rqpn 20 type RC state RTS\n"},
                      {"b.txt", "link mlx5_0/1 lqpn 20 rqpn 10 type RC state RTS\n"},
                      {"c.txt", "link mlx5_0/1 lqpn 20 rqpn 10 type RC state RTS\n"}})) ==
        "a.txt:2:1: QP mlx5_0 lqpn 10 rqpn 20 has several partners: b.txt line 1 and c.txt line 1");
}

TEST_CASE("every prefix of a text dump is read without crashing") {
  const std::string t1 = slurp("../rdma_text/host1.txt"), t2 = slurp("../rdma_text/host2.txt");
  const std::string map = slurp("map.csv");
  for (std::size_t n = 0; n <= t1.size(); ++n) {
    const std::string cut = t1.substr(0, n);
    const auto r = parse_rdma(std::vector<ImportFile>{{"host1.txt", cut}, {"host2.txt", t2}}, {{"map.csv", map}, 2, true});
    if (const auto* im = std::get_if<ImportedFlows>(&r)) CHECK(im->flows.size() <= 4);
  }
}
}  // namespace import_rdma_test
