#include <doctest/doctest.h>

#include <tuple>
#include <vector>

#include "workloads/generators/ring.h"

namespace ring_test {

using namespace ecmpsim::workloads;
namespace hashing = ecmpsim::hashing;

namespace {

struct Fixture {
  JobLayout layout;
  std::vector<hashing::IpAddr> ips;
  RoceParams roce;
  QpnAllocator qpns;
  FlowMaker maker;
  Flows flows;
  // nodes x nics endpoints, node n's NIC k = endpoint n*nics + k, IP = endpoint + 1.
  Fixture(std::uint32_t nodes, std::uint32_t gpus, std::uint32_t nics)
      : layout{gpus, nics, {}, {}}, ips(nodes * nics), qpns(nodes * nics, roce),
        maker(roce, qpns, ips, 0, Collective::RingAllReduce) {
    for (std::uint32_t e = 0; e < nodes * nics; ++e) {
      layout.nics.push_back(e);
      ips[e] = e + 1;
    }
  }
};

}  // namespace

TEST_CASE("ring all-reduce: neighbours, bytes, QPs and ports") {
  Fixture fx(4, 1, 1);
  CollectiveParams p;
  p.message_bytes = 1200;  // per rank 2*(4-1)/4 * 1200 = 1800 bytes, over 2 channels x 2 QPs
  p.channels = 2;
  p.qps_per_connection = 2;
  generate(p, fx.layout, fx.maker, fx.flows);
  const Flows& flows = fx.flows;
  REQUIRE(flows.size() == 16);
  std::uint64_t total = 0;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    CHECK(flows.dst[f] == (flows.src[f] + 1) % 4);
    CHECK(flows.dport[f] == 4791);
    CHECK(flows.proto[f] == 17);
    CHECK(flows.bytes[f] == 450);
    CHECK(flows.sport[f] == linux_roce_sport(flows.lqpn[f], flows.rqpn[f]));
    total += flows.bytes[f];
  }
  CHECK(total == 4 * 1800);
  // First connection: node 0 takes QP 0x100 on its NIC, node 1 QP 0x100 on its NIC;
  // then node 1 -> 2: node 1's next QP is 0x101, node 2's first is 0x100.
  CHECK(flows.lqpn[0] == 0x100);
  CHECK(flows.rqpn[0] == 0x100);
  CHECK(flows.lqpn[1] == 0x101);
  CHECK(flows.rqpn[1] == 0x100);
  CHECK(flows.lqpn[3] == 0x101);  // node 3 -> node 0: node 0 already used 0x100
  CHECK(flows.rqpn[3] == 0x101);
  CHECK(flows.channel[15] == 1);
}

TEST_CASE("bytes that do not divide evenly go one each to the first channels") {
  Fixture fx(2, 1, 1);
  CollectiveParams p;
  p.message_bytes = 7;  // per rank 2*(2-1)/2 * 7 = 7 bytes over 3 channels: 3, 2, 2
  p.channels = 3;
  generate(p, fx.layout, fx.maker, fx.flows);
  REQUIRE(fx.flows.size() == 6);
  CHECK(fx.flows.bytes[0] == 3);
  CHECK(fx.flows.bytes[1] == 3);
  CHECK(fx.flows.bytes[2] == 2);
  CHECK(fx.flows.bytes[5] == 2);
}

// 2 nodes x 8 GPUs x 8 NICs, 8 channels: NCCL found 4 (search channels 0..3)
// and doubled them. Worked by hand from the crossNic 2 model in ring.h:
//   node 0 (even):  search ch s: recv NIC s, send NIC s^1
//     c0: recv 0 send 1 | c1: recv 1 send 0 | c2: recv 2 send 3 | c3: recv 3 send 2
//   node 1 (odd, 4 search channels is even, graph crossNic 2): channels s and s^1 swap
//     c0: recv 1 send 0 | c1: recv 0 send 1 | c2: recv 3 send 2 | c3: recv 2 send 3
// so on channel 0 node 0 sends from NIC 1 to node 1's NIC 1, node 1 from NIC 0
// to node 0's NIC 0: every hop stays on one rail. Channels 4..7 repeat 0..3.
TEST_CASE("ring NICs per channel on 2 nodes x 8 GPUs x 8 NICs with a crossNic 2 graph, worked by hand") {
  constexpr RingGraph x2 = RingGraph::CrossNic2;
  CHECK(ring_nics(0, 0, 4, 8, x2, true) == RingNics{0, 1});
  CHECK(ring_nics(0, 1, 4, 8, x2, true) == RingNics{1, 0});
  CHECK(ring_nics(0, 2, 4, 8, x2, true) == RingNics{2, 3});
  CHECK(ring_nics(0, 3, 4, 8, x2, true) == RingNics{3, 2});
  CHECK(ring_nics(1, 0, 4, 8, x2, true) == RingNics{1, 0});
  CHECK(ring_nics(1, 1, 4, 8, x2, true) == RingNics{0, 1});
  CHECK(ring_nics(1, 2, 4, 8, x2, true) == RingNics{3, 2});
  CHECK(ring_nics(1, 7, 4, 8, x2, true) == RingNics{2, 3});  // channel 7 is search channel 3
  // A crossNic 0 graph: in and out by the same NIC, no swap.
  CHECK(ring_nics(1, 2, 4, 8, RingGraph::SameNic, false) == RingNics{2, 2});
  // crossNic 1: paired, but no swap on odd nodes.
  CHECK(ring_nics(1, 0, 4, 8, RingGraph::CrossNic1, false) == RingNics{0, 1});
  // An odd number of search channels: no swap on odd nodes.
  CHECK(!ring_swaps(x2, ring_rules(kDefaultNcclVersion), 2, 3));
  CHECK(ring_nics(1, 0, 3, 8, x2, false) == RingNics{0, 1});
  // One NIC: everything on NIC 0.
  CHECK(ring_nics(1, 5, 4, 1, x2, true) == RingNics{0, 0});

  Fixture fx(2, 8, 8);  // node 0 NICs = endpoints 0..7, node 1 = 8..15
  CollectiveParams p;
  p.message_bytes = 1ULL << 30;
  p.channels = 8;
  p.ring_cross_nic = CrossNicOutcome::On;
  generate(p, fx.layout, fx.maker, fx.flows);
  REQUIRE(fx.flows.size() == 16);  // 8 channels x 2 nodes x 1 QP
  using Hop = std::tuple<std::uint16_t, std::uint32_t, std::uint32_t>;
  std::vector<Hop> hops;
  for (std::size_t f = 0; f < fx.flows.size(); ++f)
    hops.emplace_back(fx.flows.channel[f], fx.flows.src[f], fx.flows.dst[f]);
  const std::vector<Hop> expected{{0, 1, 9},  {0, 8, 0},  {1, 0, 8},  {1, 9, 1},  {2, 3, 11}, {2, 10, 2},
                                  {3, 2, 10}, {3, 11, 3}, {4, 1, 9},  {4, 8, 0},  {5, 0, 8},  {5, 9, 1},
                                  {6, 3, 11}, {6, 10, 2}, {7, 2, 10}, {7, 11, 3}};
  CHECK(hops == expected);
  // 16 ranks: each sends 2*15/16 * 2^30 = 2013265920 bytes, / 8 channels = 251658240.
  for (auto b : fx.flows.bytes) CHECK(b == 251658240);
}

