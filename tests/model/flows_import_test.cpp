#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "sim/model/flows_import.h"
#include "workloads/import/import_csv.h"
#include "workloads/import/importers.h"

namespace flows_import_test {

using namespace ecmpsim;

namespace {

const std::string kSrc = ECMPSIM_SOURCE_DIR;

std::string place_error(const std::string& csv) {
  const auto r = workloads::parse_flows_csv(csv, "f.csv");
  REQUIRE(std::holds_alternative<workloads::ImportedFlows>(r));
  Spec spec;  // the default fabric: 4 leaves x 4 hosts, 10.0.t.1..4 on leaf t
  try {
    place_imported_flows(std::get<workloads::ImportedFlows>(r), build_fabric(spec.fabric), {});
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace

TEST_CASE("the input format is recognised by magic number, rdma's keys or text, or extension") {
  using workloads::detect_flows_format;
  using workloads::FlowsFormat;
  CHECK(detect_flows_format("\xd4\xc3\xb2\xa1\x02\x00", "x") == FlowsFormat::Pcap);  // little-endian µs pcap
  CHECK(detect_flows_format("\xa1\xb2\xc3\xd4", "x") == FlowsFormat::Pcap);          // big-endian
  CHECK(detect_flows_format("\x4d\x3c\xb2\xa1", "x") == FlowsFormat::Pcap);          // ns pcap
  CHECK(detect_flows_format("\x0a\x0d\x0d\x0a", "x.csv") == FlowsFormat::Pcap);      // pcapng
  CHECK(detect_flows_format(" \n[{\"ifindex\":0,\"ifname\":\"mlx5_0\",\"port\":1,\"lqpn\":1,", "x") == FlowsFormat::Rdma);
  CHECK(detect_flows_format("{}", "x") == std::nullopt);  // JSON, but no dump: no importer reads it
  CHECK(detect_flows_format("", "x.pcapng") == FlowsFormat::Pcap);
  CHECK(detect_flows_format("", "x.json") == FlowsFormat::Rdma);
  CHECK(detect_flows_format("src_ip,dst_ip", "x.txt") == FlowsFormat::Csv);
  // The text `rdma resource show qp` prints, pasted as it is, with or without the prompt.
  CHECK(detect_flows_format("link mlx5_0/1 lqpn 1 type GSI state RTS sq-psn 0 comm [ib_core] ", "h.txt") ==
        FlowsFormat::Rdma);
  CHECK(detect_flows_format("\n  link mlx5_0/- lqpn 7", "h") == FlowsFormat::Rdma);
  CHECK(detect_flows_format("$ rdma res show qp\nlink mlx5_0/1 lqpn 1", "h.log") == FlowsFormat::Rdma);
  CHECK(detect_flows_format("# rdma -dd resource show qp\n", "h.log") == FlowsFormat::Rdma);
  // Prompts as terminals print them (issue 34): user@host, sudo, a full path, a bracketed prompt.
  for (const char* prompt : {"root@host:~# rdma res show qp", "$ sudo rdma resource show qp",
                             "# /opt/mellanox/iproute2/sbin/rdma res show qp", "[root@h ~]# rdma res show qp",
                             "user@gpu-07:~$ sudo -E rdma -d res show qp"}) {
    CAPTURE(prompt);
    CHECK(detect_flows_format(std::string(prompt) + "\nlink mlx5_0/1 lqpn 1", "h.log") == FlowsFormat::Rdma);
  }
  // Negative controls: CSV comments and headers stay CSV, and so does a prompt
  // running another command, or one whose name only starts with rdma.
  CHECK(detect_flows_format("# flows of job 3\nsrc_ip,dst_ip", "f.csv") == FlowsFormat::Csv);
  CHECK(detect_flows_format("root@host:~# cat flows.csv\nsrc_ip,dst_ip", "f") == FlowsFormat::Csv);
  CHECK(detect_flows_format("$ sudo rdmatool x\nsrc_ip,dst_ip", "f") == FlowsFormat::Csv);
  CHECK(detect_flows_format("src_ip,dst_ip,note\n10.0.0.1,10.0.0.2,rdma", "f") == FlowsFormat::Csv);
  CHECK(detect_flows_format("linked,src_ip", "f") == FlowsFormat::Csv);
}

TEST_CASE("ecmpsim run --flows reads pasted rdma text dumps like their JSON") {
  const std::string json = kSrc + "/tests/data/rdma", text = kSrc + "/tests/data/rdma_text";
  const auto a = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", json, "--rdma-map", json + "/map.csv",
                          "--format", "csv"});
  // A directory of *.txt dumps; files detected as rdma without --flows-format.
  const auto b = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", text, "--rdma-map", json + "/map.csv",
                          "--format", "csv"});
  const auto c = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", text + "/host1.txt," + text + "/host2.txt",
                          "--rdma-map", json + "/map.csv", "--format", "csv"});
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  REQUIRE(c.code == 0);
  CHECK(b.out == a.out);
  CHECK(c.out == a.out);
  // One text dump alone is detected as rdma, not CSV: it asks for its map.
  const auto d = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", text + "/host1.txt"});
  CHECK(d.code == 2);
  CHECK(d.err == "ecmpsim: --rdma-map: required for rdma flows (a CSV host,ifname,ip)\n");
}

