#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/config/config.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/seeds.h"
#include "sim/model/simulation.h"
#include "tests/support/fabrics.h"

namespace forwarding_test {

using namespace ecmpsim;

namespace {

Fabric small(std::uint32_t hosts = 1) { return test_support::leaf_spine(2, 2, hosts, 1, 400); }

std::uint32_t up_group(const Fabric& f, const EqualCostSets& s) {
  return s.group(f.switch_index(f.find("leaf0")), f.tor_index(f.find("leaf1")));
}

// A scratch directory for files a config points at.
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

std::vector<std::string> path_names(const Simulation& sim, const ScenarioResult& r, std::size_t flow) {
  std::vector<std::string> out;
  const auto p = r.trace.path(flow);
  out.push_back(sim.fabric().node(sim.fabric().link(p.front()).from).name);
  for (LinkId l : p) out.push_back(sim.fabric().node(sim.fabric().link(l).to).name);
  return out;
}

}  // namespace

TEST_CASE("weighted threshold set: weights 1 and 3 split the 16-bit hash space 1:3") {
  const Fabric f = small();
  const EqualCostSets s = compute_equal_cost_sets(f);
  ScenarioSpec sc;
  sc.hash.select = hashing::Selection::Threshold;
  sc.weights = {{{"leaf0-spine1", {}}, 3}};
  const Forwarding fwd(f, s, sc, "t.toml");
  const auto g = up_group(f, s);
  const SwitchHash& h = fwd.hash_of(f.switch_index(f.find("leaf0")));
  // W = 4: member 0 owns hashes up to round(1 * 2^16 / 4) - 1 = 16383, member 1 the rest.
  CHECK(fwd.select(g, h, 0) == 0);
  CHECK(fwd.select(g, h, 16383) == 0);
  CHECK(fwd.select(g, h, 16384) == 1);
  CHECK(fwd.select(g, h, 65535) == 1);
  std::uint32_t first = 0;
  for (std::uint64_t v = 0; v < 65536; ++v) first += fwd.select(g, h, v) == 0;
  CHECK(first == 16384);
  SUBCASE("weighted modulo replicates members: table [0, 1, 1, 1]") {
    sc.hash.select = hashing::Selection::Modulo;
    const Forwarding m(f, s, sc, "t.toml");
    const SwitchHash& mh = m.hash_of(f.switch_index(f.find("leaf0")));
    CHECK(m.select(g, mh, 4) == 0);
    CHECK(m.select(g, mh, 5) == 1);
    CHECK(m.select(g, mh, 7) == 1);
    CHECK(m.select(g, mh, 8) == 0);
  }
  SUBCASE("resilient: 8 buckets, member 0 owns round(8 * 1/4) = 2 of them") {
    sc.hash.select = hashing::Selection::Resilient;
    sc.hash.buckets = 8;
    const Forwarding r(f, s, sc, "t.toml");
    const SwitchHash& rh = r.hash_of(f.switch_index(f.find("leaf0")));
    CHECK(r.select(g, rh, 0) == 0);
    CHECK(r.select(g, rh, 9) == 0);
    CHECK(r.select(g, rh, 2) == 1);
    CHECK(r.select(g, rh, 15) == 1);
  }
}

TEST_CASE("per-switch hashes: default, then the tier's keys, then the switch's") {
  const Fabric f = small();
  const EqualCostSets s = compute_equal_cost_sets(f);
  ScenarioSpec sc;
  HashOverride spine;
  spine.tier = Tier::Spine;
  spine.values.seed = 10;
  spine.values.offset = 10;
  spine.keys = kHashSeed | kHashOffset;
  HashOverride one;
  one.switch_name = "spine1";
  one.values.algo = "xxh3";
  one.values.seed = 999;  // not in keys: ignored
  one.keys = kHashAlgo;
  sc.hash_tiers = {spine};
  sc.hash_switches = {one};
  const Forwarding fwd(f, s, sc, "t.toml");
  const auto& leaf = fwd.hash_of(f.switch_index(f.find("leaf0")));
  const auto& s0 = fwd.hash_of(f.switch_index(f.find("spine0")));
  const auto& s1 = fwd.hash_of(f.switch_index(f.find("spine1")));
  CHECK(leaf.algo->name == "crc16-ccitt");
  CHECK(leaf.seed == 0);
  CHECK(s0.algo->name == "crc16-ccitt");
  CHECK((s0.seed == 10 && s0.offset == 10));
  CHECK(s1.algo->name == "xxh3");
  CHECK((s1.seed == 10 && s1.offset == 10));
  sc.hash_switches[0].switch_name = "spine7";
  sc.hash_switches[0].where = {"t.toml", 9, 1, "scenario.hash.switch"};
  CHECK_THROWS_WITH_AS(Forwarding(f, s, sc, "t.toml"), "no switch named 'spine7'", InputError);
}

TEST_CASE("a tier override's seed_mode reaches its switches, read from a config") {
  // The spines derive per-switch seeds from the scenario's seed 7; the leaves use 7 as is.
  const Spec spec = parse_config(
      "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\n[[scenario]]\nname = \"e\"\n[scenario.hash]\n"
      "algo = \"xxh3\"\nseed = 7\n[scenario.hash.spine]\nseed_mode = \"per-switch\"\n",
      "t.toml");
  const Fabric f = build_fabric(spec.fabric);
  const EqualCostSets s = compute_equal_cost_sets(f);
  const Forwarding fwd(f, s, spec.scenarios[0], "t.toml");
  for (const char* name : {"leaf0", "leaf1", "spine0", "spine1"}) {
    CAPTURE(name);
    const std::uint32_t sw = f.switch_index(f.find(name));
    const std::uint32_t want = name[0] == 's' ? static_cast<std::uint32_t>(splitmix64(7 + sw * kSplitMixGamma)) : 7u;
    CHECK(fwd.hash_of(sw).seed == want);
  }
}

TEST_CASE("static routes from CSV, with a source prefix, and their errors with file:line:col") {
  const TempDir dir("ecmpsim_forwarding_test");
  // Ring over 4 hosts placed across the leaves: host0 -> host2 -> host1 -> host3 -> host0.
  const std::string cfg = dir.write("t.toml",
                                    "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n"
                                    "[workload]\nplacement = \"strided\"\nchannels = 1\nmessage_bytes = 4000\n"
                                    "[[scenario]]\nname = \"csv\"\nrouting = \"static\"\nroutes_file = \"r.csv\"\n");
  // leaf0 sends to leaf1 over spine0, except packets from 10.0.0.2 (host1): spine1.
  const std::string good =
      "switch,dst,src,via\n"
      "leaf0,10.0.1.0/24,,spine0\n"
      "leaf0,10.0.1.0/24,10.0.0.2,spine1\n"
      "# comments and blank lines are skipped\n\n"
      "spine0,10.0.1.0/24,,leaf1\n"
      "spine1,10.0.1.0/24,,leaf1\n"
      "leaf1,10.0.0.0/24,,spine1\n"
      "spine1,10.0.0.0/24,,leaf0\n";
  dir.write("r.csv", good);
  {
    const Simulation sim(load_config(cfg));
    const auto r = sim.run(sim.spec().scenarios[0]);
    const auto& fl = sim.flows();
    for (std::size_t i = 0; i < fl.size(); ++i) {
      const auto p = path_names(sim, r, i);
      if (fl.src[i] == 0) CHECK(p == std::vector<std::string>{"host0", "leaf0", "spine0", "leaf1", "host2"});
      if (fl.src[i] == 1) CHECK(p == std::vector<std::string>{"host1", "leaf0", "spine1", "leaf1", "host3"});
      if (fl.src[i] == 3) CHECK(p == std::vector<std::string>{"host3", "leaf1", "spine1", "leaf0", "host0"});
    }
  }
  auto error = [&](const std::string& csv) {
    dir.write("r.csv", csv);
    try {
      const Simulation sim(load_config(cfg));
      sim.run(sim.spec().scenarios[0]);
    } catch (const InputError& e) {
      return e.describe();
    }
    return std::string("no error");
  };
  const std::string csv = (dir.path / "r.csv").string();
  CHECK(error("leaf0,10.0.1.0/33,,spine0\n") == csv + ":1:7: invalid prefix '10.0.1.0/33'");
  CHECK(error("leaf0,10.0.1.0/24,spine0\n") == csv + ":1:1: expected 4 columns switch,dst,src,via, got 3");
  CHECK(error("switch,dst,src,via\nleafX,10.0.1.0/24,,spine0\n") == csv + ":2:1: static route on unknown switch 'leafX'");
  CHECK(error("leaf0,10.0.1.0/24,,spineX\n") == csv + ":1:1: static route via unknown node 'spineX'");
  CHECK(error("leaf0,10.0.1.0/24,,leaf1\n") == csv + ":1:1: static route on 'leaf0' via 'leaf1': no working link between them");
  CHECK(error("leaf0,10.0.1.0/24,,host0\n") == csv + ":1:1: static route on 'leaf0' via host 'host0': a next hop is a switch");
  // spine1 sends leaf1's block back to leaf0, whose source route sends host1's packets to spine1 again.
  std::string loop = good;
  loop.replace(loop.find("spine1,10.0.1.0/24,,leaf1"), 25, "spine1,10.0.1.0/24,,leaf0");
  CHECK(error(loop).find("r.csv:") != std::string::npos);
  CHECK(error(loop).find("routing loop on switch") != std::string::npos);
  // No route for leaf0's block on spine0: a dead end naming switch and destination
  // (the first flow into leaf0 in flow order is host2 -> host1).
  std::string dead = good;
  dead.replace(dead.find("leaf1,10.0.0.0/24,,spine1"), 25, "leaf1,10.0.0.0/24,,spine0");
  // No explicit route decided, so the error names the scenario's table in the config.
  CHECK(error(dead) == cfg + ":9:1: scenario 'csv': no route on switch 'spine0' for destination host1 (10.0.0.2)");
}

TEST_CASE("a Spec built in code with a repeated hash field is refused, not packed past the key buffer") {
  const Fabric f = small();
  const EqualCostSets sets = compute_equal_cost_sets(f);
  ScenarioSpec sc;
  sc.hash.fields.assign(20, hashing::Field::SrcIp);  // 80 bytes if packed
  CHECK_THROWS_WITH_AS(Forwarding(f, sets, sc, "code"), "hash field 'src-ip' listed twice", InputError);
  HashOverride o;
  o.tier = Tier::Spine;
  o.values.fields = {hashing::Field::DstQp, hashing::Field::DstQp};
  o.keys = kHashFields;
  ScenarioSpec tiered;
  tiered.hash_tiers.push_back(o);
  CHECK_THROWS_WITH_AS(Forwarding(f, sets, tiered, "code"), "hash field 'dst-qp' listed twice", InputError);
}

TEST_CASE("static routes name their destination by host, address or prefix") {
  // 2 leaves x 2 spines, one host per leaf: host0 (10.0.0.1) on leaf0, host1 (10.0.1.1) on leaf1.
  const std::string head =
      "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\n[workload]\nchannels = 1\nmessage_bytes = 1000\n"
      "[[scenario]]\nname = \"s\"\nrouting = \"static\"\nroutes = [\n";
  const std::string by_name =
      "{ switch = \"leaf0\", dst = \"host1\", via = \"spine1\" },\n"
      "{ switch = \"spine1\", dst = \"host1\", via = \"leaf1\" },\n"
      "{ switch = \"leaf1\", dst = \"10.0.0.1\", via = \"spine0\" },\n"
      "{ switch = \"spine0\", dst = \"10.0.0.0/24\", via = \"leaf0\" },\n]\n";
  const Simulation sim(parse_config(head + by_name, "t.toml"));
  const auto r = sim.run(sim.spec().scenarios[0]);
  REQUIRE(sim.flows().size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto p = path_names(sim, r, i);
    if (sim.flows().src[i] == 0) CHECK(p == std::vector<std::string>{"host0", "leaf0", "spine1", "leaf1", "host1"});
    if (sim.flows().src[i] == 1) CHECK(p == std::vector<std::string>{"host1", "leaf1", "spine0", "leaf0", "host0"});
  }
  auto error = [&](const std::string& routes) {
    try {
      const Simulation s(parse_config(head + routes, "t.toml"));
      s.run(s.spec().scenarios[0]);
    } catch (const InputError& e) {
      return e.describe();
    }
    return std::string("no error");
  };
  CHECK(error("{ switch = \"leaf0\", dst = \"host7\", via = \"spine1\" }]\n") ==
        "t.toml:12:1: scenario.routes: static route to unknown host 'host7' (a destination is an endpoint name, "
        "an address or a prefix)");
  CHECK(error("{ switch = \"leaf0\", dst = \"spine0\", via = \"spine1\" }]\n").find("unknown host 'spine0'") !=
        std::string::npos);
  CHECK(error("{ switch = \"leaf0\", dst = \"10.0.1.300\", via = \"spine1\" }]\n") ==
        "t.toml:12:27: scenario.routes.dst: invalid prefix '10.0.1.300'");
}

TEST_CASE("CSV route tables take host names too") {
  const TempDir dir("ecmpsim_forwarding_names_test");
  const std::string cfg = dir.write("t.toml",
                                    "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\n"
                                    "[workload]\nchannels = 1\nmessage_bytes = 1000\n"
                                    "[[scenario]]\nname = \"csv\"\nrouting = \"static\"\nroutes_file = \"r.csv\"\n");
  dir.write("r.csv", "leaf0,host1,,spine0\nspine0,host1,,leaf1\nleaf1,host0,,spine1\nspine1,host0,,leaf0\n");
  const Simulation sim(load_config(cfg));
  const auto r = sim.run(sim.spec().scenarios[0]);
  for (std::size_t i = 0; i < sim.flows().size(); ++i) {
    const auto p = path_names(sim, r, i);
    if (sim.flows().src[i] == 0) CHECK(p == std::vector<std::string>{"host0", "leaf0", "spine0", "leaf1", "host1"});
    if (sim.flows().src[i] == 1) CHECK(p == std::vector<std::string>{"host1", "leaf1", "spine1", "leaf0", "host0"});
  }
  dir.write("r.csv", "leaf0,hostX,,spine0\n");
  try {
    const Simulation bad(load_config(cfg));
    bad.run(bad.spec().scenarios[0]);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.describe() == (dir.path / "r.csv").string() +
                              ":1:1: static route to unknown host 'hostX' (a destination is an endpoint name, an "
                              "address or a prefix)");
  }
}
}  // namespace forwarding_test
