// Port-channels (issue 49 item 2), worked by hand on small fabrics: a LAG's
// cables are one next hop of the ECMP choice and its member is the switch's
// LAG hash's choice (h mod members); a switch's port-channel to an MLAG pair
// is one next hop; a host bond picks its member by the bond hash
// (linux-bond-l34 by default); per-link loads show the members.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/config/topology_file.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/route_flows.h"
#include "sim/routing/routes.h"
#include "tests/support/fabrics.h"

namespace lag_test {

namespace {

using namespace ecmpsim;

Fabric two_by_two(bool lag) {
  FabricSpec s = test_support::leaf_spine_spec(2, 2, 1, 2, 400);
  s.leaf_spine.lag = lag;
  return build_fabric(s);
}

workloads::Flows flows_between(const Fabric& f, std::uint32_t src, std::uint32_t dst, int n) {
  workloads::Flows out;
  for (int i = 0; i < n; ++i) {
    workloads::FlowRecord r;
    r.src = src;
    r.dst = dst;
    r.src_ip = f.node(f.endpoint_node(src)).ip;
    r.dst_ip = f.node(f.endpoint_node(dst)).ip;
    r.sport = static_cast<std::uint16_t>(49152 + 97 * i);
    r.bytes = 1;
    out.push_back(r);
  }
  return out;
}

std::vector<std::vector<LinkId>> paths(const Fabric& f, const Forwarding& fwd, const workloads::Flows& flows) {
  std::vector<std::vector<LinkId>> out(flows.size());
  route_flows(f, fwd, flows, [&](std::size_t i, LinkId l, double) { out[i].push_back(l); }, [](std::size_t) {});
  return out;
}

// The catalogue's crc16-ccitt of a flow's five-tuple: every switch's hash here.
std::uint64_t crc(const hashing::Tuple& t) {
  hashing::KeyBuffer key;
  const std::size_t n = hashing::build_key(hashing::KeyLayout::Fields, hashing::default_fields(), t, key);
  return hashing::find("crc16-ccitt")->fn({key.data(), n}, 0);
}

std::uint32_t endpoint(const Fabric& f, const std::string& name) {
  const auto e = f.endpoints();
  return static_cast<std::uint32_t>(std::find(e.begin(), e.end(), f.find(name)) - e.begin());
}

// The k-th cable (0 or 1) from node a to node b.
LinkId cable(const Fabric& f, const std::string& a, const std::string& b, int k) {
  int seen = 0;
  for (LinkId l : f.out_links(f.find(a)))
    if (f.link(l).to == f.find(b) && seen++ == k) return l;
  FAIL("no cable");
  return kNone;
}

}  // namespace

TEST_CASE("links_per_pair = 2 with lag: two next hops of two members each, the members by the LAG hash") {
  const Fabric f = two_by_two(true);
  REQUIRE(f.lags().size() == 8);  // each leaf-spine pair: one port-channel each way
  const EqualCostSets sets = compute_equal_cost_sets(f);
  const Forwarding fwd(f, sets, ScenarioSpec{}, "t");
  const std::uint32_t g = sets.group(f.switch_index(f.find("leaf0")), f.tor_index(f.find("leaf1")));
  CHECK(sets.members(g).size() == 4);
  CHECK(fwd.next_hops(g) == 2);
  // Negative control: without lag the four cables are four ECMP members.
  const Fabric plain = two_by_two(false);
  const EqualCostSets psets = compute_equal_cost_sets(plain);
  const Forwarding pfwd(plain, psets, ScenarioSpec{}, "t");
  CHECK(pfwd.next_hops(psets.group(plain.switch_index(plain.find("leaf0")), plain.tor_index(plain.find("leaf1")))) == 4);

  // By hand: leaf0 picks spine h mod 2, then cable h mod 2 of that
  // port-channel (the LAG hash is the switch's own: SONiC's default); the
  // spine's port-channel to leaf1 is its one next hop, cable h mod 2.
  const workloads::Flows flows = flows_between(f, 0, 1, 64);
  const auto got = paths(f, fwd, flows);
  std::set<LinkId> used;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const std::uint64_t h = crc(flows.tuple(i));
    const std::string spine = "spine" + std::to_string(h % 2);
    const std::vector<LinkId> want{f.uplink(0), cable(f, "leaf0", spine, static_cast<int>(h % 2)),
                                   cable(f, spine, "leaf1", static_cast<int>(h % 2)), f.downlink(1)};
    CHECK(got[i] == want);
    used.insert(got[i][1]);
  }
  // One hash for both choices: of leaf0's four uplinks, two carry every flow
  // (the polarization a separate LAG hash setting breaks).
  CHECK(used.size() == 2);
  ScenarioSpec rotated;
  rotated.lag_hash.values.offset = 1;
  rotated.lag_hash.keys = kHashOffset;
  const Forwarding fwd2(f, sets, rotated, "t");
  std::set<LinkId> used2;
  for (const auto& p : paths(f, fwd2, flows)) used2.insert(p[1]);
  CHECK(used2.size() == 4);
}

