#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "sim/model/link_metrics.h"
#include "tests/support/fabrics.h"

namespace link_metrics_test {

using namespace ecmpsim;

namespace {

LinkId link_named(const Fabric& fabric, const std::string& name) {
  for (LinkId l = 0; l < fabric.links().size(); ++l)
    if (fabric.link_name(l) == name) return l;
  FAIL("no link " << name);
  return kNone;
}

// 2 leaves x 3 spines, 3 hosts per leaf, every flow from leaf0 to leaf1 over the spine given.
struct Case {
  Fabric fabric;
  workloads::Flows flows;
  Trace trace;

  Case() {
    fabric = test_support::leaf_spine(2, 3, 3);
    trace.link_flows.assign(fabric.links().size(), 0);
    trace.link_bytes.assign(fabric.links().size(), 0);
    trace.path_begin.assign(1, 0);
  }

  void add(std::uint32_t src, std::uint32_t dst, int spine, std::uint16_t job) {
    workloads::FlowRecord r;
    r.src = src;
    r.dst = dst;
    r.bytes = 1;
    r.job = job;
    flows.push_back(r);
    const std::string s = "spine" + std::to_string(spine);
    const std::vector<std::string> hops{"host" + std::to_string(src), "leaf0", s, "leaf1", "host" + std::to_string(dst)};
    for (std::size_t i = 1; i < hops.size(); ++i) {
      const LinkId l = link_named(fabric, hops[i - 1] + "->" + hops[i]);
      trace.path_links.push_back(l);
      ++trace.link_flows[l];
      ++trace.link_bytes[l];
    }
    trace.path_begin.push_back(static_cast<std::uint32_t>(trace.path_links.size()));
  }

  std::uint64_t pairs() const { return colliding_pairs(fabric, compute_equal_cost_sets(fabric), flows, trace); }
};

}  // namespace

TEST_CASE("tier names") {
  CHECK(name_of(kTiers, Tier::Host) == "host");
  CHECK(name_of(kTiers, Tier::Leaf) == "leaf");
  CHECK(name_of(kTiers, Tier::Spine) == "spine");
  CHECK(name_of(kTiers, Tier::Core) == "core");
}

TEST_CASE("colliding pairs: same job, same link, an idle equal-cost alternative") {
  Case c;
  SUBCASE("three flows of one job on spine0, spine2 idle: 3 pairs") {
    c.add(0, 3, 0, 0);
    c.add(1, 4, 0, 0);
    c.add(2, 5, 0, 0);
    c.add(0, 4, 1, 0);
    CHECK(c.pairs() == 3);
  }
  SUBCASE("two jobs on one link do not collide with each other") {
    c.add(0, 3, 0, 0);
    c.add(1, 4, 0, 1);
    CHECK(c.pairs() == 0);
  }
  SUBCASE("no idle alternative: stacking is forced, not a collision") {
    c.add(0, 3, 0, 0);
    c.add(1, 4, 0, 0);
    c.add(2, 5, 1, 0);
    c.add(0, 5, 2, 0);
    CHECK(c.pairs() == 0);
  }
  SUBCASE("a flow staying on its leaf makes no placement") {
    workloads::FlowRecord r;
    r.src = 0;
    r.dst = 1;
    r.bytes = 1;
    c.flows.push_back(r);
    c.flows.push_back(r);
    for (int k = 0; k < 2; ++k) {
      for (const char* n : {"host0->leaf0", "leaf0->host1"}) c.trace.path_links.push_back(link_named(c.fabric, n));
      c.trace.path_begin.push_back(static_cast<std::uint32_t>(c.trace.path_links.size()));
    }
    CHECK(c.pairs() == 0);
  }
}

TEST_CASE("tiers are named by node tier and ordered low to high, up before down") {
  // leaf0 - spine0 - core0, one host; each tier pair holds one cable (two directions).
  const Fabric f = test_support::tier_line();
  Trace t;
  t.link_flows.assign(f.links().size(), 0);
  t.link_bytes.assign(f.links().size(), 0);
  // spine0->core0 carries 2 flows of 5 bytes: its tier has one link, so it is balanced.
  t.link_flows[link_named(f, "spine0->core0")] = 2;
  t.link_bytes[link_named(f, "spine0->core0")] = 10;
  std::vector<LinkId> links;
  for (LinkId l = 0; l < f.links().size(); ++l)
    if (f.is_switch(f.link(l).from) && f.is_switch(f.link(l).to)) links.push_back(l);
  const auto tiers = tier_imbalance(f, links, t);
  REQUIRE(tiers.size() == 4);
  CHECK(tiers[0].name == "leaf->spine");
  CHECK(tiers[1].name == "spine->leaf");
  CHECK(tiers[2].name == "spine->core");
  CHECK(tiers[3].name == "core->spine");
  CHECK(tiers[2].flows.links == 1);
  CHECK(tiers[2].flows.mean == 2);
  CHECK(tiers[2].bytes.mean == 10);
  CHECK(tiers[3].flows.mean == 0);
}
}  // namespace link_metrics_test
