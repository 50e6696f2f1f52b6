// The small fabrics the tests work by hand, one builder each, so a test says
// which fabric it uses in one call instead of restating a FabricSpec (or a
// list of add_node and add_cable calls) that the next test copies. Node
// names and link ids follow from the builders (sim/fabric/generators.cpp);
// the tests that count on them say so where they do.
#pragma once

#include <cstdint>

#include "sim/fabric/fabric.h"

namespace ecmpsim::test_support {

// A two-tier leaf-spine: `leaves` x `spines`, `hosts` per leaf (host0.. on
// leaf0 first), `parallel` cables per leaf-spine pair, every link `gbps`.
// The spec, for a test that changes a field first (LAG, an IPv6 base).
inline FabricSpec leaf_spine_spec(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts,
                                  std::uint32_t parallel = 1, double gbps = 100) {
  FabricSpec spec;
  spec.leaf_spine = {leaves, spines, hosts, parallel, Gbps{gbps}, Gbps{gbps}};
  return spec;
}

inline Fabric leaf_spine(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts, std::uint32_t parallel = 1,
                         double gbps = 100) {
  return build_fabric(leaf_spine_spec(leaves, spines, hosts, parallel, gbps));
}

// Al-Fares' k-ary fat-tree (k pods, k^3/4 hosts), 400G links.
inline Fabric fat_tree(std::uint32_t k) {
  FabricSpec spec;
  spec.kind = FabricKind::FatTree;
  spec.fat_tree_k = k;
  return build_fabric(spec);
}

// Two pods under one core, each pod one host, leaf and spine:
// hostA - leafA - spineA - core - spineB - leafB - hostB, 100 Gb/s but the
// two cables to the core, 10 Gb/s: the core cut is the bottleneck.
inline Fabric two_pods_thin_core() {
  Fabric f;
  const NodeId la = f.add_node("leafA", Tier::Leaf), lb = f.add_node("leafB", Tier::Leaf);
  const NodeId sa = f.add_node("spineA", Tier::Spine), sb = f.add_node("spineB", Tier::Spine);
  const NodeId core = f.add_node("core", Tier::Core);
  const NodeId ha = f.add_node("hostA", Tier::Host), hb = f.add_node("hostB", Tier::Host);
  f.add_cable(ha, la, Gbps{100});
  f.add_cable(hb, lb, Gbps{100});
  f.add_cable(la, sa, Gbps{100});
  f.add_cable(lb, sb, Gbps{100});
  f.add_cable(sa, core, Gbps{10});
  f.add_cable(sb, core, Gbps{10});
  f.finalize(0x0A000000);
  return f;
}

// One node of each tier in a line, host0 - leaf0 - spine0 - core0, one
// 100 Gb/s cable each: every tier pair has exactly one link each way.
inline Fabric tier_line() {
  Fabric f;
  const NodeId core = f.add_node("core0", Tier::Core);
  const NodeId spine = f.add_node("spine0", Tier::Spine);
  const NodeId leaf = f.add_node("leaf0", Tier::Leaf);
  const NodeId host = f.add_node("host0", Tier::Host);
  f.add_cable(spine, core, Gbps{100});
  f.add_cable(host, leaf, Gbps{100});
  f.add_cable(leaf, spine, Gbps{100});
  f.finalize(0x0A000000);
  return f;
}

}  // namespace ecmpsim::test_support
