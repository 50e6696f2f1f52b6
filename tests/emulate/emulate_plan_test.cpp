#include <doctest/doctest.h>

#include "sim/base/text.h"
#include "sim/emulate/emulate_plan.h"
#include "sim/fabric/failures.h"
#include "sim/routing/routes.h"
#include "tests/support/fabrics.h"

namespace emulate_plan_test {

using namespace ecmpsim;

namespace {

// 2 leaves x 2 spines, 1 host per leaf, 2 parallel links per leaf-spine pair.
// build_fabric numbers nodes leaf0=0 leaf1=1 spine0=2 spine1=3 host0=4
// host1=5 and links (two per cable, in creation order):
//   host0-leaf0 0/1, host1-leaf1 2/3,
//   leaf0-spine0 4/5 and 6/7, leaf0-spine1 8/9 and 10/11,
//   leaf1-spine0 12/13 and 14/15, leaf1-spine1 16/17 and 18/19.
FabricSpec small_parallel() { return test_support::leaf_spine_spec(2, 2, 1, 2); }

bool has_line(const std::string& batch, const std::string& line) {
  return ("\n" + batch).find("\n" + line + "\n") != std::string::npos;
}

}  // namespace

TEST_CASE("namespace names carry the owning pid") {
  CHECK(namespace_prefix(4242) == "es4242-");
  CHECK(namespace_owner("es4242-leaf0") == 4242);
  CHECK(namespace_owner("es-leaf0") == -1);
  CHECK(namespace_owner("es12x-leaf0") == -1);
  CHECK(namespace_owner("es12") == -1);
  CHECK(namespace_owner("ecmpsim-hk-1-r") == -1);
  CHECK(namespace_owner("other") == -1);
}

TEST_CASE("a ToR's hosts are routed by their shortest common prefix") {
  // paper16: leaf1's hosts are 10.0.1.1-4; last octets 001, 010, 011, 100
  // share their top 5 bits, so the prefix is 10.0.1.0/29.
  FabricSpec f;
  const Fabric fabric = build_fabric(f);
  const auto p = tor_prefixes(fabric, 1);
  REQUIRE(p.size() == 1);
  CHECK(p[0].first == 0x0A000100);
  CHECK(p[0].second == 29);
  // One host per leaf: a /32 each.
  const Fabric one = build_fabric(small_parallel());
  const auto q = tor_prefixes(one, 1);
  REQUIRE(q.size() == 1);
  CHECK(q[0].first == 0x0A000101);
  CHECK(q[0].second == 32);
}

TEST_CASE("the plan: one veth pair per cable, /31 link addresses, multipath routes in member order") {
  const Fabric fabric = build_fabric(small_parallel());
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel{{1, 7}, {1, 7}, {0, 9}, {0, 9}};
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan p = plan_netns(fabric, sets, weight, kernel, "es1-");
  CHECK(p.ns[0] == "es1-leaf0");
  CHECK(p.ns[5] == "es1-host1");
  // 10 cables, each one `link add` line.
  std::size_t lines = 0;
  for (char c : p.links_batch) lines += c == '\n';
  CHECK(lines == 10);
  // leaf0's ports in creation order: link 1 (to host0) p0, links 4, 6, 8, 10 p1..p4.
  CHECK(p.ifname[1] == "p0");
  CHECK(p.ifname[10] == "p4");
  CHECK(has_line(p.links_batch,
                 "link add p1 netns es1-leaf0 address 02:e5:00:00:00:04 type veth peer name p0 netns es1-spine0 "
                 "address 02:e5:00:00:00:05"));
  // Link l's from-end is 100.64.0.0 + l; a host end is the host's own address.
  CHECK(has_line(p.node_batch[0], "addr add 100.64.0.4/31 dev p1"));
  CHECK(has_line(p.node_batch[0], "addr add 100.64.0.1/32 dev p0"));
  CHECK(has_line(p.node_batch[0], "route add 10.0.0.1/32 dev p0"));
  CHECK(has_line(p.node_batch[4], "addr add 10.0.0.1/32 dev p0"));
  CHECK(has_line(p.node_batch[4], "route add default via 100.64.0.1 dev p0 onlink"));
  CHECK(has_line(p.node_batch[4], "neigh replace 100.64.0.1 lladdr 02:e5:00:00:00:01 dev p0 nud permanent"));
  // leaf0 -> leaf1's host over the four uplinks, next hop = the far end (pool + reverse link).
  CHECK(has_line(p.node_batch[0],
                 "route add 10.0.1.1/32 nexthop via 100.64.0.5 dev p1 weight 1 nexthop via 100.64.0.7 dev p2 weight 1"
                 " nexthop via 100.64.0.9 dev p3 weight 1 nexthop via 100.64.0.11 dev p4 weight 1"));
  // spine0's ports: links 5, 7, 13, 15; towards leaf1 the two parallel links 13 and 15.
  CHECK(has_line(p.node_batch[2],
                 "route add 10.0.1.1/32 nexthop via 100.64.0.12 dev p2 weight 1 nexthop via 100.64.0.14 dev p3 "
                 "weight 1"));
  // Switch sysctls carry the per-switch policy and seed; hosts do not forward.
  auto has = [](const auto& v, const std::string& k, const std::string& val) {
    for (const auto& [key, value] : v)
      if (key == k) return value == val;
    return false;
  };
  CHECK(has(p.sysctls[0], "net.ipv4.fib_multipath_hash_seed", "7"));
  CHECK(has(p.sysctls[3], "net.ipv4.fib_multipath_hash_policy", "0"));
  CHECK(has(p.sysctls[3], "net.ipv4.ip_forward", "1"));
  CHECK_FALSE(has(p.sysctls[4], "net.ipv4.ip_forward", "1"));
  CHECK(has(p.sysctls[4], "net.ipv6.conf.default.disable_ipv6", "1"));
}

TEST_CASE("hosts inside the link pool are refused") {
  FabricSpec f = small_parallel();
  f.address_base = 0x64400000;
  const Fabric fabric = build_fabric(f);
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  CHECK_THROWS_AS(plan_netns(fabric, sets, weight, kernel, "es1-"), InputError);
}

TEST_CASE("WCMP weights become next-hop weights, in member order") {
  const Fabric fabric = build_fabric(small_parallel());
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 5});
  // leaf0-spine1#0 (links 8/9) weight 3, leaf1-spine0#1 (links 14/15) weight 256, the kernel's most.
  const std::vector<LinkWeight> w{{{"leaf0-spine1#0", {}}, 3}, {{"leaf1-spine0#1", {}}, 256}};
  const auto weight = link_weights(fabric, w);
  const NetnsPlan p = plan_netns(fabric, sets, weight, kernel, "es1-");
  CHECK(has_line(p.node_batch[0],
                 "route add 10.0.1.1/32 nexthop via 100.64.0.5 dev p1 weight 1 nexthop via 100.64.0.7 dev p2 weight 1"
                 " nexthop via 100.64.0.9 dev p3 weight 3 nexthop via 100.64.0.11 dev p4 weight 1"));
  // A cable's weight holds in both directions: spine0 -> leaf1 over link 15 (spine0's p3).
  CHECK(has_line(p.node_batch[2],
                 "route add 10.0.1.1/32 nexthop via 100.64.0.12 dev p2 weight 1 nexthop via 100.64.0.14 dev p3 "
                 "weight 256"));
  // ...and leaf1 -> spine0#1 (link 14, leaf1's p2) towards leaf0's host.
  CHECK(has_line(p.node_batch[1],
                 "route add 10.0.0.1/32 nexthop via 100.64.0.13 dev p1 weight 1 nexthop via 100.64.0.15 dev p2 "
                 "weight 256 nexthop via 100.64.0.17 dev p3 weight 1 nexthop via 100.64.0.19 dev p4 weight 1"));
  // One byte holds rtnh_hops = weight - 1: 257 cannot be said to the kernel.
  const std::vector<LinkWeight> big{{{"leaf0-spine1#0", {}}, 257}};
  CHECK_THROWS_WITH_AS(plan_netns(fabric, sets, link_weights(fabric, big), kernel, "es1-"),
                       "link leaf0->spine1#0 has weight 257; a Linux multipath route carries next-hop weights 1..256",
                       InputError);
}

