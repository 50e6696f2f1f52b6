// NCCL 2.23.4's cost model, every expected value worked by hand from the
// constants of docs/prediction.md ("Time per message size") and the
// latency illustration of the reference notes, never read off the program.
#include <doctest/doctest.h>

#include "sim/model/nccl_cost.h"

namespace nccl_cost_test {

using namespace ecmpsim;
using workloads::NcclAlgo;
using workloads::NcclProto;

namespace {

// Two nodes, one GPU (and one 400G NIC) each, 4 channels from 2 searched:
// the routed network gives nccl-tests' busbw `busbw` GB/s.
NcclComm two_node_ring(double busbw) { return {NcclColl::AllReduce, 2, 2, 2, 4, busbw}; }

}  // namespace

TEST_CASE("NCCL latencies: 2 and 16 nodes of 8 GPUs (NVLink inside, Intel host)") {
  // ring: base + (nsteps - nInter) x max(NVLink lat, overhead) + nInter x NET lat;
  // 2 nodes: nsteps 30, nInter 2.  LL 6.6 + 28 x 1.0 + 2 x 2.7 = 40.0;
  // LL128 14 + 28 x 1.9 + 2 x 4 = 75.2; Simple 8.4 + 28 x 3.4 + 2 x 14 = 131.6.
  const NcclComm two{NcclColl::AllReduce, 16, 2, 8, 16, 384};
  CHECK(nccl_latency(two, NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(40.0));
  CHECK(nccl_latency(two, NcclAlgo::Ring, NcclProto::LL128) == doctest::Approx(75.2));
  CHECK(nccl_latency(two, NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(131.6));
  // tree: base + 2 x (7 x NVLink lat + log2(2) x NET lat): LL 6.8 + 2 x (4.2 + 5) = 25.2;
  // LL128 14 + 2 x (8.75 + 8.5) = 48.5; Simple 8.4 + 2 x (28 + 14) = 92.4.
  CHECK(nccl_latency(two, NcclAlgo::Tree, NcclProto::LL) == doctest::Approx(25.2));
  CHECK(nccl_latency(two, NcclAlgo::Tree, NcclProto::LL128) == doctest::Approx(48.5));
  CHECK(nccl_latency(two, NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(92.4));
  // 16 nodes: ring Simple 8.4 + 224 x 3.4 + 30 x 14 = 1190; tree Simple 8.4 + 2 x (28 + 4 x 14) = 176.4.
  const NcclComm sixteen{NcclColl::AllReduce, 128, 16, 8, 16, 384};
  CHECK(nccl_latency(sixteen, NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(1190.0));
  CHECK(nccl_latency(sixteen, NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(176.4));
}

TEST_CASE("a two-node ring at three sizes") {
  // One GPU per node: every ring step is a network step on the Tree NET row
  // (2.23): latency LL 6.6 + 2 x 5.0 = 16.6, LL128 14 + 2 x 8.5 = 31,
  // Simple 8.4 + 2 x 14 = 36.4 (x 1.4 once nBytes / (4 x 2) >= 64).
  // Bandwidth (busbw 50, algBw = busBw x 2 / 2): LL min(39, 25) = 25,
  // LL128 min(46, 2 x 36.7) = 46, Simple 50.
  const NcclComm c = two_node_ring(50);
  SUBCASE("8 B: latency-dominated, Ring/LL") {
    const auto got = nccl_choose(c, 8);
    REQUIRE(got);
    CHECK(got->algo == NcclAlgo::Ring);
    CHECK(got->proto == NcclProto::LL);
    CHECK(got->time_us == doctest::Approx(16.6 + 8.0 / 25000));  // 16.60032 us
  }
  SUBCASE("LL -> LL128 crossover at 14.4 / (1/25000 - 1/46000) = 788571.4 B") {
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 788571) ==
          doctest::Approx(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL128, 788571)).epsilon(1e-6));
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 788571) == doctest::Approx(16.6 + 788571.0 / 25000));
    CHECK(nccl_choose(c, 700000)->proto == NcclProto::LL);
    CHECK(nccl_choose(c, 900000)->proto == NcclProto::LL128);
  }
  SUBCASE("1 GiB: bandwidth-dominated, Ring/Simple at ~busbw") {
    const auto got = nccl_choose(c, 1ULL << 30);
    REQUIRE(got);
    CHECK(got->algo == NcclAlgo::Ring);
    CHECK(got->proto == NcclProto::Simple);
    CHECK(got->time_us == doctest::Approx(36.4 * 1.4 + 1073741824.0 / 50000));  // 21525.79648 us
    // algbw = 1073741824 B / 21525.79648 us = 49.8816 GB/s (= busbw for 2 ranks).
    CHECK(1073741824.0 / (got->time_us * 1e3) == doctest::Approx(49.8816).epsilon(1e-5));
  }
}

TEST_CASE("LL vs Simple: their crossover by hand") {
  // Ring LL 16.6 + S/25000 = Ring Simple 50.96 + S/50000  =>  S = 34.36 x 50000 = 1718000 B,
  // both 85.32 us there; LL below it, Simple above.
  const NcclComm c = two_node_ring(50);
  CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 1718000) == doctest::Approx(85.32));
  CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::Simple, 1718000) == doctest::Approx(85.32));
  CHECK(nccl_choose(c, 859000, NcclAlgo::Ring, NcclProto::LL)->time_us <
        nccl_choose(c, 859000, NcclAlgo::Ring, NcclProto::Simple)->time_us);
  CHECK(nccl_choose(c, 3436000, NcclAlgo::Ring, NcclProto::LL)->time_us >
        nccl_choose(c, 3436000, NcclAlgo::Ring, NcclProto::Simple)->time_us);
}

