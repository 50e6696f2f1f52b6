#include <doctest/doctest.h>

#include "sim/config/config.h"
#include "sim/model/simulation.h"

using namespace ecmpsim;

namespace {

// CRC-16/CCITT-FALSE, bit by bit, independent of the Boost.CRC model under test.
std::uint16_t crc16_ccitt_bitwise(const std::vector<std::uint8_t>& data) {
  std::uint16_t crc = 0xFFFF;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint16_t>(b << 8);
    for (int i = 0; i < 8; ++i) crc = (crc & 0x8000) ? static_cast<std::uint16_t>((crc << 1) ^ 0x1021) : crc << 1;
  }
  return crc;
}

std::vector<std::string> path_names(const Simulation& sim, const ScenarioResult& r, std::size_t flow) {
  std::vector<std::string> out;
  const auto p = r.trace.path(flow);
  out.push_back(sim.fabric().node(sim.fabric().link(p.front()).from).name);
  for (LinkId l : p) out.push_back(sim.fabric().node(sim.fabric().link(l).to).name);
  return out;
}

const char* kSmall = R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 1
[workload]
nodes = 2
channels = 2
message_bytes = 1000
[[scenario]]
name = "ecmp"
[[scenario]]
name = "pinned"
routing = "static"
routes = [
  { switch = "leaf0", dst = "10.0.1.0/24", via = "spine1" },
  { switch = "leaf1", dst = "10.0.0.1", via = "spine0" },
  { switch = "spine0", dst = "10.0.0.0/23", via = "leaf0" },
  { switch = "spine1", dst = "10.0.1.0/24", via = "leaf1" },
]
)";

}  // namespace

TEST_CASE("the self-test CRC matches the published check value") {
  CHECK(crc16_ccitt_bitwise({'1', '2', '3', '4', '5', '6', '7', '8', '9'}) == 0x29B1);
}

TEST_CASE("a small fabric worked by hand: every path known") {
  const Simulation sim(parse_config(kSmall, "small.toml"));
  const auto& flows = sim.flows();
  // 2 nodes, 2 channels: host0 -> host1 and host1 -> host0 on each channel.
  REQUIRE(flows.size() == 4);
  const auto ecmp = sim.run(sim.spec().scenarios[0]);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    // The key: src IP, dst IP, proto, sport, dport in network byte order.
    std::vector<std::uint8_t> key;
    for (std::uint32_t ip : {flows.src_ip[f].v4(), flows.dst_ip[f].v4()})
      for (int s = 24; s >= 0; s -= 8) key.push_back(static_cast<std::uint8_t>(ip >> s));
    key.push_back(17);
    for (std::uint16_t port : {flows.sport[f], flows.dport[f]}) {
      key.push_back(static_cast<std::uint8_t>(port >> 8));
      key.push_back(static_cast<std::uint8_t>(port));
    }
    const std::string spine = "spine" + std::to_string(crc16_ccitt_bitwise(key) % 2);
    const bool up = flows.src[f] == 0;
    const std::vector<std::string> expected =
        up ? std::vector<std::string>{"host0", "leaf0", spine, "leaf1", "host1"}
           : std::vector<std::string>{"host1", "leaf1", spine, "leaf0", "host0"};
    CHECK(path_names(sim, ecmp, f) == expected);
  }
  const auto pinned = sim.run(sim.spec().scenarios[1]);
  CHECK(path_names(sim, pinned, 0) == std::vector<std::string>{"host0", "leaf0", "spine1", "leaf1", "host1"});
  CHECK(path_names(sim, pinned, 1) == std::vector<std::string>{"host1", "leaf1", "spine0", "leaf0", "host0"});
  // Each flow carries 2*(2-1)/2 * 1000 / 2 channels = 500 bytes.
  const LinkId up = sim.fabric().find("leaf0") == kNone ? kNone : [&] {
    for (LinkId l = 0; l < sim.fabric().links().size(); ++l)
      if (sim.fabric().link_name(l) == "leaf0->spine1") return l;
    return kNone;
  }();
  REQUIRE(up != kNone);
  CHECK(pinned.trace.link_flows[up] == 2);
  CHECK(pinned.trace.link_bytes[up] == 1000);
  // 8 switch-to-switch links; pinned puts 2 flows on each of 4: mean 1, MAD 1 -> FIM 1.
  CHECK(pinned.flows.links == 8);
  CHECK(pinned.flows.fim == doctest::Approx(1.0));
}

TEST_CASE("static routes that dead-end or loop are errors naming switch and destination") {
  std::string cfg = kSmall;
  SUBCASE("dead end") {
    const auto at = cfg.find("  { switch = \"spine1\"");
    cfg.erase(at, cfg.find('\n', at) + 1 - at);
    const Simulation sim(parse_config(cfg, "small.toml"));
    CHECK_THROWS_WITH_AS(sim.run(sim.spec().scenarios[1]),
                         "no route on switch 'spine1' for destination host1 (10.0.1.1)", InputError);
  }
  SUBCASE("loop") {
    // spine1 sends 10.0.1.0/24 back to leaf0, which sends it to spine1 again.
    cfg.replace(cfg.find("via = \"leaf1\""), 13, "via = \"leaf0\"");
    const Simulation sim(parse_config(cfg, "small.toml"));
    CHECK_THROWS_WITH_AS(sim.run(sim.spec().scenarios[1]),
                         doctest::Contains("routing loop on switch"), InputError);
  }
}