TEST_CASE("down cables are not built and leave the routes") {
  const Fabric fabric = build_fabric(small_parallel());
  // leaf0-spine1#1 (links 10/11) down.
  const auto mask = down_mask(fabric, std::vector<LinkRef>{{"leaf0-spine1#1", {}}});
  const EqualCostSets sets = compute_equal_cost_sets(fabric, mask);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 5});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan p = plan_netns(fabric, sets, weight, kernel, "es1-");
  std::size_t lines = 0;
  for (char c : p.links_batch) lines += c == '\n';
  CHECK(lines == 9);
  CHECK(p.links_batch.find("address 02:e5:00:00:00:0a") == std::string::npos);
  CHECK(p.node_batch[0].find("dev p4") == std::string::npos);
  CHECK(p.node_batch[3].find("100.64.0.11") == std::string::npos);
  // leaf0 towards leaf1: three uplinks left; spine1 towards leaf0: the one surviving cable, a plain route.
  CHECK(has_line(p.node_batch[0],
                 "route add 10.0.1.1/32 nexthop via 100.64.0.5 dev p1 weight 1 nexthop via 100.64.0.7 dev p2 weight 1"
                 " nexthop via 100.64.0.9 dev p3 weight 1"));
  CHECK(has_line(p.node_batch[3], "route add 10.0.0.1/32 via 100.64.0.8 dev p0"));
  // A whole switch down: its namespace stays, with no link at all.
  const auto spine = down_mask(fabric, std::vector<LinkRef>{{"spine0", {}}});
  const EqualCostSets s2 = compute_equal_cost_sets(fabric, spine);
  const NetnsPlan q = plan_netns(fabric, s2, weight, kernel, "es1-");
  CHECK(q.node_batch[2] == "link set lo up\n");
  lines = 0;
  for (char c : q.links_batch) lines += c == '\n';
  CHECK(lines == 6);
}