TEST_CASE("imported flows are placed on the endpoints owning their addresses") {
  const auto r = workloads::parse_flows_csv(
      "src_ip,dst_ip,proto,sport,dport,bytes\n10.0.0.1,10.0.3.4,17,1,4791,5\n10.0.2.2,10.0.0.3,17,1,4791,5\n", "f.csv");
  Spec spec;
  const auto flows = place_imported_flows(std::get<workloads::ImportedFlows>(r), build_fabric(spec.fabric), {});
  // Host K on leaf t has 10.0.t.(K%4+1): 10.0.3.4 is host 15, 10.0.2.2 host 9, 10.0.0.3 host 2.
  CHECK(flows.src[0] == 0);
  CHECK(flows.dst[0] == 15);
  CHECK(flows.src[1] == 9);
  CHECK(flows.dst[1] == 2);
}

TEST_CASE("an address outside the fabric's plan is an error at its line and column") {
  const std::string h = "src_ip,dst_ip,proto,sport,dport,bytes\n";
  CHECK(place_error(h + "10.0.0.1,10.0.0.2,17,1,4791,5\n10.0.4.1,10.0.0.2,17,1,4791,5\n") ==
        "f.csv:3:1: src_ip: 10.0.4.1 is not the address of any endpoint in the fabric");
  CHECK(place_error(h + "10.0.0.1, 10.0.0.5,17,1,4791,5\n") ==
        "f.csv:2:11: dst_ip: 10.0.0.5 is not the address of any endpoint in the fabric");
  CHECK(place_error(h + "10.0.1.1,10.0.1.1,17,1,4791,5\n") ==
        "f.csv:2:10: dst_ip: flow from 10.0.1.1 to itself never enters the network");
}

TEST_CASE("ecmpsim run --flows routes the imported CSV flows on paper16") {
  const auto r = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", kSrc + "/tests/data/paper16_flows.csv",
                          "--format", "csv"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  // scenario -> "from>to" -> (flows, bytes), busy links only.
  std::map<std::string, std::map<std::string, std::pair<int, long>>> busy;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "scenario,id,from,to,flows,bytes,start_gbps");
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    std::istringstream f(line);
    std::string s, id, from, to, flows, bytes;
    std::getline(f, s, ',');
    std::getline(f, id, ',');
    std::getline(f, from, ',');
    std::getline(f, to, ',');
    std::getline(f, flows, ',');
    std::getline(f, bytes, ',');
    CHECK(id == from + "->" + to);  // one cable per pair: no "#k"
    if (flows != "0") busy[s][from + ">" + to] = {std::stoi(flows), std::stol(bytes)};
  }
  CHECK(rows == 64);  // 2 scenarios x 32 leaf-spine links, both directions
  // static dst-mod pins destination host K to spine K mod 4 (one link per leaf-spine pair):
  //   host0 -> host5   (1000 B): leaf0 -> spine1 -> leaf1
  //   host1 -> host11  (2000 B): leaf0 -> spine3 -> leaf2
  //   host12 -> host2  (3000 B): leaf3 -> spine2 -> leaf0
  //   host4 -> host6   (4000 B): both on leaf1, no switch-to-switch link
  //   host8 -> host0   (5000 B): leaf2 -> spine0 -> leaf0
  const std::map<std::string, std::pair<int, long>> expected_static{
      {"leaf0>spine1", {1, 1000}}, {"spine1>leaf1", {1, 1000}}, {"leaf0>spine3", {1, 2000}},
      {"spine3>leaf2", {1, 2000}}, {"leaf3>spine2", {1, 3000}}, {"spine2>leaf0", {1, 3000}},
      {"leaf2>spine0", {1, 5000}}, {"spine0>leaf0", {1, 5000}}};
  CHECK(busy["static"] == expected_static);
  // ECMP picks the spines by hash, but whatever it picks each inter-leaf flow
  // leaves its source leaf once and enters its destination leaf once.
  std::map<std::string, std::pair<int, long>> up, down;
  for (const auto& [link, v] : busy["ecmp"]) {
    const auto gt = link.find('>');
    auto& side = link.rfind("leaf", 0) == 0 ? up[link.substr(0, gt)] : down[link.substr(gt + 1)];
    side.first += v.first;
    side.second += v.second;
  }
  CHECK(up == std::map<std::string, std::pair<int, long>>{
                  {"leaf0", {2, 3000}}, {"leaf2", {1, 5000}}, {"leaf3", {1, 3000}}});
  CHECK(down == std::map<std::string, std::pair<int, long>>{
                    {"leaf0", {2, 8000}}, {"leaf1", {1, 1000}}, {"leaf2", {1, 2000}}});
}