TEST_CASE("a collision that halves the channels' rate: 2x at 1 GiB, nothing at 8 B") {
  const NcclComm fair = two_node_ring(50), collided = two_node_ring(25);
  // 1 GiB: 50.96 + 2^30/25000 = 43000.63 us against 21525.80 us: x1.99763.
  const double big = nccl_choose(collided, 1ULL << 30)->time_us / nccl_choose(fair, 1ULL << 30)->time_us;
  CHECK(big == doctest::Approx(43000.63296 / 21525.79648));
  // 8 B: Ring/LL on both, 16.6 + 8/12500 against 16.6 + 8/25000: x1.0000193.
  const double tiny = nccl_choose(collided, 8)->time_us / nccl_choose(fair, 8)->time_us;
  CHECK(tiny == doctest::Approx(1.0).epsilon(1e-4));
}

TEST_CASE("the tree's correction factor and where Tree is offered") {
  // 1 MiB: log2(2^20 / 64) = 14, Simple factor 0.5; tree Simple bw min(46, 2 x 41.4) x 0.5 = 23.
  const NcclComm c = two_node_ring(50);
  CHECK(nccl_time_us(c, NcclAlgo::Tree, NcclProto::Simple, 1 << 20) == doctest::Approx(36.4 + 1048576.0 / 11500));
  NcclComm ag = c;
  ag.coll = NcclColl::AllGather;
  CHECK_FALSE(nccl_choose(ag, 1 << 20, NcclAlgo::Tree));
  CHECK(nccl_choose(ag, 1 << 20)->algo == NcclAlgo::Ring);
  CHECK(nccl_log2i(0) == -1);
  CHECK(nccl_log2i(64) == 6);
}

TEST_CASE("negative control: another release's constants fail the hand-worked check") {
  // 2.20 scales Ring LL by 1/4 across nodes (min(39, 12.5)); with one GPU per
  // node it keeps the Ring NET row (2.7) and counts 2 nNodes = 4 network steps
  // of its 2 (NCCL's ints go negative): 6.6 + (2 - 4) x max(0.6, 1.0) + 4 x 2.7
  // = 15.4 us, + 8 / 12500.
  NcclComm c = two_node_ring(50);
  c.version = {2, 20, 3};
  CHECK_FALSE(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 8) == doctest::Approx(16.6 + 8.0 / 25000));
  CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 8) == doctest::Approx(15.4 + 8.0 / 12500));
  c.version = {2, 23, 4};
  CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 8) == doctest::Approx(16.6 + 8.0 / 25000));
}
}  // namespace nccl_cost_test