TEST_CASE("a static table becomes one /32 route per destination endpoint") {
  // paper16's fabric with the dst-mod policy: a leaf sends host i up to spine
  // i mod 4 (the member order of its equal-cost set), a spine down to host i's leaf.
  const Fabric fabric = build_fabric(FabricSpec{});
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  ScenarioSpec sc;
  sc.routing = RoutingKind::Static;
  sc.policy = StaticPolicy::DstMod;
  const Forwarding fwd(fabric, sets, sc, "t.toml");
  const auto next = static_next_hops(fabric, fwd);
  const std::size_t endpoints = fabric.endpoints().size();
  REQUIRE(next.size() == fabric.switches().size() * endpoints);
  const std::uint32_t leaf0 = fabric.switch_index(fabric.find("leaf0"));
  const std::uint32_t spine2 = fabric.switch_index(fabric.find("spine2"));
  for (std::uint32_t e = 0; e < endpoints; ++e) {
    const std::string host = fabric.node(fabric.endpoint_node(e)).name;
    const std::string leaf = "leaf" + std::to_string(e / 4);
    if (e < 4) {
      CHECK(next[leaf0 * endpoints + e] == kNone);  // leaf0 delivers its own hosts
    } else {
      const Link& up = fabric.link(next[leaf0 * endpoints + e]);
      CHECK(fabric.node(up.to).name == "spine" + std::to_string(e % 4));
    }
    CHECK(fabric.node(fabric.link(next[spine2 * endpoints + e]).to).name == leaf);
  }
  const std::vector<KernelHash> kernel(fabric.switches().size(), KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan p = plan_netns(fabric, sets, weight, kernel, "es1-", next);
  // host5 (10.0.1.2) from leaf0: spine1.
  const LinkId l = next[leaf0 * endpoints + 5];
  CHECK(has_line(p.node_batch[fabric.find("leaf0")],
                 "route add 10.0.1.2/32 via " + format_ipv4(p.addr[l ^ 1u].v4()) + " dev " + p.ifname[l]));
  for (const std::string& b : p.node_batch) CHECK(b.find("nexthop") == std::string::npos);
}

TEST_CASE("a static route that depends on the source cannot be a kernel route") {
  const Fabric fabric = test_support::leaf_spine(2, 2, 2);
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  ScenarioSpec sc;
  sc.routing = RoutingKind::Static;
  sc.policy = StaticPolicy::DstMod;
  const SourcePos at{"t.toml", 9, 3, "scenario.routes"};
  // leaf0 sends 10.0.1.0/24 from host1 (10.0.0.2) over spine1.
  sc.routes = {{"leaf0", 0x0A000100, 24, "", 0x0A000002, 32, "spine1", at}};
  const Forwarding fwd(fabric, sets, sc, "t.toml");
  try {
    static_next_hops(fabric, fwd);
    FAIL("a source-qualified route was accepted");
  } catch (const InputError& e) {
    // The error points at the route that decided.
    CHECK(e.describe() == "t.toml:9:3: switch 'leaf0' routes host2 by source; emulate installs destination routes only");
  }
}

TEST_CASE("an IPv6 fabric: /127 links from fdff:e5::/32, IPv6 multipath routes, IPv6 sysctls") {
  FabricSpec f = small_parallel();
  f.address_base = *hashing::parse_ip("fd00::");
  const Fabric fabric = build_fabric(f);
  REQUIRE(fabric.family() == hashing::Family::V6);
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel{{0, 7}, {0, 7}, {1, 9}, {1, 9}};
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan p = plan_netns(fabric, sets, weight, kernel, "es1-");
  // The same veth pairs as on IPv4; link l's from-end is fdff:e5:: + l (hex).
  CHECK(has_line(p.node_batch[0], "addr add fdff:e5::4/127 dev p1 nodad"));
  CHECK(has_line(p.node_batch[0], "addr add fdff:e5::1/128 dev p0 nodad"));
  // host0 is the address plan's first endpoint, fd00::1 (ToR t's hosts are fd00::t00 + 1...).
  const std::string host0 = hashing::format_ip(fabric.node(4).ip);
  const std::string host1 = hashing::format_ip(fabric.node(5).ip);
  CHECK(has_line(p.node_batch[0], "route add " + host0 + "/128 dev p0"));
  CHECK(has_line(p.node_batch[4], "addr add " + host0 + "/128 dev p0 nodad"));
  CHECK(has_line(p.node_batch[4], "route add ::/0 via fdff:e5::1 dev p0 onlink"));
  CHECK(has_line(p.node_batch[4], "neigh replace fdff:e5::1 lladdr 02:e5:00:00:00:01 dev p0 nud permanent"));
  // leaf0 -> leaf1's one host: the four uplinks in member order, next hop the far end (pool + 5, 7, 9, 11).
  CHECK(has_line(p.node_batch[0], "route add " + host1 +
                                      "/128 nexthop via fdff:e5::5 dev p1 weight 1 nexthop via fdff:e5::7 dev p2 "
                                      "weight 1 nexthop via fdff:e5::9 dev p3 weight 1 nexthop via fdff:e5::b dev p4 "
                                      "weight 1"));
  auto value = [](const auto& v, const std::string& k) {
    for (const auto& [key, val] : v)
      if (key == k) return val;
    return std::string("(unset)");
  };
  // The policy is IPv6's; the seed is IPv4's, the one the kernel's IPv6 hash reads too, and last.
  CHECK(value(p.sysctls[0], "net.ipv6.fib_multipath_hash_policy") == "0");
  CHECK(value(p.sysctls[3], "net.ipv6.fib_multipath_hash_policy") == "1");
  CHECK(p.sysctls[3].back() == std::pair<std::string, std::string>{"net.ipv4.fib_multipath_hash_seed", "9"});
  CHECK(value(p.sysctls[0], "net.ipv6.conf.all.forwarding") == "1");
  CHECK(value(p.sysctls[0], "net.ipv4.fib_multipath_hash_policy") == "(unset)");
  CHECK(value(p.sysctls[4], "net.ipv6.conf.all.forwarding") == "(unset)");
  for (const auto& sys : p.sysctls) {
    CHECK(value(sys, "net.ipv6.conf.default.disable_ipv6") == "0");
    CHECK(value(sys, "net.ipv6.conf.default.accept_dad") == "0");
    CHECK(value(sys, "net.ipv6.auto_flowlabels") == "0");
  }
  // No IPv4 anywhere in the batches.
  for (const std::string& b : p.node_batch) CHECK(b.find("100.64.") == std::string::npos);
}

TEST_CASE("IPv6 hosts inside the IPv6 link pool are refused") {
  FabricSpec f = small_parallel();
  f.address_base = *hashing::parse_ip("fdff:e5::100");
  const Fabric fabric = build_fabric(f);
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  CHECK_THROWS_WITH_AS(plan_netns(fabric, sets, weight, kernel, "es1-"),
                       doctest::Contains("is inside fdff:e5::/32, which emulate uses for links"), InputError);
}

TEST_CASE("an IPv6 ToR's hosts are routed by their shortest common prefix") {
  // paper16 from fd00::: leaf1's hosts are fd00::101-104; low bytes 0x01..0x04
  // share their top 5 bits, so the prefix is fd00::100/125.
  FabricSpec f;
  f.address_base = *hashing::parse_ip("fd00::");
  const Fabric fabric = build_fabric(f);
  const auto p = tor_prefixes(fabric, 1);
  REQUIRE(p.size() == 1);
  CHECK(hashing::format_ip(p[0].first) == "fd00::100");
  CHECK(p[0].second == 125);
}
}  // namespace emulate_plan_test
