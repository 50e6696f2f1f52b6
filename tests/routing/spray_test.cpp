#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "sim/config/config.h"
#include "sim/fabric/failures.h"
#include "sim/model/simulation.h"
#include "sim/model/trace.h"
#include "sim/routing/spray.h"
#include "tests/support/fabrics.h"

namespace spray_test {

using namespace ecmpsim;

namespace {

// Each link of one flow's spray, by name, with its fraction.
std::map<std::string, double> spray_of(const Fabric& f, const ScenarioSpec& sc, std::uint32_t src, std::uint32_t dst) {
  const EqualCostSets sets = compute_equal_cost_sets(f);
  const Forwarding fwd(f, sets, sc, "t");
  Sprayer sprayer(f, fwd, link_weights(f, sc.weights));
  workloads::Flows flows;
  workloads::FlowRecord r;
  r.src = src;
  r.dst = dst;
  flows.push_back(r);
  std::map<std::string, double> out;
  sprayer.route(ends_of(f, flows, 0), [&](LinkId l, double fraction) { out[f.link_name(l)] += fraction; });
  return out;
}

ScenarioSpec spray_scenario() {
  ScenarioSpec sc;
  sc.routing = RoutingKind::Spray;
  return sc;
}

}  // namespace

TEST_CASE("spray on a leaf-spine: equal halves, or 1:3 by WCMP weight") {
  const Fabric f = test_support::leaf_spine(2, 2, 2);
  // host0 (leaf0) -> host2 (leaf1): half over each spine, whole on the access links.
  const auto even = spray_of(f, spray_scenario(), 0, 2);
  CHECK(even == std::map<std::string, double>{{"host0->leaf0", 1.0},
                                              {"leaf0->spine0", 0.5},
                                              {"leaf0->spine1", 0.5},
                                              {"spine0->leaf1", 0.5},
                                              {"spine1->leaf1", 0.5},
                                              {"leaf1->host2", 1.0}});
  // Weight 3 on leaf0-spine1 (both directions): leaf0 sends 1/4 and 3/4.
  ScenarioSpec weighted = spray_scenario();
  weighted.weights.push_back({{"leaf0-spine1", {}}, 3});
  const auto w = spray_of(f, weighted, 0, 2);
  CHECK(w.at("leaf0->spine0") == 0.25);
  CHECK(w.at("leaf0->spine1") == 0.75);
  CHECK(w.at("spine1->leaf1") == 0.75);
}

TEST_CASE("spray on a k = 4 fat-tree: an inter-pod flow over 2 aggregation switches and 4 cores") {
  const Fabric f = test_support::fat_tree(4);
  // host0 sits in pod0, host15 in pod3: the edge splits 1/2 per aggregation
  // switch, each of those 1/2 per core (1/4 each); every core has one way
  // down to pod3, whose two aggregation switches each gather 1/2.
  const auto links = spray_of(f, spray_scenario(), 0, 15);
  std::map<std::string, int> per_tier;
  double into_dst_edge = 0;
  for (const auto& [name, fraction] : links) {
    if (name.find("core") == std::string::npos) continue;
    CHECK(fraction == 0.25);
    ++per_tier[name.rfind("core", 0) == 0 ? "down" : "up"];
  }
  CHECK(per_tier["up"] == 4);
  CHECK(per_tier["down"] == 4);
  for (const auto& [name, fraction] : links)
    if (name.find("agg") != std::string::npos && name.find("->pod3-edge") != std::string::npos) {
      CHECK(fraction == 0.5);
      into_dst_edge += fraction;
    }
  CHECK(into_dst_edge == 1.0);
  // Its paths: 2 x 2 = 4, each a quarter, each host-edge-agg-core-agg-edge-host.
  const EqualCostSets sets = compute_equal_cost_sets(f);
  const Forwarding fwd(f, sets, spray_scenario(), "t");
  const Sprayer sprayer(f, fwd, link_weights(f, {}));
  workloads::Flows flows;
  workloads::FlowRecord r;
  r.dst = 15;
  flows.push_back(r);
  int paths = 0;
  sprayer.paths(ends_of(f, flows, 0), [&](std::span<const LinkId> p, double share) {
    ++paths;
    CHECK(p.size() == 6);
    CHECK(share == 0.25);
  });
  CHECK(paths == 4);
}

TEST_CASE("spray on paper16: 4 flows' worth on every link (FIM 0), shares in the trace, slowdown 1") {
  Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  ScenarioSpec s = spray_scenario();
  s.name = "spray";
  const Simulation sim(spec);
  const ScenarioResult r = sim.run(s);
  REQUIRE(r.trace.split());
  // 16 flows leave each leaf, a quarter of each on each of its 4 uplinks:
  // 4 on every uplink; the same on every downlink.
  CHECK(r.flows.fim == 0);
  CHECK(r.flows.max == 4);
  CHECK(r.flows.mean == 4);
  // Every flow crosses 10 links: 2 access links, 4 up, 4 down.
  for (std::size_t f = 0; f < sim.flows().size(); ++f) CHECK(r.trace.path(f).size() == 10);
  // Fractions of one flow sum to 1 per hop: 1 + 1 + 1 + 1 over its 10 links.
  double sum = 0;
  for (std::size_t i = r.trace.path_begin[0]; i < r.trace.path_begin[1]; ++i) sum += r.trace.split_fraction[i];
  CHECK(sum == 4.0);
  CHECK(r.collisions == 0);
  // The prediction over split flows: a host sends its flows over its 400 Gb/s
  // link, each uplink carries 4 flows' worth at 400 Gb/s, so every flow gets
  // 400 / (flows its host sends) and the collective runs at its ideal.
  std::map<std::uint32_t, int> sent;
  for (std::size_t f = 0; f < sim.flows().size(); ++f) ++sent[sim.flows().src[f]];
  for (std::size_t f = 0; f < sim.flows().size(); ++f)
    CHECK(r.times.start_rate[f].value == doctest::Approx(400.0 / sent[sim.flows().src[f]]));
  CHECK(r.predicted.all.slowdown == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("spray with two jobs: each job alone keeps its flows' fractions") {
  // 2 leaves x 2 hosts, 2 spines; hosts 100 Gb/s, fabric 50 Gb/s. A flow
  // between leaves puts half its rate on each 50 Gb/s uplink, so alone it
  // runs at its host's 100 Gb/s (slowdown 1); taken whole it would get 50
  // (slowdown 2). Sharing the uplinks with the other job's flows halves it.
  const Simulation sim(parse_config(R"([fabric]
leaves = 2
spines = 2
hosts_per_leaf = 2
host_speed_gbps = 100
fabric_speed_gbps = 50
[[job]]
name = "a"
collective = "sendrecv"
nodes = 2
placement = "strided"
[[job]]
name = "b"
collective = "sendrecv"
nodes = 2
placement = "strided"
[[scenario]]
name = "spray"
routing = "spray"
)",
                                    "two-jobs.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios.front());
  REQUIRE(r.trace.split());
  // Every flow crosses the spines: host, 2 up, 2 down, host.
  for (std::size_t f = 0; f < sim.flows().size(); ++f) REQUIRE(r.trace.path(f).size() == 6);
  REQUIRE(r.predicted.alone.size() == 2);
  for (const JobPrediction& p : r.predicted.alone) CHECK(p.slowdown == doctest::Approx(1.0));
  for (const JobPrediction& p : r.predicted.jobs) CHECK(p.slowdown == doctest::Approx(2.0));
}
}  // namespace spray_test
