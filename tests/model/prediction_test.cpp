#include <doctest/doctest.h>

#include <vector>

#include "sim/model/prediction.h"

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
    FabricSpec spec;
    spec.leaf_spine = {2, 1, 2, 1, Gbps{100}, Gbps{100}};
    const Fabric fabric = build_fabric(spec);
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
