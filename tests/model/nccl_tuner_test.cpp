// NCCL's tuner by release and GPU: every architecture row and every rule
// that changed between releases (sim/model/nccl_tuning.h), each worked by
// hand at two sizes from the constants of tuning.cc at the tag its row cites
// (time = latency + bytes / (1000 x algBw), us), with the neighbouring
// release or GPU as the negative control.
#include <doctest/doctest.h>

#include "sim/model/nccl_cost.h"

namespace nccl_tuner_test {

using namespace ecmpsim;
using workloads::NcclAlgo;
using workloads::NcclProto;
using workloads::NcclVersion;

namespace {

NcclHardware gpu(std::uint16_t sm) {
  NcclHardware hw;
  hw.sm = sm;
  return hw;
}

// A communicator of `nodes` x `ppn` GPUs on `version`, `search` search
// channels (2 x search run), the ring network `net` GB/s, NVLink cap `intra`.
NcclComm comm(NcclColl coll, std::uint32_t nodes, std::uint32_t ppn, std::uint32_t search, double net, double intra,
              NcclVersion v, std::optional<NcclHardware> hw) {
  NcclComm c{coll, nodes * ppn, nodes, search, 2 * search, net, NcclHost{}};
  c.host.intra_busbw = intra;
  c.version = v;
  c.hw = hw;
  return c;
}

double at(double lat_us, double algbw, double bytes) { return lat_us + bytes / (1000 * algbw); }

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("architecture rows: one node of 8 GPUs, Ring LL at 8 B and Ring Simple at 1 GiB") {
  // Ring LL: min(llMaxBws[arch][N1], busBw x 0.5) x nRanks / nsteps (8 / 14);
  // latency 6.6 + 14 x 0.6 = 15.0. Ring Simple: busBw x 8 / 14, latency 8.4
  // + 14 x 3.4 = 56.0 (no plateau on one node). busBw is the NVLink cap:
  // links x topo.h's bandwidth per link.
  struct Row {
    std::uint16_t sm;
    NcclVersion v;
    double nvlink;  // links x SMxx_NVLINK_BW
    double llmax;   // llMaxBws[arch][0]
  };
  for (const Row r : {Row{70, {2, 23, 4}, 6 * 20.0, 39.0},      // Volta
                      Row{80, {2, 23, 4}, 12 * 20.0, 87.7},     // Ampere
                      Row{90, {2, 23, 4}, 18 * 20.6, 141.0},    // Hopper
                      Row{100, {2, 24, 3}, 18 * 20.6, 141.0},   // sm100 before 2.25: Hopper's row and SM90's links
                      Row{100, {2, 25, 1}, 18 * 40.0, 282.0}}) {  // Blackwell: 2 x Hopper's
    const NcclComm c = comm(NcclColl::AllReduce, 1, 8, 12, kInf, r.nvlink, r.v, gpu(r.sm));
    const double ll = std::min(r.llmax, r.nvlink * 0.5) * 8 / 14;
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 8) == doctest::Approx(at(15.0, ll, 8)));
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::Simple, 1 << 30) ==
          doctest::Approx(at(56.0, r.nvlink * 8 / 14, 1 << 30)));
  }
  // Worked values: Hopper LL min(141, 185.4) x 8/14 = 80.571; Ampere min(87.7, 120) x 8/14 = 50.114.
  CHECK(nccl_algbw(comm(NcclColl::AllReduce, 1, 8, 12, kInf, 370.8, {2, 23, 4}, gpu(90)), NcclAlgo::Ring,
                   NcclProto::LL) == doctest::Approx(80.5714).epsilon(1e-5));
  CHECK(nccl_algbw(comm(NcclColl::AllReduce, 1, 8, 12, kInf, 240, {2, 23, 4}, gpu(80)), NcclAlgo::Ring, NcclProto::LL) ==
        doctest::Approx(50.1143).epsilon(1e-5));
}

