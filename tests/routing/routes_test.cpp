#include <doctest/doctest.h>

#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"
#include "tests/support/fabrics.h"

namespace routes_test {

using namespace ecmpsim;

namespace {
Fabric leaf_spine(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts, std::uint32_t parallel) {
  return test_support::leaf_spine(leaves, spines, hosts, parallel, 400);
}
std::vector<std::string> names(const Fabric& f, std::span<const LinkId> links) {
  std::vector<std::string> out;
  for (LinkId l : links) out.push_back(f.link_name(l));
  return out;
}
}  // namespace

TEST_CASE("leaf-spine: addresses and access links") {
  const Fabric f = leaf_spine(2, 2, 2, 1);
  REQUIRE(f.endpoints().size() == 4);
  CHECK(f.node(f.endpoint_node(0)).ip == 0x0A000001);  // 10.0.0.1
  CHECK(f.node(f.endpoint_node(3)).ip == 0x0A000102);  // leaf1's second host: 10.0.1.2
  CHECK(f.link_name(f.uplink(3)) == "host3->leaf1");
  CHECK(f.link_name(f.downlink(3)) == "leaf1->host3");
  CHECK(f.tor_of(1) == 0);
  CHECK(f.tor_of(2) == 1);
}

TEST_CASE("equal-cost sets on a 2-leaf, 2-spine fabric") {
  const Fabric f = leaf_spine(2, 2, 1, 1);
  const EqualCostSets s = compute_equal_cost_sets(f);
  const auto leaf0 = f.switch_index(f.find("leaf0"));
  const auto spine1 = f.switch_index(f.find("spine1"));
  const auto tor1 = f.tor_index(f.find("leaf1"));
  CHECK(names(f, s.members(s.group(leaf0, tor1))) == std::vector<std::string>{"leaf0->spine0", "leaf0->spine1"});
  CHECK(names(f, s.members(s.group(spine1, tor1))) == std::vector<std::string>{"spine1->leaf1"});
  CHECK(s.group(leaf0, f.tor_index(f.find("leaf0"))) == EqualCostSets::kNoGroup);
  CHECK(s.distance(leaf0, tor1) == 2);
}

TEST_CASE("parallel links are separate members") {
  const Fabric f = leaf_spine(2, 2, 1, 2);
  const EqualCostSets s = compute_equal_cost_sets(f);
  const auto leaf0 = f.switch_index(f.find("leaf0"));
  const auto members = s.members(s.group(leaf0, f.tor_index(f.find("leaf1"))));
  CHECK(members.size() == 4);
  CHECK(names(f, members) ==
        std::vector<std::string>{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine1#0", "leaf0->spine1#1"});
}
}  // namespace routes_test
