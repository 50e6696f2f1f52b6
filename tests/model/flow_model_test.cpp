#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/link_metrics.h"
#include "sim/model/prediction.h"
#include "sim/model/simulation.h"
#include "tests/support/fabrics.h"

namespace flow_model_test {

using namespace ecmpsim;

namespace {

LinkId link_named(const Fabric& fabric, const std::string& name) {
  for (LinkId l = 0; l < fabric.links().size(); ++l)
    if (fabric.link_name(l) == name) return l;
  FAIL("no link " << name);
  return kNone;
}

// A trace built by hand: each flow's path as node names, counters filled from them.
Trace trace_of(const Fabric& fabric, const workloads::Flows& flows, const std::vector<std::vector<std::string>>& paths) {
  Trace t;
  t.link_flows.assign(fabric.links().size(), 0);
  t.link_bytes.assign(fabric.links().size(), 0);
  t.path_begin.assign(1, 0);
  for (std::size_t f = 0; f < paths.size(); ++f) {
    for (std::size_t i = 1; i < paths[f].size(); ++i) {
      const LinkId l = link_named(fabric, paths[f][i - 1] + "->" + paths[f][i]);
      t.path_links.push_back(l);
      ++t.link_flows[l];
      t.link_bytes[l] += flows.bytes[f];
    }
    t.path_begin.push_back(static_cast<std::uint32_t>(t.path_links.size()));
  }
  return t;
}

std::vector<Gbps> capacities(const Fabric& fabric) {
  std::vector<Gbps> c;
  for (const Link& l : fabric.links()) c.push_back(l.speed);
  return c;
}

// 2 leaves x 2 spines, 2 hosts per leaf (host0, host1 on leaf0; host2, host3 on leaf1), all links 100 Gb/s.
Fabric small_fabric() { return test_support::leaf_spine(2, 2, 2); }

workloads::FlowRecord flow(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, std::uint16_t job = 0) {
  workloads::FlowRecord r;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.job = job;
  return r;
}

}  // namespace

TEST_CASE("two flows sharing one link of a two-link group: half rate each, slowdown 2") {
  const Fabric fabric = small_fabric();
  workloads::Flows flows;
  constexpr std::uint64_t kBytes = 125'000'000;  // 1 Gbit
  flows.push_back(flow(0, 2, kBytes));
  flows.push_back(flow(1, 3, kBytes));
  // Both placed on leaf0->spine0 although leaf0->spine1 is an equal-cost alternative.
  const Trace trace = trace_of(fabric, flows,
                               {{"host0", "leaf0", "spine0", "leaf1", "host2"},
                                {"host1", "leaf0", "spine0", "leaf1", "host3"}});
  const auto cap = capacities(fabric);
  FlowTimes times;
  FlowModel model;
  model.run({cap, flows.bytes, trace.path_begin, trace.path_links}, times);
  // leaf0->spine0 (100 Gb/s) offers 50 to each; every other link offers at least 100.
  CHECK(times.start_rate[0].value == doctest::Approx(50));
  CHECK(times.start_rate[1].value == doctest::Approx(50));
  // 1 Gbit at 50 Gb/s: 20 ms, both at once.
  CHECK(times.finish[0].value == doctest::Approx(0.02));
  CHECK(times.finish[1].value == times.finish[0].value);
  CHECK(times.events == 1);

  // Ideal: each NIC carries 1 Gbit at 100 Gb/s = 10 ms; leaf0's uplinks carry
  // 2 Gbit over 2 x 100 Gb/s = 10 ms (likewise leaf1's downlinks).
  const CutBounds cuts(fabric);
  CHECK(cuts.levels() == 2);  // hosts, leaves
  const Seconds ideal = cuts.ideal(flows);
  CHECK(ideal.value == doctest::Approx(0.01));
  // As a send/recv of S = 1 Gbit (factor 1): algbw = busbw = 1 Gbit / 20 ms = 50 Gb/s.
  const std::vector<JobInfo> jobs{{"pair", "sendrecv", BusPattern::SendRecv, 2, Bytes{kBytes}}};
  const std::vector<Seconds> job_ideal{ideal};
  const Prediction p = predict(flows, times, jobs, job_ideal, ideal);
  CHECK(p.all.completion.value == doctest::Approx(0.02));
  CHECK(p.all.slowdown == doctest::Approx(2));
  CHECK(p.all.busbw.value == doctest::Approx(50));
  CHECK(p.jobs[0].slowdown == doctest::Approx(2));
  // One pair of the same job stacked on leaf0->spine0 while leaf0->spine1 is idle;
  // spine0's group towards leaf1 has a single member, so no choice there.
  CHECK(colliding_pairs(fabric, compute_equal_cost_sets(fabric), flows, trace) == 1);
}

// Hand-worked max-min rates and finish times for every solver, this one
// among them, split flows too: tests/model/max_min_solvers_test.cpp.

TEST_CASE("ring all-reduce on a perfectly balanced fabric: slowdown 1, busbw = NIC speed") {
  // Strided placement puts the ring host0 -> host2 -> host1 -> host3 -> host0, every hop
  // crossing the spines. dst-mod sends destination i over member i mod 2, so host2's
  // flows take spine0 and host3's spine1 from leaf0 (host0's spine0 and host1's
  // spine1 from leaf1): every switch-to-switch link carries one connection.
  const Simulation sim(parse_config(R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 2
host_speed_gbps = 100
fabric_speed_gbps = 100
[workload]
placement = "strided"
message_bytes = "64MiB"
channels = 2
[[scenario]]
name = "balanced"
routing = "static"
policy = "dst-mod"
)",
                                    "balanced.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios[0]);
  REQUIRE(sim.flows().size() == 8);
  for (LinkId l : sim.metric_links()) REQUIRE(r.trace.link_flows[l] == 2);  // one connection = 2 channels
  // Each rank sends 2(4-1)/4 x 64 MiB = 100663296 bytes through its 100 Gb/s NIC.
  const double expected_s = 100663296.0 * 8 / 100e9;
  CHECK(r.predicted.all.completion.value == doctest::Approx(expected_s).epsilon(1e-12));
  CHECK(r.predicted.all.ideal.value == doctest::Approx(expected_s).epsilon(1e-12));
  CHECK(std::abs(r.predicted.all.slowdown - 1) < 1e-9);
  // algbw = S / t = 100 x 4 / (2 x 3); busbw = algbw x 2 x 3 / 4 = 100.
  CHECK(std::abs(r.predicted.all.busbw.value / 100 - 1) < 1e-9);
  CHECK(r.predicted.all.algbw.value == doctest::Approx(100.0 * 4 / 6));
  for (std::size_t f = 0; f < sim.flows().size(); ++f) CHECK(r.times.start_rate[f].value == doctest::Approx(50));
  CHECK(r.collisions == 0);
}

TEST_CASE("imbalance by bytes and by flow count disagree") {
  const Fabric fabric = small_fabric();
  workloads::Flows flows;
  // Per leaf: two 100-byte flows over spine0, one 600-byte flow over spine1.
  flows.push_back(flow(0, 2, 100));
  flows.push_back(flow(1, 2, 100));
  flows.push_back(flow(0, 3, 600));
  flows.push_back(flow(2, 0, 100));
  flows.push_back(flow(3, 0, 100));
  flows.push_back(flow(2, 1, 600));
  const Trace trace = trace_of(fabric, flows,
                               {{"host0", "leaf0", "spine0", "leaf1", "host2"},
                                {"host1", "leaf0", "spine0", "leaf1", "host2"},
                                {"host0", "leaf0", "spine1", "leaf1", "host3"},
                                {"host2", "leaf1", "spine0", "leaf0", "host0"},
                                {"host3", "leaf1", "spine0", "leaf0", "host0"},
                                {"host2", "leaf1", "spine1", "leaf0", "host1"}});
  std::vector<LinkId> links;
  for (LinkId l = 0; l < fabric.links().size(); ++l)
    if (fabric.is_switch(fabric.link(l).from) && fabric.is_switch(fabric.link(l).to)) links.push_back(l);
  const auto tiers = tier_imbalance(fabric, links, trace);
  REQUIRE(tiers.size() == 2);
  CHECK(tiers[0].name == "leaf->spine");
  CHECK(tiers[1].name == "spine->leaf");
  for (const TierImbalance& t : tiers) {
    // Flows per link {2, 1, 2, 1}: mean 1.5, |dev| 0.5 each -> FIM 0.5/1.5 = 1/3,
    // max/mean 2/1.5, CoV 0.5/1.5, Jain 6^2 / (4 x 10) = 0.9.
    CHECK(t.flows.fim == doctest::Approx(1.0 / 3));
    CHECK(t.flows.max_mean == doctest::Approx(4.0 / 3));
    CHECK(t.flows.cov == doctest::Approx(1.0 / 3));
    CHECK(t.flows.jain == doctest::Approx(0.9));
    // Bytes per link {200, 600, 200, 600}: mean 400, |dev| 200 -> FIM 0.5, max/mean 1.5,
    // CoV 0.5, Jain 1600^2 / (4 x 800000) = 0.8. The links with the most flows carry the fewest bytes.
    CHECK(t.bytes.fim == doctest::Approx(0.5));
    CHECK(t.bytes.max_mean == doctest::Approx(1.5));
    CHECK(t.bytes.cov == doctest::Approx(0.5));
    CHECK(t.bytes.jain == doctest::Approx(0.8));
  }
  CHECK(trace.link_flows[link_named(fabric, "leaf0->spine0")] > trace.link_flows[link_named(fabric, "leaf0->spine1")]);
  CHECK(trace.link_bytes[link_named(fabric, "leaf0->spine0")] < trace.link_bytes[link_named(fabric, "leaf0->spine1")]);
  // No equal-cost link is idle, so nothing counts as a collision.
  CHECK(colliding_pairs(fabric, compute_equal_cost_sets(fabric), flows, trace) == 0);
}

TEST_CASE("random networks: both bottleneck searches give max-min fair rates and the same finish times") {
  // Max-min fairness, checked independently of the solver: every flow has a
  // bottleneck link that is saturated and on which no flow gets more than it.
  std::mt19937 rng(20241022);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t links = 3 + rng() % 40, flows = 1 + rng() % 80;
    std::vector<Gbps> cap;
    for (std::size_t l = 0; l < links; ++l) cap.push_back(Gbps{std::array{10.0, 25.0, 40.0, 100.0, 400.0}[rng() % 5]});
    std::vector<std::uint64_t> bytes;
    std::vector<std::uint32_t> begin{0};
    std::vector<LinkId> path;
    for (std::size_t f = 0; f < flows; ++f) {
      bytes.push_back((1 + rng() % 8) * 1'000'000);
      const std::size_t hops = 1 + rng() % 4;
      for (std::size_t h = 0; h < hops; ++h) {
        const auto l = static_cast<LinkId>(rng() % links);
        if (std::find(path.begin() + begin.back(), path.end(), l) == path.end()) path.push_back(l);
      }
      begin.push_back(static_cast<std::uint32_t>(path.size()));
    }
    const FlowNetwork net{cap, bytes, begin, path};
    FlowModel scan(std::numeric_limits<std::size_t>::max()), heap(0);
    FlowTimes a, b;
    scan.run(net, a);
    heap.run(net, b);
    CAPTURE(trial);
    REQUIRE(a.events == b.events);
    std::vector<double> used(links, 0), top(links, 0);
    for (std::size_t f = 0; f < flows; ++f) {
      CHECK(a.finish[f].value == doctest::Approx(b.finish[f].value).epsilon(1e-12));
      CHECK(a.start_rate[f].value == doctest::Approx(b.start_rate[f].value).epsilon(1e-12));
      for (std::uint32_t i = begin[f]; i < begin[f + 1]; ++i) {
        used[path[i]] += a.start_rate[f].value;
        top[path[i]] = std::max(top[path[i]], a.start_rate[f].value);
      }
    }
    for (std::size_t l = 0; l < links; ++l) CHECK(used[l] <= cap[l].value * (1 + 1e-12));
    for (std::size_t f = 0; f < flows; ++f) {
      bool bottlenecked = false;
      for (std::uint32_t i = begin[f]; i < begin[f + 1]; ++i) {
        const LinkId l = path[i];
        bottlenecked |= used[l] >= cap[l].value * (1 - 1e-12) && a.start_rate[f].value >= top[l] * (1 - 1e-12);
      }
      CHECK(bottlenecked);
    }
  }
}
}  // namespace flow_model_test