TEST_CASE("2.18.1: Tree Simple hwLat 28, Hopper's tree cap 33 beyond 2 nodes, NVLS ratio .75; 2.18.3 the control") {
  // 4 nodes x 8 Hopper GPUs, tree network 392, NVLink cap 370.8, 8 search
  // channels. Tree Simple latency 0 + 2 x (7 x intra + log2(4) x inter):
  // 2.18.1 2 x (7 x 28 + 2 x 28) = 504; 2.18.3 2 x (7 x 4 + 2 x 14) = 112.
  // busBw min(min(392, 370.8) x .92 = 341.136, 8 x cap) x .5: 2.18.1 8 x 33 =
  // 264 -> 132; 2.18.3 8 x 36 = 288 -> 144.
  NcclHardware hw = gpu(90);
  hw.tree_net = 392;
  const auto tree = [&](NcclVersion v) { return comm(NcclColl::AllReduce, 4, 8, 8, 384, 370.8, v, hw); };
  CHECK(nccl_latency(tree({2, 18, 1}), NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(504));
  CHECK(nccl_latency(tree({2, 18, 3}), NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(112));
  CHECK(nccl_algbw(tree({2, 18, 1}), NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(132));
  CHECK(nccl_algbw(tree({2, 18, 3}), NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(144));
  // One node, NVLS graph 8 x 40 = 320: latency baseLat 23; algBw 320 x .75 =
  // 240 (2.18.1), 320 x 5/6 = 266.667 (2.18.3), at 1 MiB and 1 GiB.
  hw.nvls = true;
  hw.nvls_channels = 8;
  hw.nvls_bw_intra = 40;
  const auto one = [&](NcclVersion v) { return comm(NcclColl::AllReduce, 1, 8, 12, kInf, 370.8, v, hw); };
  CHECK(nccl_time_us(one({2, 18, 1}), NcclAlgo::NVLS, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(23, 240, 1 << 20)));
  CHECK(nccl_time_us(one({2, 18, 1}), NcclAlgo::NVLS, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(23, 240, 1 << 30)));
  CHECK(nccl_time_us(one({2, 18, 3}), NcclAlgo::NVLS, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(23, 320 * 5.0 / 6, 1 << 30)));
}

TEST_CASE("Ring LL x 0.5 from 2.21, x 1/4 across nodes before; LL128 x 0.7 with one GPU per node before 2.23") {
  // 2 nodes x 1 GPU, ring network 50. LL: 2.21 min(39, 25) = 25, 2.20
  // min(39, 12.5) = 12.5 (x 2/2). LL128 (2 x 36.7 = 73.4 per-channel cap):
  // 2.23 min(50 x 0.92 = 46, 73.4) = 46; 2.22 min(50 x 0.7 = 35, 73.4) = 35.
  const auto c = [](NcclVersion v) { return comm(NcclColl::AllReduce, 2, 1, 2, 50, 370.8, v, std::nullopt); };
  CHECK(nccl_algbw(c({2, 21, 5}), NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(25));
  CHECK(nccl_algbw(c({2, 20, 3}), NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(12.5));
  CHECK(nccl_algbw(c({2, 23, 4}), NcclAlgo::Ring, NcclProto::LL128) == doctest::Approx(46));
  CHECK(nccl_algbw(c({2, 22, 3}), NcclAlgo::Ring, NcclProto::LL128) == doctest::Approx(35));
  // Latency with one GPU per node: 2.23 takes the Tree NET row and 2 (N - 1)
  // network steps: LL128 14 + 2 x 8.5 = 31; 2.22 the Ring row and 2 N = 4 of
  // its 2 steps: 14 + (2 - 4) x max(1.9, 1.0) + 4 x 4.0 = 26.2.
  CHECK(nccl_time_us(c({2, 23, 4}), NcclAlgo::Ring, NcclProto::LL128, 4096) == doctest::Approx(at(31, 46, 4096)));
  CHECK(nccl_time_us(c({2, 22, 3}), NcclAlgo::Ring, NcclProto::LL128, 1 << 20) == doctest::Approx(at(26.2, 35, 1 << 20)));
}

TEST_CASE("AllReduce's network steps: 2 nNodes up to 2.22, 2 (nNodes - 1) from 2.23") {
  // 2 nodes x 8 GPUs, Ring Simple: nsteps 30; 2.23: 8.4 + 28 x max(3.4, 3.0)
  // + 2 x 14 = 131.6; 2.22: 8.4 + 26 x 3.4 + 4 x 14 = 152.8. algBw 384 x 16/30
  // = 204.8 (the plateau x 1.4 from 64 B per channel and rank: 1 MiB / (16 x
  // 16) = 4096).
  const auto c = [](NcclVersion v) { return comm(NcclColl::AllReduce, 2, 8, 8, 384, 400, v, std::nullopt); };
  CHECK(nccl_latency(c({2, 23, 4}), NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(131.6));
  CHECK(nccl_latency(c({2, 22, 3}), NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(152.8));
  CHECK(nccl_time_us(c({2, 22, 3}), NcclAlgo::Ring, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(152.8 * 1.4, 204.8, 1 << 20)));
  CHECK(nccl_time_us(c({2, 23, 4}), NcclAlgo::Ring, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(131.6 * 1.4, 204.8, 1 << 30)));
}

TEST_CASE("PAT: all-gather with one GPU per node, x 0.85 in 2.23, x 0.75 from 2.24, none before") {
  // 4 nodes x 1 GPU, ring network 50: busBw 50 x 0.85 = 42.5 (no busBw ->
  // algBw ratio off the ring for all-gather); latency 8 + log2(4) x 14 / 3.5
  // + 4 x 2.8 = 27.2 (the Tree NET row with one GPU per node).
  const auto c = [](NcclVersion v) { return comm(NcclColl::AllGather, 4, 1, 2, 50, 370.8, v, gpu(90)); };
  CHECK(nccl_available(c({2, 23, 4}), NcclAlgo::PAT, NcclProto::Simple));
  CHECK(nccl_time_us(c({2, 23, 4}), NcclAlgo::PAT, NcclProto::Simple, 1024) == doctest::Approx(at(27.2, 42.5, 1024)));
  CHECK(nccl_time_us(c({2, 24, 3}), NcclAlgo::PAT, NcclProto::Simple, 1 << 24) ==
        doctest::Approx(at(27.2, 37.5, 1 << 24)));
  // Negative controls: before 2.23, with 8 GPUs per node, without a GPU profile.
  CHECK_FALSE(nccl_available(c({2, 22, 3}), NcclAlgo::PAT, NcclProto::Simple));
  CHECK_FALSE(nccl_available(comm(NcclColl::AllGather, 4, 8, 2, 50, 370.8, {2, 24, 3}, gpu(90)), NcclAlgo::PAT,
                             NcclProto::Simple));
  CHECK_FALSE(nccl_available(comm(NcclColl::AllGather, 4, 1, 2, 50, 370.8, {2, 24, 3}, std::nullopt), NcclAlgo::PAT,
                             NcclProto::Simple));
}

TEST_CASE("NVLS on one node: min(nCh x bwIntra, bwInter) x 5/6 to 2.27, NVLS efficiency from 2.28") {
  // The NVLS graph: 8 channels at 40 GB/s. 2.23: busBw 320, algBw 320 x 5/6 =
  // 266.667; latency hwLat[NVLINK][NVLS] 25. 2.28: intra 320 x 0.85 x 7/8 x 2
  // = 476, inter (one node: the graph's bwInter = bwIntra) 320: 320 x 8/14 =
  // 182.857.
  NcclHardware hw = gpu(90);
  hw.nvls = true;
  hw.nvls_channels = 8;
  hw.nvls_bw_intra = 40;
  const auto c = [&](NcclVersion v) { return comm(NcclColl::AllReduce, 1, 8, 12, kInf, 370.8, v, hw); };
  CHECK(nccl_time_us(c({2, 23, 4}), NcclAlgo::NVLS, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(25, 320 * 5.0 / 6, 1 << 20)));
  CHECK(nccl_time_us(c({2, 28, 9}), NcclAlgo::NVLS, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(25, 320 * 8.0 / 14, 1 << 30)));
  // Simple only; not on Ampere (no multicast NVSwitch: hw.nvls false); not across nodes without SHARP.
  CHECK_FALSE(nccl_available(c({2, 23, 4}), NcclAlgo::NVLS, NcclProto::LL));
  CHECK_FALSE(nccl_available(comm(NcclColl::AllReduce, 2, 8, 8, 384, 370.8, {2, 23, 4}, hw), NcclAlgo::NVLS,
                             NcclProto::Simple));
  CHECK_FALSE(nccl_available(comm(NcclColl::AllReduce, 1, 8, 12, kInf, 240, {2, 23, 4}, gpu(80)), NcclAlgo::NVLS,
                             NcclProto::Simple));
}

TEST_CASE("NVLSTree across nodes: the tree's network, halved beyond 2 nodes to 2.27, x 2 at 2 nodes from 2.28") {
  // NVLS graph 8 x 40 (intra 320); the tree traffic's NICs give 392 GB/s.
  // 2.23, 2 nodes: min(320, 392) x 5/6 = 266.667; latency 0 + 25 + 2 x 1 x 14 = 53.
  // 2.23, 4 nodes: min(320, 392 / 2) x 5/6 = 163.333; latency 25 + 2 x 2 x 14 = 81.
  // 2.28.3, 2 nodes: min(476, 2 x 392, 8 x 57.7 = 461.6) x 16/30 = 246.187;
  // latency 53. 2.28.9: NET NVLSTree 20.9: 25 + 2 x 20.9 = 66.8.
  NcclHardware hw = gpu(90);
  hw.nvls = true;
  hw.nvls_channels = 8;
  hw.nvls_bw_intra = 40;
  hw.tree_net = 392;
  const auto c = [&](std::uint32_t nodes, NcclVersion v) {
    return comm(NcclColl::AllReduce, nodes, 8, 8, 384, 370.8, v, hw);
  };
  CHECK(nccl_time_us(c(2, {2, 23, 4}), NcclAlgo::NVLSTree, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(53, 320 * 5.0 / 6, 1 << 20)));
  CHECK(nccl_time_us(c(4, {2, 23, 4}), NcclAlgo::NVLSTree, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(81, 196 * 5.0 / 6, 1 << 30)));
  CHECK(nccl_time_us(c(2, {2, 28, 3}), NcclAlgo::NVLSTree, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(53, 461.6 * 16 / 30, 1 << 30)));
  CHECK(nccl_latency(c(2, {2, 28, 9}), NcclAlgo::NVLSTree, NcclProto::Simple) == doctest::Approx(66.8));
  CHECK_FALSE(nccl_available(c(2, {2, 23, 4}), NcclAlgo::NVLSTree, NcclProto::LL128));
}

TEST_CASE("CollNet with SHARP: twice the NICs' rate, capped by NVLink") {
  // 2 nodes x 8 GPUs, 8 heads, SHARP 392: busBw min(784, 370.8) = 370.8.
  // Chain: x 0.5 = 185.4; latency 2 x 7 x 2.8 + 30 = 69.2. Direct: GPU/NIC 1,
  // x 0.85 on Hopper: 315.18 x 0.5 = 157.59; latency 2 x (3.7 + 7 x 0.4) + 31 = 44.
  NcclHardware hw = gpu(90);
  hw.collnet = true;
  hw.heads = 8;
  hw.sharp_net = 392;
  const NcclComm c = comm(NcclColl::AllReduce, 2, 8, 8, 384, 370.8, {2, 23, 4}, hw);
  CHECK(nccl_time_us(c, NcclAlgo::CollNetChain, NcclProto::Simple, 1 << 20) == doctest::Approx(at(69.2, 185.4, 1 << 20)));
  CHECK(nccl_time_us(c, NcclAlgo::CollNetDirect, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(44, 370.8 * .85 * .5, 1 << 30)));
  // Negative control: without SHARP (collnet off) neither runs.
  NcclComm off = c;
  off.hw->collnet = false;
  CHECK_FALSE(nccl_available(off, NcclAlgo::CollNetChain, NcclProto::Simple));
  CHECK_FALSE(nccl_available(off, NcclAlgo::CollNetDirect, NcclProto::Simple));
}

TEST_CASE("LL128's default by release and GPU") {
  const auto on = [](std::uint16_t sm, NcclVersion v, NcclAlgo a = NcclAlgo::Ring) {
    return nccl_available(comm(NcclColl::AllReduce, 2, 8, 8, 384, 370.8, v, gpu(sm)), a, NcclProto::LL128);
  };
  CHECK(on(90, {2, 23, 4}));
  CHECK_FALSE(on(86, {2, 23, 4}));  // sm86: not in 2.23's list
  CHECK_FALSE(on(100, {2, 24, 3}));  // Blackwell from 2.25
  CHECK(on(100, {2, 25, 1}));
  CHECK_FALSE(on(103, {2, 26, 2}));  // B300's sm103: only 100 and 120 until 2.26
  CHECK(on(103, {2, 27, 3}));        // any sm >= 70 from 2.27
  // A ring leaving by PXN turns it off below Hopper (typeInter PXN > PXB), not the tree.
  NcclHardware a100 = gpu(80);
  a100.ring_pxn = true;
  const NcclComm c = comm(NcclColl::AllReduce, 2, 8, 16, 192, 240, {2, 25, 1}, a100);
  CHECK_FALSE(nccl_available(c, NcclAlgo::Ring, NcclProto::LL128));
  CHECK(nccl_available(c, NcclAlgo::Tree, NcclProto::LL128));
}

TEST_CASE("broadcast and reduce: Ring only, nsteps = nRanks, algBw = busBw") {
  // 2 nodes x 8 GPUs, ring network 384, NVLink 370.8 (2.23, not the same
  // channels): Simple latency 8.4 + 16 x hwLat[NET][Tree][Simple] 14 = 232.4,
  // algBw 370.8 x 16 / 16; LL latency 6.6 + 16 x 2.7 = 49.8, algBw min(39, 185.4) = 39.
  for (const NcclColl coll : {NcclColl::Broadcast, NcclColl::Reduce}) {
    const NcclComm c = comm(coll, 2, 8, 8, 384, 370.8, {2, 23, 4}, std::nullopt);
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::Simple, 1 << 30) == doctest::Approx(at(232.4, 370.8, 1 << 30)));
    CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::LL, 1024) == doctest::Approx(at(49.8, 39, 1024)));
    CHECK_FALSE(nccl_available(c, NcclAlgo::Tree, NcclProto::Simple));
  }
  // With the same channels on every NIC (sameChannels): one step's latency.
  NcclHardware same = gpu(90);
  same.same_channels = true;
  CHECK(nccl_latency(comm(NcclColl::Broadcast, 2, 8, 8, 384, 370.8, {2, 23, 4}, same), NcclAlgo::Ring,
                     NcclProto::Simple) == doctest::Approx(8.4 + 14.0));
}

TEST_CASE("send/recv and all-to-all: one network step, then the routed algbw") {
  // Outside NCCL's tuner: baseLat 8.4 + hwLat[NET][Ring][Simple] 14 = 22.4 us
  // across nodes (8.4 + 3.4 on one node); algBw = min(busBw, NVLink) / factor:
  // send/recv 1, all-to-all (16 - 1) / 16.
  const NcclComm sr = comm(NcclColl::SendRecv, 2, 8, 8, 48, 370.8, {2, 23, 4}, std::nullopt);
  CHECK(nccl_choose(sr, 1 << 20)->time_us == doctest::Approx(at(22.4, 48, 1 << 20)));
  CHECK(nccl_choose(sr, 8)->time_us == doctest::Approx(at(22.4, 48, 8)));
  const NcclComm a2a = comm(NcclColl::AllToAll, 2, 8, 8, 45, 370.8, {2, 23, 4}, std::nullopt);
  CHECK(nccl_choose(a2a, 1 << 30)->time_us == doctest::Approx(at(22.4, 45 * 16.0 / 15, 1 << 30)));
  const NcclComm one = comm(NcclColl::SendRecv, 1, 8, 8, kInf, 370.8, {2, 23, 4}, std::nullopt);
  CHECK(nccl_choose(one, 1 << 20)->time_us == doctest::Approx(at(11.8, 370.8, 1 << 20)));
  // No algorithm to force: a forced NVLS finds nothing.
  CHECK_FALSE(nccl_choose(sr, 8, NcclAlgo::NVLS));
}

TEST_CASE("the ring's plateau: x 1.9 below sm80, x 1.4 from it") {
  // 2 nodes x 8 V100: Ring Simple latency 131.6 (2.23) x 1.9 at 1 GiB; 8 B stays 131.6.
  const NcclComm v100 = comm(NcclColl::AllReduce, 2, 8, 8, 96, 120, {2, 23, 4}, gpu(70));
  CHECK(nccl_time_us(v100, NcclAlgo::Ring, NcclProto::Simple, 1 << 30) ==
        doctest::Approx(at(131.6 * 1.9, 96.0 * 16 / 30, 1 << 30)));
  CHECK(nccl_time_us(v100, NcclAlgo::Ring, NcclProto::Simple, 8) == doctest::Approx(at(131.6, 96.0 * 16 / 30, 8)));
}

TEST_CASE("2.29's tree correction of NVLSTree on Blackwell") {
  // 1 MiB: log2(2^20 / 64) = 14, Simple factor 0.5. Blackwell NVLS graph 8 x
  // 80, 2 nodes, tree network 784: 2.29.7 min(640 x 0.74 x 7/8 x 2 = 828.8,
  // 1568, 8 x 96 = 768) x 16/30 = 409.6, x 0.5 at 1 MiB; 2.28.9 uncorrected.
  NcclHardware hw = gpu(100);
  hw.nvls = true;
  hw.nvls_channels = 8;
  hw.nvls_bw_intra = 80;
  hw.tree_net = 784;
  const auto c = [&](NcclVersion v) { return comm(NcclColl::AllReduce, 2, 8, 8, 784, 721.8, v, hw); };
  const double lat = nccl_latency(c({2, 29, 7}), NcclAlgo::NVLSTree, NcclProto::Simple);
  CHECK(lat == doctest::Approx(25 + 2 * 20.9));
  CHECK(nccl_time_us(c({2, 29, 7}), NcclAlgo::NVLSTree, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(lat, 409.6 * 0.5, 1 << 20)));
  CHECK(nccl_time_us(c({2, 28, 9}), NcclAlgo::NVLSTree, NcclProto::Simple, 1 << 20) ==
        doctest::Approx(at(lat, 409.6, 1 << 20)));
}

}  // namespace nccl_tuner_test
