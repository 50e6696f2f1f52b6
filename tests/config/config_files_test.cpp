#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/config/config.h"
#include "sim/routing/routes.h"
#include "sim/model/simulation.h"

namespace config_files_test {

using namespace ecmpsim;

namespace {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const char* name) : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const char* name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

std::string error_of(const std::string& path) {
  try {
    const Simulation sim(load_config(path));
    for (const auto& s : sim.spec().scenarios) sim.run(s);
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

// Two leaves with two hosts each and one spine, two parallel cables per leaf.
const char* kToml = R"(# nodes and links
[[node]]
name = "s0"
tier = "spine"
[[node]]
name = "l0"
tier = "leaf"
[[node]]
name = "l1"
tier = "leaf"
[[node]]
name = "a"
tier = "host"
[[node]]
name = "b"
tier = "host"
[[link]]
a = "a"
b = "l0"
speed_gbps = 100
[[link]]
a = "b"
b = "l1"
speed_gbps = 100
[[link]]
a = "l0"
b = "s0"
speed_gbps = 400
count = 2
[[link]]
a = "l1"
b = "s0"
speed_gbps = 400
count = 2
weight = 3
)";

const char* kCsv =
    "# kind,name,tier[,server] / kind,a,b,speed_gbps[,count[,weight]]\n"
    "node,s0,spine\nnode,l0,leaf\nnode,l1,leaf\nnode,a,host\nnode,b,host\n"
    "link,a,l0,100\nlink,b,l1,100\nlink,l0,s0,400,2\nlink,l1,s0,400,2,3\n";

}  // namespace

TEST_CASE("explicit topology files, TOML and CSV, build the same fabric") {
  const TempDir dir("ecmpsim_config_files_test");
  dir.write("topo.toml", kToml);
  dir.write("topo.csv", kCsv);
  for (const char* file : {"topo.toml", "topo.csv"}) {
    INFO(file);
    const std::string cfg = dir.write("t.toml", std::string("[fabric]\nkind = \"file\"\nfile = \"") + file + "\"\n");
    const Simulation sim(load_config(cfg));
    const Fabric& f = sim.fabric();
    CHECK(f.endpoints().size() == 2);
    CHECK(f.switches().size() == 3);
    CHECK(f.node(f.endpoint_node(1)).ip == 0x0A000101);  // b: second ToR's block
    const auto& s = sim.sets();
    const auto up = s.members(s.group(f.switch_index(f.find("l0")), f.tor_index(f.find("l1"))));
    CHECK(up.size() == 2);  // the two parallel cables
    const auto back = s.members(s.group(f.switch_index(f.find("l1")), f.tor_index(f.find("l0"))));
    REQUIRE(back.size() == 2);
    CHECK(f.link(back[0]).weight == 3);
    CHECK(f.link(up[0]).weight == 1);
  }
}

TEST_CASE("bad fabrics: one line with file:line:col and the cause") {
  const TempDir dir("ecmpsim_config_files_bad");
  const std::string csv = (dir.path / "topo.csv").string();
  auto topo = [&](const std::string& text) {
    dir.write("topo.csv", text);
    return error_of(dir.write("t.toml", "[fabric]\nkind = \"file\"\nfile = \"topo.csv\"\n"));
  };
  const std::string nodes = "node,s0,spine\nnode,l0,leaf\nnode,l1,leaf\nnode,a,host\nnode,b,host\n";
  CHECK(topo(nodes + "link,a,l0,100\nlink,b,l1,100\nlink,l0,s9,400\n") == csv + ":8:1: link to unknown node 's9'");
  CHECK(topo(nodes + "link,a,l0,100\nlink,b,l1,100\nlink,l0,s0,400,0\n") ==
        csv + ":8:16: count must be an integer in [1, 1024], got '0'");
  CHECK(topo(nodes + "link,a,l0,0\n") == csv + ":6:11: speed must be in (0, 1e6] Gb/s, got '0'");
  CHECK(topo(nodes + "link,a,l0,100\nlink,b,l1,100\nlink,l0,s0,400\n") ==
        csv + ":5:6: the fabric is disconnected: b cannot reach a");
  CHECK(topo(nodes + "node,l0,leaf\n") == csv + ":6:6: duplicate node name 'l0'");
  CHECK(topo("node,x,router\n") == csv + ":1:8: unknown tier 'router', expected host, leaf (tor, edge), spine (agg), core (super-spine)");
  CHECK(topo(nodes + "link,a,l0,100\nlink,l1,s0,100\nlink,l0,s0,100\n") == csv + ":5:6: endpoint 'b' needs exactly one link, has 0");
  auto cfg = [&](const std::string& text) { return error_of(dir.write("t.toml", text)); };
  const std::string t = (dir.path / "t.toml").string();
  CHECK(cfg("[fabric]\nkind = \"fat-tree\"\nk = 5\n") ==
        t + ":3:5: fabric.k: k must be even (k/2 edge and k/2 aggregation switches per pod), got 5");
  CHECK(cfg("[fabric]\nkind = \"fat-tree\"\nleaves = 2\n") == t + ":3:10: fabric.leaves: does not apply to kind = \"fat-tree\"");
  CHECK(cfg("[fabric]\nkind = \"file\"\n") == t + ":2:8: fabric.kind: kind = \"file\" needs file = \"topology.toml\" (or .csv)");
  CHECK(cfg("[fabric]\nkind = \"file\"\nfile = \"none.csv\"\n") ==
        t + ":3:8: fabric.file: cannot open file '" + (dir.path / "none.csv").string() + "'");
  CHECK(cfg("[fabric]\nfabric_speed_gbps = 0\n") == t + ":2:21: fabric.fabric_speed_gbps: speed must be in (0, 1e6] Gb/s");
  CHECK(cfg("[fabric]\nlinks_per_pair = 0\n") == t + ":2:18: fabric.links_per_pair: value 0 out of range [1, 64]");
  CHECK(cfg("[fabric]\nweights = { \"leaf0-spine9\" = 2 }\n") ==
        t + ":2:30: fabric.weights.leaf0-spine9: 'leaf0-spine9' names no switch and no cable between two linked nodes");
  CHECK(cfg("[[scenario]]\nname = \"x\"\ndown = [\"spine0\", \"leaf9\"]\n") ==
        t + ":3:19: scenario.down: 'leaf9' names no switch and no cable between two linked nodes");
  CHECK(cfg("[[scenario]]\nname = \"x\"\ndown = [\"leaf0\"]\n") ==
        t + ":3:9: scenario.down: scenario 'x': with these links down the fabric is disconnected: host1 cannot reach host0");
  CHECK(cfg("[[scenario]]\nname = \"x\"\nbase = \"y\"\n") == t + ":3:8: scenario.base: no earlier scenario named 'y'");
  CHECK(cfg("[[scenario]]\nname = \"x\"\n[[scenario.hash.switch]]\nname = \"spine9\"\nseed = 1\n") ==
        t + ":3:1: scenario.hash.switch: no switch named 'spine9'");
}

TEST_CASE("the shipped fabric configs evaluate") {
  for (const char* name : {"fattree-k8", "rail", "oversubscribed", "paper16-whatifs"}) {
    INFO(name);
    const Simulation sim(load_config(std::string(ECMPSIM_SOURCE_DIR "/configs/") + name + ".toml"));
    const auto results = sim.run_all();
    CHECK(results.size() == sim.spec().scenarios.size());
    for (const auto& r : results) CHECK(r.trace.path_begin.size() == sim.flows().size() + 1);
  }
  const Simulation ft(load_config(ECMPSIM_SOURCE_DIR "/configs/fattree-k8.toml"));
  CHECK(ft.fabric().endpoints().size() == 128);  // k^3/4
  CHECK(ft.fabric().switches().size() == 80);     // 5k^2/4
}
TEST_CASE("a topology file over --max-config-bytes is refused at its key, before it is read") {
  const TempDir dir("ecmpsim_config_files_limit");
  const std::string topo = dir.write("topo.csv", kCsv);
  const std::string cfg = dir.write("t.toml", "[fabric]\nkind = \"file\"\nfile = \"topo.csv\"\n");
  ecmpsim::Limits limits;
  limits.max_config_bytes = std::string(kCsv).size();
  CHECK(load_config(cfg, limits).fabric.topology.nodes.size() == 5);  // exactly at the limit: read
  limits.max_config_bytes -= 1;
  try {
    load_config(cfg, limits);
    FAIL("a topology file over the limit was read");
  } catch (const InputError& e) {
    CHECK(e.describe() == cfg + ":3:8: --max-config-bytes: the topology file '" + topo + "' has " +
                              std::to_string(limits.max_config_bytes + 1) + " bytes, more than the limit of " +
                              std::to_string(limits.max_config_bytes));
  }
}
}  // namespace config_files_test
