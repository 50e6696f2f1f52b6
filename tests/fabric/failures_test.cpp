#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "sim/fabric/failures.h"
#include "sim/routing/routes.h"
#include "tests/support/fabrics.h"

namespace failures_test {

using namespace ecmpsim;

namespace {

std::vector<std::string> names(const Fabric& f, std::span<const LinkId> links) {
  std::vector<std::string> out;
  for (LinkId l : links) out.push_back(f.link_name(l));
  return out;
}

// 2 leaves, 3 spines, 2 parallel cables per leaf-spine pair, 1 host per leaf.
Fabric fabric() { return test_support::leaf_spine(2, 3, 1, 2, 400); }

std::vector<std::string> up_set(const Fabric& f, const std::vector<LinkRef>& down, const char* from = "leaf0",
                                const char* to = "leaf1") {
  const EqualCostSets s = compute_equal_cost_sets(f, down_mask(f, down));
  return names(f, s.members(s.group(f.switch_index(f.find(from)), f.tor_index(f.find(to)))));
}

}  // namespace

TEST_CASE("a failed cable leaves exactly its members") {
  const Fabric f = fabric();
  using V = std::vector<std::string>;
  const V healthy{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine1#0",
                  "leaf0->spine1#1", "leaf0->spine2#0", "leaf0->spine2#1"};
  CHECK(up_set(f, {}) == healthy);
  // Both parallel cables of leaf0-spine1: two members gone.
  CHECK(up_set(f, {{"leaf0-spine1", {}}}) ==
        V{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine2#0", "leaf0->spine2#1"});
  // Only the second one (#1): exactly one member gone.
  CHECK(up_set(f, {{"leaf0-spine1#1", {}}}) ==
        V{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine1#0", "leaf0->spine2#0", "leaf0->spine2#1"});
  // Named from the other end, the same cable.
  CHECK(up_set(f, {{"spine1-leaf0#1", {}}}) == up_set(f, {{"leaf0-spine1#1", {}}}));
  // A switch down takes all its cables.
  CHECK(up_set(f, {{"spine2", {}}}) ==
        V{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine1#0", "leaf0->spine1#1"});
  // leaf1's cables to spine1 down: leaf0 no longer goes via spine1 at all.
  CHECK(up_set(f, {{"leaf1-spine1", {}}}) ==
        V{"leaf0->spine0#0", "leaf0->spine0#1", "leaf0->spine2#0", "leaf0->spine2#1"});
  // ...and spine1 reaches leaf1 the long way: down to leaf0, up to spine0 or spine2 (3 hops).
  const auto mask = down_mask(f, std::vector<LinkRef>{{"leaf1-spine1", {}}});
  const EqualCostSets s = compute_equal_cost_sets(f, mask);
  CHECK(names(f, s.members(s.group(f.switch_index(f.find("spine1")), f.tor_index(f.find("leaf1"))))) ==
        V{"spine1->leaf0#0", "spine1->leaf0#1"});
  CHECK(s.distance(f.switch_index(f.find("spine1")), f.tor_index(f.find("leaf1"))) == 3);
}

TEST_CASE("every link's id names exactly its own cable for down, and no other link has it") {
  // The parallel fabric above and one with a single cable per pair (no "#k").
  for (const Fabric& f : {fabric(), test_support::leaf_spine(2, 2, 1, 1, 400)}) {
    std::set<std::string> ids;
    for (LinkId l = 0; l < f.links().size(); ++l) {
      const Link& link = f.link(l);
      const std::string id = f.link_name(l);
      CAPTURE(id);
      ids.insert(id);
      // "from->to", and "#k" exactly when the pair has parallel cables.
      const std::string pair = f.node(link.from).name + "->" + f.node(link.to).name;
      CHECK(id.rfind(pair, 0) == 0);
      std::size_t parallel = 0;
      for (const Link& other : f.links()) parallel += other.from == link.from && other.to == link.to;
      CHECK((id != pair) == (parallel > 1));
      // Both directions of a cable carry the same index.
      CHECK(f.cable_suffix(l) == f.cable_suffix(link.reverse));
      std::vector<LinkId> cable{l, link.reverse};
      std::sort(cable.begin(), cable.end());
      CHECK(resolve_cables(f, {id, {}}) == cable);
    }
    CHECK(ids.size() == f.links().size());
  }
  // By hand: leaf0's cables to spine1 are the third and fourth it was given.
  const Fabric f = fabric();
  const LinkId second = resolve_cables(f, {"leaf0-spine1#1", {}}).front();
  CHECK(f.link_name(second) == "leaf0->spine1#1");
  CHECK(f.link_name(f.link(second).reverse) == "spine1->leaf0#1");
  CHECK(resolve_cables(f, {"spine1->leaf0#1", {}}) == resolve_cables(f, {"leaf0-spine1#1", {}}));
  CHECK(resolve_cables(f, {"leaf0->spine1", {}}) == resolve_cables(f, {"leaf0-spine1", {}}));  // all of the pair
  CHECK(f.link_name(resolve_cables(f, {"host0-leaf0", {}}).front()) == "host0->leaf0");
}

TEST_CASE("down names are checked against the fabric") {
  const Fabric f = fabric();
  const SourcePos at{"t.toml", 3, 9, "scenario.down"};
  auto error = [&](const char* text) {
    try {
      resolve_cables(f, {text, at});
    } catch (const InputError& e) {
      return e.describe();
    }
    return std::string("no error");
  };
  CHECK(error("leaf0-spine9") == "t.toml:3:9: scenario.down: 'leaf0-spine9' names no switch and no cable between two linked nodes");
  CHECK(error("leaf0-leaf1") == "t.toml:3:9: scenario.down: 'leaf0-leaf1' names no switch and no cable between two linked nodes");
  CHECK(error("leaf0-spine1#2") == "t.toml:3:9: scenario.down: 'leaf0-spine1#2': only 2 parallel cable(s), numbered from 0");
  CHECK(error("host0") == "t.toml:3:9: scenario.down: 'host0' is an endpoint; name its cable, e.g. 'host0-leaf0'");
  CHECK(error("spine0#x") == "t.toml:3:9: scenario.down: 'spine0#x': expected a cable index after '#'");
  CHECK(resolve_cables(f, {"host0-leaf0", at}).size() == 2);
  // A failure that cuts leaf0 off is an error naming who cannot reach whom.
  const auto cut = down_mask(f, std::vector<LinkRef>{{"spine0", at}, {"spine1", at}, {"spine2", at}});
  CHECK_THROWS_WITH_AS(check_connected(f, cut, at), "the fabric is disconnected: host1 cannot reach host0",
                       InputError);
}

TEST_CASE("link weights: the fabric's, then each override in order, both directions") {
  const Fabric f = fabric();
  const std::vector<LinkWeight> w{{{"leaf0-spine1", {}}, 3}, {{"spine1-leaf0#1", {}}, 5}};
  const auto weight = link_weights(f, w);
  REQUIRE(weight.size() == f.links().size());
  const auto first = resolve_cables(f, {"leaf0-spine1#0", {}});
  const auto second = resolve_cables(f, {"leaf0-spine1#1", {}});
  std::size_t other = 0;
  for (LinkId l = 0; l < weight.size(); ++l) {
    const bool in_first = std::find(first.begin(), first.end(), l) != first.end();
    const bool in_second = std::find(second.begin(), second.end(), l) != second.end();
    CHECK(weight[l] == (in_first ? 3u : in_second ? 5u : 1u));
    other += !in_first && !in_second;
  }
  CHECK(other == f.links().size() - 4);
  CHECK(link_weights(f, {}) == std::vector<std::uint32_t>(f.links().size(), 1));
}
}  // namespace failures_test