TEST_CASE("ecmpsim run --flows reads a capture and reports the skipped packets on stderr") {
  const std::string cap = kSrc + "/tests/data/roce_mixed.pcap";
  const auto r = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", cap, "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.err == "ecmpsim: " + cap + ": skipped 2 non-RoCE packets\necmpsim: " + cap +
                     ": 1 RoCEv2 packet carries no data and makes no flow: 1 ACK/NAK (BTH opcode 0x11)\n");
  // Two flows (tests/import_pcap_test.cpp): 148 + 152 bytes; the ACK is no flow.
  CHECK(r.out.find("\"collective\": \"imported\",\n    \"format\": \"pcap\",\n    \"files\": \"" + cap +
                   "\",\n    \"flows\": 2,\n    \"bytes\": 300") != std::string::npos);
}

TEST_CASE("ecmpsim run --flows DIR --rdma-map pairs the hosts' QPs and routes them") {
  const std::string dir = kSrc + "/tests/data/rdma";
  const auto r = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", dir, "--rdma-map", dir + "/map.csv",
                          "--flow-bytes", "1MiB", "--format", "csv"});
  REQUIRE(r.code == 0);
  CHECK(r.err == "ecmpsim: " + dir +
                     "/host1.json: skipped 3 QPs not RC in RTS state: 1 GSI in RTS, 1 RC in INIT, 1 UD in RTS\n"
                     "ecmpsim: " + dir + "/host2.json: skipped 1 QP not RC in RTS state: 1 GSI in RTS\n");
  // Four flows (tests/import_rdma_test.cpp): 10.0.0.1 (host0) <-> 10.0.1.1 (host4) and
  // 10.0.0.2 (host1) <-> 10.0.1.2 (host5). dst-mod sends host K's traffic over spine K mod 4:
  // host4 and host0 over spine0, host5 and host1 over spine1. Each QP pair
  // carries 1 MiB, half each way: 512 KiB per flow.
  std::string busy;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("static,", 0) == 0 && line.find(",0,0") == std::string::npos) busy += line + "\n";
  // Each flow is alone on every link of its path, so it starts at the full 400 Gb/s (start_gbps).
  CHECK(busy ==
        "static,leaf0->spine0,leaf0,spine0,1,524288,400\nstatic,spine0->leaf0,spine0,leaf0,1,524288,400\n"
        "static,leaf0->spine1,leaf0,spine1,1,524288,400\nstatic,spine1->leaf0,spine1,leaf0,1,524288,400\n"
        "static,leaf1->spine0,leaf1,spine0,1,524288,400\nstatic,spine0->leaf1,spine0,leaf1,1,524288,400\n"
        "static,leaf1->spine1,leaf1,spine1,1,524288,400\nstatic,spine1->leaf1,spine1,leaf1,1,524288,400\n");
  // nccl-tests' 1M is binary, the same 1 MiB; 1MB is 10^6 bytes, 500000 per flow.
  const auto m = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", dir, "--rdma-map", dir + "/map.csv",
                          "--flow-bytes", "1M", "--format", "csv"});
  CHECK(m.out == r.out);
  const auto mb = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", dir, "--rdma-map", dir + "/map.csv",
                           "--flow-bytes", "1MB", "--format", "csv"});
  CHECK(mb.out.find("static,leaf0->spine0,leaf0,spine0,1,500000,400\n") != std::string::npos);
  // Comma-separated dumps read the same, and without --flow-bytes each of the
  // two QP pairs carries the config's message size (1 GiB): 2 GiB in all.
  const auto j = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", dir + "/host1.json," + dir + "/host2.json",
                          "--rdma-map", dir + "/map.csv", "--format", "json"});
  REQUIRE(j.code == 0);
  CHECK(j.out.find("\"flows\": 4,\n    \"bytes\": 2147483648") != std::string::npos);
  // The map is named as the map, not as a third dump (issue 34 item 8).
  CHECK(j.out.find("\"files\": \"" + dir + "/host1.json," + dir + "/host2.json\",\n    \"map\": \"" + dir +
                   "/map.csv\",") != std::string::npos);
  const auto t = cli_run({"run", kSrc + "/configs/paper16.toml", "--flows", dir, "--rdma-map", dir + "/map.csv",
                          "--format", "summary"});
  CHECK(t.out.find("workload  imported rdma from " + dir + "/host1.json," + dir + "/host2.json (map " + dir +
                   "/map.csv): 4 flows") != std::string::npos);
}

