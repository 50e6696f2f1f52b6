#include <doctest/doctest.h>

#include <string>

#include "sim/emulate/emulate_plan.h"
#include "sim/emulate/shaping.h"
#include "sim/routing/routes.h"
#include "tests/support/fabrics.h"

namespace shaping_test {

using namespace ecmpsim;

namespace {

// 2 leaves x 2 spines, 1 host per leaf, 2 parallel links per leaf-spine pair
// (the fabric of emulate_plan_test.cpp): nodes leaf0=0 leaf1=1 spine0=2
// spine1=3 host0=4 host1=5; links host0-leaf0 0/1, host1-leaf1 2/3,
// leaf0-spine0 4/5 and 6/7, leaf0-spine1 8/9 and 10/11, leaf1-spine0 12/13
// and 14/15, leaf1-spine1 16/17 and 18/19.
Fabric small_parallel() { return test_support::leaf_spine(2, 2, 1, 2); }

bool has_line(const std::string& batch, const std::string& line) {
  return ("\n" + batch).find("\n" + line + "\n") != std::string::npos;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Two flows host0 -> host1: flow 0 over leaf0 >#0 spine0 >#0 leaf1 (links 0, 4, 13, 3),
// flow 1 over leaf0 >#0 spine1 >#0 leaf1 (links 0, 8, 17, 3).
struct TwoFlows {
  workloads::Flows flows;
  Trace paths;
  TwoFlows() {
    flows.push_back({0, 1, 0x0A000001, 0x0A000101, 17, 50000, 4791, 0, 0, 1000, 0, 0, 0});
    flows.push_back({0, 1, 0x0A000001, 0x0A000101, 17, 50001, 4791, 0, 0, 1000, 0, 1, 0});
    paths.path_begin = {0, 4, 8};
    paths.path_links = {0, 4, 13, 3, 0, 8, 17, 3};
  }
};

}  // namespace

TEST_CASE("a link is shaped to speed x scale in payload, framed") {
  // 400 Gb/s at 1/40000 is 10 Mb/s of payload; a 1514-byte frame carries 1448
  // payload bytes, so the frame rate is 10e6 x 1514 / 1448 = 10455801.1 bit/s.
  CHECK(shaped_rate(Gbps{400}, 1.0 / 40000) == 10455801);
  CHECK(shaped_rate(Gbps{100}, 1e-4) == 10455801);
  // Never below one byte per second.
  CHECK(shaped_rate(Gbps{1}, 1e-15) == 8);
}

TEST_CASE("fair queueing: a class and a filter per flow on every link of its path") {
  const Fabric fabric = small_parallel();
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan net = plan_netns(fabric, sets, weight, kernel, "es1-");
  const std::vector<std::uint8_t> built(fabric.links().size(), 1);
  const TwoFlows two;
  const ShapingPlan p = plan_shaping(fabric, net, built, two.flows, two.paths, {1e-4, QueueMode::Fair});

  const std::string rate = "10455801bit";  // 100 Gb/s x 1e-4, framed (above)
  REQUIRE(p.rate_bps.size() == fabric.links().size());
  for (std::uint64_t r : p.rate_bps) CHECK(r == 10455801);
  // host0's uplink (link 0, host0's p0) carries both flows: two classes of half the rate each.
  const std::string& host0 = p.tc[4];
  CHECK(has_line(host0, "qdisc add dev p0 root handle 1: htb default 0"));
  CHECK(has_line(host0, "class add dev p0 parent 1: classid 1:1 htb rate " + rate + " ceil " + rate +
                            " quantum 1514"));
  CHECK(has_line(host0, "class add dev p0 parent 1:1 classid 1:10 htb rate 5227900bit ceil " + rate +
                            " quantum 1514"));
  CHECK(has_line(host0, "class add dev p0 parent 1:1 classid 1:11 htb rate 5227900bit ceil " + rate +
                            " quantum 1514"));
  CHECK(has_line(host0, "qdisc add dev p0 parent 1:10 pfifo limit 32"));
  CHECK(has_line(host0, "filter add dev p0 parent 1: protocol ip prio 1 u32 match ip src 10.0.0.1/32 match ip dst "
                        "10.0.1.1/32 match ip protocol 6 0xff match ip sport 50001 0xffff match ip dport 4791 0xffff "
                        "flowid 1:11"));
  CHECK(p.link_flows[0] == std::vector<std::uint32_t>{0, 1});
  // leaf0 -> spine0#0 (link 4, leaf0's p1) carries flow 0 alone: one class, the whole rate.
  CHECK(p.link_flows[4] == std::vector<std::uint32_t>{0});
  CHECK(has_line(p.tc[0], "class add dev p1 parent 1:1 classid 1:10 htb rate " + rate + " ceil " + rate +
                              " quantum 1514"));
  CHECK(count(p.tc[0], "filter add dev p1 ") == 1);
  // An idle link is shaped all the same, without flow classes: ACKs cross it.
  CHECK(has_line(p.tc[0], "qdisc add dev p2 root handle 1: htb default 0"));
  CHECK(count(p.tc[0], "classid 1:10 htb") == 2);  // p1 (flow 0) and p3 (flow 1)
  // Every built link, once: 20 directed links, 20 root qdiscs.
  std::size_t roots = 0;
  for (const std::string& b : p.tc) roots += count(b, "root handle 1: htb");
  CHECK(roots == 20);
}

TEST_CASE("steering: each switch on a flow's path sends its TCP five-tuple out of the path's port") {
  const Fabric fabric = small_parallel();
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan net = plan_netns(fabric, sets, weight, kernel, "es1-");
  const std::vector<std::uint8_t> built(fabric.links().size(), 1);
  const TwoFlows two;
  const ShapingPlan p = plan_shaping(fabric, net, built, two.flows, two.paths, {1e-4, QueueMode::Fair});
  // leaf0: flow 0 leaves by link 4 (port 1, peer spine0 at 100.64.0.5), flow 1 by link 8 (port 3, 100.64.0.9).
  const std::string& leaf0 = p.rules[0];
  CHECK(has_line(leaf0, "route add default via 100.64.0.5 dev p1 onlink table 1001"));
  CHECK(has_line(leaf0, "route add default via 100.64.0.9 dev p3 onlink table 1003"));
  CHECK(has_line(leaf0, "rule add pref 1000 from 10.0.0.1 to 10.0.1.1 ipproto 6 sport 50000 dport 4791 lookup 1001"));
  CHECK(has_line(leaf0, "rule add pref 1000 from 10.0.0.1 to 10.0.1.1 ipproto 6 sport 50001 dport 4791 lookup 1003"));
  // spine0 sends flow 0 down link 13 (its port 2, leaf1's end 100.64.0.12); spine1 has no rule for it.
  CHECK(has_line(p.rules[2], "route add default via 100.64.0.12 dev p2 onlink table 1002"));
  CHECK(p.rules[2].find("sport 50001") == std::string::npos);
  CHECK(p.rules[3].find("sport 50000") == std::string::npos);
  // leaf1 delivers both to host1 by port 0, one table shared by the two rules.
  CHECK(count(p.rules[1], "onlink table 1000") == 1);
  CHECK(count(p.rules[1], "lookup 1000") == 2);
  // Hosts get no rules, only whole segments (no GSO) on their uplink.
  CHECK(p.rules[4] == "link set dev p0 gso_max_segs 1\n");
  CHECK(p.rules[5] == "link set dev p0 gso_max_segs 1\n");
}

TEST_CASE("FIFO queueing: one class and one queue per link, nothing classified") {
  const Fabric fabric = small_parallel();
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{1, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan net = plan_netns(fabric, sets, weight, kernel, "es1-");
  std::vector<std::uint8_t> built(fabric.links().size(), 1);
  built[10] = built[11] = 0;  // leaf0-spine1#1 down: not shaped
  const TwoFlows two;
  const ShapingPlan p = plan_shaping(fabric, net, built, two.flows, two.paths, {2.5e-5, QueueMode::Fifo});
  const std::string& host0 = p.tc[4];
  CHECK(has_line(host0, "qdisc add dev p0 root handle 1: htb default 2"));
  CHECK(has_line(host0, "class add dev p0 parent 1:1 classid 1:2 htb rate 2613950bit ceil 2613950bit quantum 1514"));
  CHECK(has_line(host0, "qdisc add dev p0 parent 1:2 pfifo limit 128"));
  for (const std::string& b : p.tc) CHECK(b.find("filter") == std::string::npos);
  CHECK(p.link_flows[0].empty());
  CHECK(p.rate_bps[10] == 0);
  CHECK(p.tc[0].find("dev p4 ") == std::string::npos);  // leaf0's p4 is link 10
  // The steering does not depend on the queueing.
  CHECK(has_line(p.rules[0], "rule add pref 1000 from 10.0.0.1 to 10.0.1.1 ipproto 6 sport 50000 dport 4791 lookup 1001"));
}

TEST_CASE("an IPv6 fabric: rates for 1428-byte segments, ip6 filters, IPv6 steering") {
  // 1500-byte MTU, 40-byte IPv6 and 32-byte TCP-with-timestamps headers:
  // 1428 payload bytes a frame, so 10e6 x 1514 / 1428 = 10602240.9 bit/s.
  CHECK(payload_bytes(hashing::Family::V6) == 1428);
  CHECK(shaped_rate(Gbps{100}, 1e-4, hashing::Family::V6) == 10602241);
  CHECK(shaped_rate(Gbps{100}, 1e-4, hashing::Family::V4) == 10455801);

  FabricSpec spec = test_support::leaf_spine_spec(2, 2, 1, 2);
  spec.address_base = *hashing::parse_ip("fd00::");
  const Fabric fabric = build_fabric(spec);
  REQUIRE(fabric.family() == hashing::Family::V6);
  const EqualCostSets sets = compute_equal_cost_sets(fabric);
  const std::vector<KernelHash> kernel(4, KernelHash{0, 1});
  const std::vector<std::uint32_t> weight(fabric.links().size(), 1);
  const NetnsPlan net = plan_netns(fabric, sets, weight, kernel, "es1-");
  const std::vector<std::uint8_t> built(fabric.links().size(), 1);
  // TwoFlows' paths, from host0 (fd00::1) to host1 (fd00::101).
  TwoFlows two;
  two.flows = {};
  const hashing::IpAddr h0 = *hashing::parse_ip("fd00::1"), h1 = *hashing::parse_ip("fd00::101");
  two.flows.push_back({0, 1, h0, h1, 17, 50000, 4791, 0, 0, 1000, 0, 0, 0, 0x12345});
  two.flows.push_back({0, 1, h0, h1, 17, 50001, 4791, 0, 0, 1000, 0, 1, 0, 0x54321});
  const ShapingPlan p = plan_shaping(fabric, net, built, two.flows, two.paths, {1e-4, QueueMode::Fair});
  CHECK(p.ipv6);
  for (std::uint64_t r : p.rate_bps) CHECK(r == 10602241);
  // Flow 1's class takes only segments carrying its label, 0x54321.
  CHECK(has_line(p.tc[4], "filter add dev p0 parent 1: protocol ipv6 prio 1 u32 match ip6 src fd00::1/128 match ip6 "
                          "dst fd00::101/128 match ip6 flowlabel 0x54321 0xfffff match ip6 protocol 6 0xff match ip6 "
                          "sport 50001 0xffff match ip6 dport 4791 0xffff flowid 1:11"));
  CHECK(count(p.tc[4], "match ip ") == 0);
  // leaf0's ports 1 and 3 lead to spine0 (fdff:e5::5) and spine1 (fdff:e5::9); the
  // default route of an IPv6 table is ::/0 (`ip -6` would read `default` so too).
  CHECK(has_line(p.rules[0], "route add ::/0 via fdff:e5::5 dev p1 onlink table 1001"));
  CHECK(has_line(p.rules[0], "route add ::/0 via fdff:e5::9 dev p3 onlink table 1003"));
  CHECK(has_line(p.rules[0], "rule add pref 1000 from fd00::1 to fd00::101 ipproto 6 sport 50000 dport 4791 lookup 1001"));
  CHECK(has_line(p.rules[0], "rule add pref 1000 from fd00::1 to fd00::101 ipproto 6 sport 50001 dport 4791 lookup 1003"));
  // The IPv4 plan of the same flows is not an IPv6 one (negative control).
  const Fabric fabric4 = small_parallel();
  const NetnsPlan net4 = plan_netns(fabric4, compute_equal_cost_sets(fabric4), weight, kernel, "es1-");
  CHECK_FALSE(plan_shaping(fabric4, net4, built, TwoFlows{}.flows, two.paths, {1e-4, QueueMode::Fair}).ipv6);
}
}  // namespace shaping_test