TEST_CASE("a switch's port-channel to an MLAG pair is one next hop; a host bond picks by linux-bond-l34") {
  // x is cabled to MLAG pair p1/p2 (peer link of two cables), both to spine s;
  // host h0 on x; host h1 bonded (two cables, bond0) to spine-side leaf y.
  const std::string csv =
      "node,s,spine\nnode,p1,leaf\nnode,p2,leaf\nnode,x,leaf\nnode,y,leaf\nnode,h0,host\nnode,h1,host\n"
      "link,p1,p2,100,peer-link,2\nlink,x,p1,100,po1\nlink,x,p2,100,po1\n"
      "link,p1,s,100\nlink,p2,s,100\nlink,y,s,100\n"
      "link,h0,x,100\nlink,h1,y,100,bond0,2\n";
  FabricSpec spec;
  spec.kind = FabricKind::File;
  spec.topology = config::parse_topology("t.csv", csv);
  const Fabric f = build_fabric(spec);
  const EqualCostSets sets = compute_equal_cost_sets(f);
  const Forwarding fwd(f, sets, ScenarioSpec{}, "t");
  const std::uint32_t g = sets.group(f.switch_index(f.find("x")), f.tor_index(f.find("y")));
  CHECK(sets.members(g).size() == 2);  // x-p1 and x-p2 are both on a shortest path
  CHECK(fwd.next_hops(g) == 1);        // ... and one port-channel
  const std::uint32_t h1 = endpoint(f, "h1");
  const std::uint32_t h0 = endpoint(f, "h0");
  // h0 -> h1: x takes the member crc mod 2 of its port-channel (p1's or p2's).
  const workloads::Flows there = flows_between(f, h0, h1, 32);
  const auto p = paths(f, fwd, there);
  std::set<NodeId> via;
  for (std::size_t i = 0; i < there.size(); ++i) {
    const std::uint64_t h = crc(there.tuple(i));
    CHECK(f.link(p[i][1]).to == f.find(h % 2 ? "p2" : "p1"));
    via.insert(f.link(p[i][1]).to);
    // Delivered to the bonded host over y's member crc mod 2 of its two.
    CHECK(p[i].back() == cable(f, "y", "h1", static_cast<int>(h % 2)));
  }
  CHECK(via.size() == 2);
  // h1 -> h0: the bond's member is linux-bond-l34's hash mod 2.
  const workloads::Flows back = flows_between(f, h1, h0, 32);
  const auto q = paths(f, fwd, back);
  std::set<LinkId> first;
  for (std::size_t i = 0; i < back.size(); ++i) {
    const hashing::Tuple t = back.tuple(i);
    hashing::KeyBuffer key;
    const hashing::Algorithm& bond = *hashing::find("linux-bond-l34");
    const std::size_t n = hashing::build_key(bond.layout, {}, t, key);
    const std::uint64_t hb = hashing::window(bond.fn({key.data(), n}, 0), bond.bits, 0);
    CHECK(q[i].front() == cable(f, "h1", "y", static_cast<int>(hb % 2)));
    first.insert(q[i].front());
  }
  CHECK(first.size() == 2);
}

TEST_CASE("topology rows: a port-channel column, and an endpoint's cables only as a named bond") {
  FabricSpec spec;
  spec.kind = FabricKind::File;
  spec.topology = config::parse_topology("t.csv", "node,l,leaf\nnode,h,host\nlink,h,l,100,bond0,2\n");
  REQUIRE(spec.topology.links.size() == 1);
  CHECK(spec.topology.links[0].lag == "bond0");
  CHECK(spec.topology.links[0].count == 2);
  CHECK_THROWS_WITH_AS(config::parse_topology("t.csv", "node,l,leaf\nlink,h,l,100,bond0,2,1,9\n"),
                       "expected link,A,B,SPEED_GBPS[,LAG][,COUNT[,WEIGHT]]", InputError);
  spec.topology = config::parse_topology("t.csv", "node,l,leaf\nnode,h,host\nlink,h,l,100,2\n");
  CHECK_THROWS_WITH_AS(build_fabric(spec), "an endpoint has exactly one link (count must be 1), or a bond (name its LAG)",
                       InputError);
}

}  // namespace lag_test
