#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

namespace flows_command_test {


namespace {

const char* kMultinic = ECMPSIM_SOURCE_DIR "/configs/multinic.toml";

}  // namespace

TEST_CASE("ecmpsim flows on the shipped multi-NIC config") {
  const auto r = cli_run({"flows", kMultinic});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& flows = doc.at("flows");
  // ring: 4 nodes x 16 channels = 64 flows; tree: 2 trees x 3 edges x 2 ways x 8 channels = 96.
  REQUIRE(flows.size() == 160);
  std::size_t ring = 0;
  for (const auto& f : flows) {
    for (const char* key : {"job", "collective", "channel", "lqpn", "rqpn", "src_ip", "dst_ip", "proto", "sport",
                            "dport", "bytes"})
      CHECK(f.contains(key));
    CHECK(f.at("dport") == 4791);
    CHECK(f.at("proto") == 17);
    // Every hop stays on one rail: NIC k of one node to NIC k of another (4 nodes, even).
    const std::string src = f.at("src"), dst = f.at("dst");
    CHECK(src.substr(src.find('.')) == dst.substr(dst.find('.')));
    if (f.at("job") == "ring") {
      ++ring;
      CHECK(f.at("collective") == "ring-allreduce");
      CHECK(f.at("bytes") == 130023424);  // 2*31/32 * 1 GiB / 16 channels
    } else {
      CHECK(f.at("collective") == "tree-allreduce");
      CHECK(f.at("bytes") == 67108864);  // 1 GiB / 16 channels each way
    }
  }
  CHECK(ring == 64);
  // Channel 0 of the ring: the search kept crossNic 0 (NCCL_CROSS_NIC=2 on
  // identical nodes), so node0 receives and sends on NIC 0 (search channel 0).
  CHECK(flows[0].at("src") == "node0.nic0");
  CHECK(flows[0].at("dst") == "node2.nic0");
  CHECK(flows[1].at("src") == "node2.nic0");
}

TEST_CASE("ecmpsim flows --format csv has a header and one row per flow") {
  const auto r = cli_run({"flows", kMultinic, "--format", "csv"});
  REQUIRE(r.code == 0);
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "job,collective,channel,src,dst,src_ip,dst_ip,proto,sport,dport,lqpn,rqpn,bytes");
  std::size_t rows = 0;
  while (std::getline(in, line)) ++rows;
  CHECK(rows == 160);
}

TEST_CASE("ecmpsim flows: bad input is one line, exit 2, nothing on stdout or in --out") {
  const std::string cfg = (std::filesystem::temp_directory_path() / "ecmpsim_flows_bad.toml").string();
  const std::string out = (std::filesystem::temp_directory_path() / "ecmpsim_flows_bad.json").string();
  std::filesystem::remove(out);
  std::ofstream(cfg) << "[[job]]\nnodes = 99\n";
  const auto r = cli_run({"flows", cfg.c_str(), "--out", out.c_str()});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + cfg + ":2:9: job.nodes: job 'job0' needs 99 nodes but only 16 of the fabric's 16 nodes are free\n");
  CHECK(!std::filesystem::exists(out));
  std::filesystem::remove(cfg);
}

namespace {

const char* kWhatifs = ECMPSIM_SOURCE_DIR "/configs/paper16-whatifs.toml";

// include/rdma/ib_verbs.h, rdma_flow_label_to_udp_sport, written out.
unsigned kernel_sport(unsigned fl) { return ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)) | 0xC000; }

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');) out.push_back(cell);
  return out;
}

}  // namespace

TEST_CASE("ecmpsim flows --scenario prints the plan: the kernel derives each sport from its flow_label") {
  const auto r = cli_run({"flows", kWhatifs, "--scenario", "planned", "--format", "csv"});
  REQUIRE(r.code == 0);
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  CHECK(line == "job,collective,channel,src,dst,src_ip,dst_ip,proto,sport,dport,lqpn,rqpn,bytes,flow_label");
  std::size_t rows = 0;
  std::set<unsigned> ports;
  while (std::getline(in, line)) {
    const auto cells = split(line);
    REQUIRE(cells.size() == 14);
    const unsigned sport = std::stoul(cells[8]), label = std::stoul(cells[13]);
    CHECK(label != 0);  // 0 would make the kernel derive a label from the QP pair
    CHECK(kernel_sport(label) == sport);
    CHECK(sport >= 49152);
    ports.insert(sport);
    ++rows;
  }
  CHECK(rows == 64);
  CHECK(ports.size() > 1);
  // Without a plan the ports are the workload's: the ecmp scenario has none to print.
  CHECK(cli_run({"flows", kWhatifs, "--scenario", "ecmp"}).code == 2);
}

TEST_CASE("a planned port re-hashed with ecmpsim hash lands on the link its path says") {
  const auto run = cli_run({"run", kWhatifs, "--scenario", "planned", "--format", "json"});
  REQUIRE(run.code == 0);
  const auto doc = nlohmann::json::parse(run.out);
  const auto& scenario = doc.at("scenarios").at(0);
  CHECK(scenario.at("sports").at("method") == "colouring");
  const auto& flows = scenario.at("flows");
  REQUIRE(flows.size() == 64);
  for (const auto& f : flows) {
    // Path host, leaf, spine, leaf, host: the source leaf hashed the flow over
    // its 4 uplinks, cabled to spine0..spine3 in that order.
    const auto& path = f.at("path");
    REQUIRE(path.size() == 5);
    const auto h = cli_run({"hash", "--algo", "crc16-ccitt", "--members", "4", "--src", f.at("src_ip"), "--dst",
                            f.at("dst_ip"), "--sport", std::to_string(f.at("sport").get<unsigned>()), "--format",
                            "json"});
    REQUIRE(h.code == 0);
    const unsigned member = nlohmann::json::parse(h.out).at("member");
    CHECK(path[2] == "spine" + std::to_string(member));
    CHECK(kernel_sport(f.at("flow_label")) == f.at("sport"));
  }
  // Negative control: the workload's own ports hash elsewhere for some flow.
  const auto ecmp = nlohmann::json::parse(cli_run({"run", kWhatifs, "--scenario", "ecmp", "--format", "json"}).out);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < flows.size(); ++i)
    moved += ecmp.at("scenarios").at(0).at("flows").at(i).at("path") != flows.at(i).at("path");
  CHECK(moved > 0);
}
}  // namespace flows_command_test