TEST_CASE("ecmpsim run --flows errors: one line, exit 2, nothing on stdout") {
  const std::string cfg = kSrc + "/configs/paper16.toml";
  auto check = [](const CliResult& r, const std::string& err) {
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "ecmpsim: " + err + "\n");
  };
  check(cli_run({"run", cfg, "--flows", "/nonexistent/flows.csv"}),
        "/nonexistent/flows.csv: cannot open the flows file");
  check(cli_run({"run", cfg, "--flow-bytes", "1MiB"}), "--flow-bytes: only used with --flows");
  const std::string dir = kSrc + "/tests/data/rdma";
  check(cli_run({"run", cfg, "--flows", dir}), "--rdma-map: required for rdma flows (a CSV host,ifname,ip)");
  check(cli_run({"run", cfg, "--flows", kSrc + "/tests/data/paper16_flows.csv", "--rdma-map", dir + "/map.csv"}),
        "--rdma-map: only used with rdma flows");
  check(cli_run({"run", cfg, "--flows", dir, "--flows-format", "csv"}),
        "--flows: a directory is only read for rdma dumps");
  check(cli_run({"run", cfg, "--flows", kSrc + "/tests/data/paper16_flows.csv," + kSrc + "/tests/data/paper16_flows.csv"}),
        "--flows: several files are only read for rdma dumps");
  {
    // A map address outside the fabric is reported at its line and column in the map.
    const auto map = std::filesystem::temp_directory_path() /
                     ("ecmpsim_flows_import_test_map." + std::to_string(::getpid()) + ".csv");
    std::ofstream(map) << "host,ifname,ip\nhost1,mlx5_0,10.0.0.1\nhost1,mlx5_1,10.0.0.2\n"
                          "host2,mlx5_0,10.0.9.1\nhost2,mlx5_1,10.0.1.2\n";
    check(cli_run({"run", cfg, "--flows", dir, "--rdma-map", map.string()}),
          map.string() + ":4:14: ip: 10.0.9.1 is not the address of any endpoint in the fabric");
    std::filesystem::remove(map);
  }
  // tests/golden/small.toml has 2 leaves x 2 hosts: 10.0.0.1-2 and 10.0.1.1-2; the
  // capture's record 5 goes to 10.0.2.1.
  const std::string cap = kSrc + "/tests/data/roce_mixed.pcap";
  check(cli_run({"run", kSrc + "/tests/golden/small.toml", "--flows", cap}),
        cap + ": record 5: dst_ip: 10.0.2.1 is not the address of any endpoint in the fabric");
  // A capture forced through the CSV reader: its bytes are quoted printably
  // (pcap magic, version 2.4, then the clock-dependent rest), on one line,
  // escaped as every error line is (sim/base/text.h): the invalid UTF-8 and
  // the controls as \xNN, the one valid pair c3 b2 ("ò") as it is.
  const auto forced = cli_run({"run", cfg, "--flows", kSrc + "/tests/data/non_roce.pcap", "--flows-format", "csv"});
  CHECK(forced.code == 2);
  CHECK(forced.err.rfind("ecmpsim: " + kSrc + "/tests/data/non_roce.pcap:1:1: header: unknown column "
                         "'\\xd4\xc3\xb2\\xa1\\x02\\x00\\x04\\x00", 0) == 0);
  CHECK(forced.err.find('\n') == forced.err.size() - 1);
  check(cli_run({"run", cfg, "--flows", kSrc + "/tests/data/paper16_flows.csv", "--flow-bytes", "lots"}),
        "--flow-bytes: invalid size 'lots' (bytes, or with a unit: 512M, 1G, 256MiB, 1GB)");
  check(cli_run({"run", cfg, "--flows", kSrc + "/tests/data/paper16_flows.csv", "--flow-bytes", "0"}),
        "--flow-bytes: expected a positive size, got '0'");
}
}  // namespace flows_import_test
