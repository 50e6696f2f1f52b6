#include <doctest/doctest.h>

#include "sim/routing/balanced.h"
#include "sim/config/config.h"
#include "sim/routing/forwarding.h"
#include "sim/model/simulation.h"
#include "tests/support/fabrics.h"

namespace balanced_test {

using namespace ecmpsim;

namespace {

workloads::Flows flows_of(const Fabric& f, std::initializer_list<std::array<std::uint32_t, 3>> list) {
  workloads::Flows out;
  for (const auto& [s, d, bytes] : list) {
    workloads::FlowRecord r;
    r.src = s;
    r.dst = d;
    r.src_ip = f.node(f.endpoint_node(s)).ip;
    r.dst_ip = f.node(f.endpoint_node(d)).ip;
    r.bytes = bytes;
    out.push_back(r);
  }
  return out;
}

// The most bytes on any switch-to-switch link when `flows` follow the balanced table.
double max_fabric_load(const Fabric& f, const EqualCostSets& s, const workloads::Flows& flows) {
  ScenarioSpec sc;
  sc.routing = RoutingKind::Static;
  sc.policy = StaticPolicy::Balanced;
  const Forwarding fwd(f, s, sc, "t", &flows);
  Trace t;
  route_and_count(f, fwd, flows, t);
  double max = 0;
  for (LinkId l = 0; l < f.links().size(); ++l)
    if (f.is_switch(f.link(l).from) && f.is_switch(f.link(l).to)) max = std::max<double>(max, t.link_bytes[l]);
  return max;
}

}  // namespace

TEST_CASE("balanced on a hand-worked leaf-spine: destinations by bytes, least-loaded member") {
  const Fabric f = test_support::leaf_spine(2, 2, 2);
  const EqualCostSets s = compute_equal_cost_sets(f);
  // host0 -> host2: 3 bytes; host0 -> host3: 1; host1 -> host3: 2. Both
  // destinations receive 3 bytes, all from leaf0; host2 (lower index) goes
  // first and takes spine0 (tie, first member), host3's 3 bytes then see
  // spine0 at 3 and spine1 at 0 and take spine1. Max link load 3 = 6 bytes
  // leaving leaf0 / 2 uplinks, the lower bound.
  const auto flows = flows_of(f, {{0, 2, 3}, {0, 3, 1}, {1, 3, 2}});
  const auto entries = balanced_routes(f, s, flows);
  // Two choices at leaf0, then the forced hops spine0 -> leaf1 and spine1 -> leaf1.
  REQUIRE(entries.size() == 4);
  CHECK(f.link_name(entries[0].link) == "leaf0->spine0");
  CHECK(entries[0].endpoint == 2);
  CHECK(f.link_name(entries[1].link) == "leaf0->spine1");
  CHECK(entries[1].endpoint == 3);
  CHECK(congestion_lower_bound(f, s, flows) == 3);
  CHECK(max_fabric_load(f, s, flows) == 3);
}

TEST_CASE("balanced looks ahead along the forced path down to the destination") {
  const Fabric f = test_support::leaf_spine(3, 2, 1);
  const EqualCostSets s = compute_equal_cost_sets(f);
  // host0 (leaf0) and host1 (leaf1) each send 4 bytes to host2 (leaf2).
  // leaf0 goes first (switch order) and takes spine0. For leaf1 both
  // uplinks are idle, but spine0 -> leaf2 already carries 4: via spine0 the
  // worst link would hold 8, via spine1 4. Max 4 = 8 bytes into leaf2 / 2.
  const auto flows = flows_of(f, {{0, 2, 4}, {1, 2, 4}});
  const auto entries = balanced_routes(f, s, flows);
  REQUIRE(entries.size() == 4);  // leaf0, leaf1, then both spines down to leaf2
  CHECK(f.link_name(entries[0].link) == "leaf0->spine0");
  CHECK(f.link_name(entries[1].link) == "leaf1->spine1");
  CHECK(congestion_lower_bound(f, s, flows) == 4);
  CHECK(max_fabric_load(f, s, flows) == 4);
}

TEST_CASE("balanced against ECMP on a k=4 fat-tree ring all-reduce") {
  const Simulation sim(parse_config(R"(
[fabric]
kind = "fat-tree"
k = 4
[workload]
placement = "strided"
channels = 4
[[scenario]]
name = "ecmp"
[[scenario]]
name = "balanced"
routing = "static"
policy = "balanced"
)",
                                    "t.toml"));
  const auto r = sim.run_all();
  const double lb = congestion_lower_bound(sim.fabric(), sim.sets(), sim.flows());
  CHECK(r[1].bytes.max >= lb);
  CHECK(r[1].bytes.max <= r[0].bytes.max);
  // Every flow still arrives: the table is complete for the workload.
  CHECK(r[1].trace.path_begin.size() == sim.flows().size() + 1);
}
}  // namespace balanced_test
