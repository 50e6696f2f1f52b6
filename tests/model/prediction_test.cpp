#include <doctest/doctest.h>

#include <vector>

#include "sim/config/config.h"
#include "sim/model/prediction.h"
#include "sim/model/simulation.h"
#include "tests/support/fabrics.h"

namespace prediction_test {

using namespace ecmpsim;

namespace {

workloads::FlowRecord flow(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, std::uint16_t job = 0) {
  workloads::FlowRecord r;
  r.src = src;
  r.dst = dst;
  r.bytes = bytes;
  r.job = job;
  return r;
}

}  // namespace

TEST_CASE("nccl-tests bus bandwidth factors") {
  CHECK(bus_factor(BusPattern::AllReduce, 8) == doctest::Approx(14.0 / 8));
  CHECK(bus_factor(BusPattern::ReduceScatter, 8) == doctest::Approx(7.0 / 8));
  CHECK(bus_factor(BusPattern::AllGather, 4) == doctest::Approx(0.75));
  CHECK(bus_factor(BusPattern::AllToAll, 2) == doctest::Approx(0.5));
  CHECK(bus_factor(BusPattern::SendRecv, 2) == 1);
  CHECK(bus_factor(BusPattern::Broadcast, 16) == 1);
  CHECK(bus_factor(BusPattern::AllReduce, 1) == 0);  // one rank moves nothing over the bus
}

TEST_CASE("ideal time: the tightest cut decides") {
  SUBCASE("2:1 oversubscribed leaf: the leaf cut, not the NICs") {
    // 2 leaves, 1 spine, 2 hosts per leaf; NICs 100 Gb/s, leaf-spine 100 Gb/s.
    const Fabric fabric = test_support::leaf_spine(2, 1, 2);
    workloads::Flows flows;
    flows.push_back(flow(0, 2, 125'000'000));  // 1 Gbit each
    flows.push_back(flow(1, 3, 125'000'000));
    flows.push_back(flow(1, 0, 125'000'000, 1));  // stays on leaf0: crosses only NICs
    // NICs: host1 sends 2 Gbit / 100 = 20 ms. Leaf0 uplink: job 0's 2 Gbit / 100 Gb/s = 20 ms.
    const CutBounds cuts(fabric);
    CHECK(cuts.ideal(flows, 0).value == doctest::Approx(0.02));
    CHECK(cuts.ideal(flows, 1).value == doctest::Approx(0.01));
    CHECK(cuts.ideal(flows).value == doctest::Approx(0.02));
  }
  SUBCASE("three tiers: a thin core makes the pod cut the bound") {
    // Pod A: hostA - leafA - spineA; pod B likewise; spineA and spineB joined by core
    // over 10 Gb/s links; everything else 100 Gb/s.
    const Fabric f = test_support::two_pods_thin_core();
    const CutBounds cuts(f);
    CHECK(cuts.levels() == 3);
    workloads::Flows flows;
    flows.push_back(flow(0, 1, 125'000'000));  // 1 Gbit: NIC 10 ms, leaf 10 ms, pod 100 ms
    CHECK(cuts.ideal(flows).value == doctest::Approx(0.1));
  }
}

TEST_CASE("prediction per job and overall") {
  // Job 0 (all-reduce of 4 ranks, S = 1 GB) ends at 2 s with ideal 1 s;
  // job 1 (all-gather of 2 ranks, S = 1 GB) ends at 0.5 s with ideal 0.5 s.
  workloads::Flows flows;
  flows.push_back(flow(0, 1, 1, 0));
  flows.push_back(flow(1, 0, 1, 0));
  flows.push_back(flow(2, 3, 1, 1));
  FlowTimes t;
  t.finish = {Seconds{2.0}, Seconds{1.5}, Seconds{0.5}};
  t.start_rate = {Gbps{1}, Gbps{1}, Gbps{1}};
  const std::vector<JobInfo> jobs{{"ar", "ring-allreduce", BusPattern::AllReduce, 4, Bytes{1'000'000'000}},
                                  {"ag", "allgather", BusPattern::AllGather, 2, Bytes{1'000'000'000}}};
  const std::vector<Seconds> ideal{Seconds{1.0}, Seconds{0.5}};
  const Prediction p = predict(flows, t, jobs, ideal, Seconds{1.0});
  REQUIRE(p.jobs.size() == 2);
  CHECK(p.jobs[0].completion.value == 2.0);
  CHECK(p.jobs[0].slowdown == doctest::Approx(2));
  CHECK(p.jobs[0].algbw.value == doctest::Approx(4));        // 8 Gbit / 2 s
  CHECK(p.jobs[0].busbw.value == doctest::Approx(4 * 1.5));  // x 2(4-1)/4
  CHECK(p.jobs[1].completion.value == 0.5);
  CHECK(p.jobs[1].slowdown == doctest::Approx(1));
  CHECK(p.jobs[1].busbw.value == doctest::Approx(16 * 0.5));  // 8 Gbit / 0.5 s x (2-1)/2
  CHECK(p.all.completion.value == 2.0);
  CHECK(p.all.slowdown == doctest::Approx(2));
  CHECK(p.all.busbw.value == doctest::Approx(6));  // the lower of the two jobs
  CHECK(p.all.job == 0);
}

// Two 2-rank ring all-reduces of S = 1 GiB on 2 leaves x 2 hosts under one
// spine, all links 100 Gb/s: job a on host0 and host2, job b on host1 and
// host3. Each job's two flows carry 2(2-1)/2 x S = S bytes, one each way
// between the leaves, so leaf0 -> spine0 -> leaf1 carries a's and b's and so
// does the way back: sharing, each flow gets 50 Gb/s and finishes at
// 8 S / 50e9 s; alone, 100 Gb/s and 8 S / 100e9 s, which is also each job's
// ideal (its NIC links and its leaf's one uplink each carry S at 100 Gb/s).
TEST_CASE("each job alone: the same paths without the other job's flows") {
  const Simulation sim(parse_config(R"(
[fabric]
leaves = 2
spines = 1
hosts_per_leaf = 2
host_speed_gbps = 100
fabric_speed_gbps = 100
[[job]]
name = "a"
collective = "ring-allreduce"
hosts = ["host0", "host2"]
message_bytes = "1G"
channels = 1
[[job]]
name = "b"
collective = "ring-allreduce"
hosts = ["host1", "host3"]
message_bytes = "1G"
channels = 1
[[scenario]]
name = "ecmp"
)",
                                    "two-jobs.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios[0]);
  const double S = 1073741824.0, alone = 8 * S / 100e9, shared = 8 * S / 50e9;
  REQUIRE(r.predicted.jobs.size() == 2);
  REQUIRE(r.predicted.alone.size() == 2);
  for (std::size_t j = 0; j < 2; ++j) {
    CAPTURE(j);
    CHECK(r.predicted.jobs[j].completion.value == doctest::Approx(shared));
    CHECK(r.predicted.jobs[j].slowdown == doctest::Approx(2));
    CHECK(r.predicted.alone[j].job == j);
    CHECK(r.predicted.alone[j].completion.value == doctest::Approx(alone));
    CHECK(r.predicted.alone[j].ideal.value == doctest::Approx(alone));
    CHECK(r.predicted.alone[j].slowdown == doctest::Approx(1));
    // algbw = S / t: 8 S bits over the alone time is 100 Gb/s.
    CHECK(r.predicted.alone[j].algbw.value == doctest::Approx(100));
  }
}

TEST_CASE("one job: no separate alone prediction (it is the shared one)") {
  const Simulation sim(parse_config("[fabric]\nleaves = 2\nspines = 1\nhosts_per_leaf = 2\n", "one.toml"));
  const ScenarioResult r = sim.run(sim.spec().scenarios[0]);
  CHECK(r.predicted.jobs.size() == 1);
  CHECK(r.predicted.alone.empty());
}
}  // namespace prediction_test