TEST_CASE("with a crossNic 2 graph an odd number of nodes leaves one cross-rail hop") {
  // 3 nodes x 8 NICs, 4 channels = 2 search channels (even: odd nodes swap).
  // Channel 0: node 0 sends on NIC 1 -> node 1 (odd, swapped) receives on NIC 1;
  // node 1 sends on NIC 0 -> node 2 receives on NIC 0; node 2 (even) sends on
  // NIC 1 -> node 0 receives on NIC 0: the one hop that changes rail.
  Fixture fx(3, 8, 8);
  CollectiveParams p;
  p.message_bytes = 3 * 8 * 1000;
  p.channels = 4;
  p.ring_cross_nic = CrossNicOutcome::On;
  generate(p, fx.layout, fx.maker, fx.flows);
  REQUIRE(fx.flows.size() == 12);
  CHECK(fx.flows.src[0] == 1);
  CHECK(fx.flows.dst[0] == 9);
  CHECK(fx.flows.src[1] == 8);
  CHECK(fx.flows.dst[1] == 16);
  CHECK(fx.flows.src[2] == 17);
  CHECK(fx.flows.dst[2] == 0);
}

TEST_CASE("the ring graph's crossNic: NCCL_CROSS_NIC is a permission, the outcome is derived or forced") {
  using O = CrossNicOutcome;
  const NcclRingRules& now = ring_rules(kDefaultNcclVersion);
  // ncclTopoCompute keeps crossNic 0 when that search reaches full bandwidth,
  // which it does on identical rail-aligned nodes unless PXN is off.
  CHECK(ring_graph(2, O::Auto, false, now) == RingGraph::SameNic);
  CHECK(ring_graph(0, O::Auto, true, now) == RingGraph::SameNic);
  CHECK(ring_graph(1, O::Auto, false, now) == RingGraph::CrossNic1);
  CHECK(ring_graph(2, O::Auto, true, now) == RingGraph::CrossNic2);
  CHECK(ring_graph(2, O::On, false, now) == RingGraph::CrossNic2);
  CHECK(ring_graph(1, O::On, false, now) == RingGraph::CrossNic1);
  CHECK(ring_graph(2, O::Off, true, now) == RingGraph::SameNic);
  CHECK(ring_graph(1, O::Off, false, now) == RingGraph::SameNic);
}

TEST_CASE("by default a ring channel enters and leaves every node by NIC (c mod P) mod K") {
  // 3 nodes x 8 GPUs x 4 NICs, 6 channels: P = 3 search channels, so channel c
  // uses NIC c mod 3 everywhere (channels 3..5 repeat 0..2), nodes in ring order.
  Fixture fx(3, 8, 4);
  CollectiveParams p;
  p.message_bytes = 1 << 20;
  p.channels = 6;
  generate(p, fx.layout, fx.maker, fx.flows);
  REQUIRE(fx.flows.size() == 18);
  for (std::size_t f = 0; f < fx.flows.size(); ++f) {
    const std::uint32_t nic = fx.flows.channel[f] % 3u;
    CHECK(fx.flows.src[f] % 4 == nic);
    CHECK(fx.flows.dst[f] % 4 == nic);
    CHECK(fx.flows.dst[f] / 4 == (fx.flows.src[f] / 4 + 1) % 3);
  }
}
}  // namespace ring_test
