#include <doctest/doctest.h>

#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"

namespace generators_test {

using namespace ecmpsim;

namespace {

std::vector<std::string> names(const Fabric& f, std::span<const LinkId> links) {
  std::vector<std::string> out;
  for (LinkId l : links) out.push_back(f.link_name(l));
  return out;
}

// Shortest paths from switch `from` to ToR `t`, counted through the sets.
std::uint64_t paths(const Fabric& f, const EqualCostSets& s, NodeId from, std::uint32_t t) {
  if (f.tor_index(from) == t) return 1;
  std::uint64_t n = 0;
  for (LinkId l : s.members(s.group(f.switch_index(from), t))) n += paths(f, s, f.link(l).to, t);
  return n;
}

std::uint32_t tor(const Fabric& f, const char* name) { return f.tor_index(f.find(name)); }

}  // namespace

TEST_CASE("k=4 fat-tree: Al-Fares shape, names and paths worked by hand") {
  FabricSpec spec;
  spec.kind = FabricKind::FatTree;
  spec.fat_tree_k = 4;
  const Fabric f = build_fabric(spec);
  // k pods x (k/2 edge + k/2 agg) = 16, (k/2)^2 = 4 cores, k^3/4 = 16 hosts.
  CHECK(f.switches().size() == 20);
  CHECK(f.endpoints().size() == 16);
  for (const char* n : {"pod0-edge0", "pod0-edge1", "pod3-agg1", "core0", "core3"}) CHECK(f.find(n) != kNone);
  CHECK(f.node(f.find("pod2-agg0")).tier == Tier::Spine);
  CHECK(f.node(f.find("core2")).tier == Tier::Core);
  // Host 2 is the first host of the second edge (pod0-edge1): ToR 1, block 10.0.1.0.
  CHECK(f.link_name(f.uplink(2)) == "host2->pod0-edge1");
  CHECK(f.node(f.endpoint_node(2)).ip == 0x0A000101);
  const EqualCostSets s = compute_equal_cost_sets(f);
  const auto sw = [&](const char* n) { return f.switch_index(f.find(n)); };
  // Up from an edge to another pod: both aggregation switches.
  CHECK(names(f, s.members(s.group(sw("pod0-edge0"), tor(f, "pod1-edge0")))) ==
        std::vector<std::string>{"pod0-edge0->pod0-agg0", "pod0-edge0->pod0-agg1"});
  // Aggregation switch j reaches cores j*2 and j*2+1.
  CHECK(names(f, s.members(s.group(sw("pod0-agg1"), tor(f, "pod1-edge0")))) ==
        std::vector<std::string>{"pod0-agg1->core2", "pod0-agg1->core3"});
  // A core has one link into each pod, to the aggregation switch of its group.
  CHECK(names(f, s.members(s.group(sw("core2"), tor(f, "pod1-edge0")))) ==
        std::vector<std::string>{"core2->pod1-agg1"});
  // Inter-pod: 2 aggregation choices x 2 cores each, then forced down = 4 paths of 4 hops.
  CHECK(paths(f, s, f.find("pod0-edge0"), tor(f, "pod1-edge0")) == 4);
  CHECK(s.distance(sw("pod0-edge0"), tor(f, "pod1-edge0")) == 4);
  // Intra-pod: up to either aggregation switch, down to the edge = 2 paths of 2 hops.
  CHECK(paths(f, s, f.find("pod0-edge0"), tor(f, "pod0-edge1")) == 2);
  CHECK(s.distance(sw("pod0-edge0"), tor(f, "pod0-edge1")) == 2);
  // Within a pod an aggregation switch goes straight down, never up to a core.
  CHECK(names(f, s.members(s.group(sw("pod0-agg0"), tor(f, "pod0-edge1")))) ==
        std::vector<std::string>{"pod0-agg0->pod0-edge1"});
}

TEST_CASE("rail-optimized: NIC k of every node on rail k's leaf, rail groups, spines between rails") {
  FabricSpec spec;
  spec.kind = FabricKind::Rail;
  spec.rail_nodes = 4;
  spec.nics_per_node = 2;
  spec.rail_leaf_nodes = 2;  // two groups of two nodes
  spec.leaf_spine.spines = 3;
  spec.leaf_spine.links_per_pair = 2;
  const Fabric f = build_fabric(spec);
  CHECK(f.switches().size() == 4 + 3);  // 2 groups x 2 rails + 3 spines
  REQUIRE(f.server_count() == 4);
  // Node n's NICs are endpoints 2n, 2n+1, NIC k on leaf railK-leaf(n/2).
  for (std::uint32_t n = 0; n < 4; ++n)
    for (std::uint32_t k = 0; k < 2; ++k) {
      const std::uint32_t e = f.server_nics(n)[k];
      CHECK(e == 2 * n + k);
      CHECK(f.node(f.endpoint_node(e)).name == "node" + std::to_string(n) + ".nic" + std::to_string(k));
      CHECK(f.node(f.link(f.uplink(e)).to).name == "rail" + std::to_string(k) + "-leaf" + std::to_string(n / 2));
    }
  // ToRs numbered by first endpoint: rail0-leaf0, rail1-leaf0, rail0-leaf1, rail1-leaf1;
  // node3.nic1 is the second endpoint of ToR 3: 10.0.3.2.
  CHECK(f.node(f.endpoint_node(7)).ip == 0x0A000302);
  const EqualCostSets s = compute_equal_cost_sets(f);
  // Between rails (same node, NIC 0 -> NIC 1): up to any of 3 spines over either of 2
  // parallel cables (6 members), then down over either of 2 cables: 6 x 2 = 12 paths.
  CHECK(paths(f, s, f.find("rail0-leaf0"), tor(f, "rail1-leaf0")) == 12);
  CHECK(s.members(s.group(f.switch_index(f.find("rail0-leaf0")), tor(f, "rail1-leaf0"))).size() == 6);
  // Same rail, other group: also through the spines.
  CHECK(paths(f, s, f.find("rail0-leaf0"), tor(f, "rail0-leaf1")) == 12);
  CHECK(s.distance(f.switch_index(f.find("rail0-leaf0")), tor(f, "rail0-leaf1")) == 2);
}

TEST_CASE("oversubscribed leaf-spine: 12 x 400G down, 2 spines x 2 links x 400G up = 3:1") {
  FabricSpec spec;
  spec.leaf_spine = {2, 2, 12, 2, Gbps{400}, Gbps{400}};
  const Fabric f = build_fabric(spec);
  double down = 0, up = 0;
  for (LinkId l : f.out_links(f.find("leaf0"))) (f.is_switch(f.link(l).to) ? up : down) += f.link(l).speed.value;
  CHECK(down == 4800);
  CHECK(up == 1600);
}

TEST_CASE("address plan: one block per ToR, 256 wide, the next power of two beyond 254 endpoints") {
  FabricSpec spec;
  spec.leaf_spine = {2, 1, 300, 1, Gbps{100}, Gbps{100}};
  const Fabric f = build_fabric(spec);
  // 300 + 2 > 256 -> 512-address blocks: leaf1's first host is 10.0.0.0 + 512 + 1 = 10.0.2.1.
  CHECK(f.address_stride() == 512);
  CHECK(f.node(f.endpoint_node(300)).ip == 0x0A000201);
  CHECK(f.node(f.endpoint_node(299)).ip == 0x0A000000 + 300);
  spec.leaf_spine.hosts_per_leaf = 254;
  CHECK(build_fabric(spec).address_stride() == 256);
  spec.leaf_spine.hosts_per_leaf = 255;
  CHECK(build_fabric(spec).address_stride() == 512);
}
}  // namespace generators_test
