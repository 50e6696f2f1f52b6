// NCCL versions: parsing, the ring-graph rules per version range (each row
// checked against the NCCL source line it cites), and the NICs a 2-node ring
// uses under each range, worked by hand.
#include <doctest/doctest.h>

#include <vector>

#include "workloads/generators/ring.h"

namespace nccl_version_test {

using namespace ecmpsim::workloads;

TEST_CASE("NCCL versions are read as releases, packages and tags spell them") {
  CHECK(parse_nccl_version("2.22.3") == NcclVersion{2, 22, 3});
  CHECK(parse_nccl_version("2.22.3-1") == NcclVersion{2, 22, 3});
  CHECK(parse_nccl_version("v2.26.2-1") == NcclVersion{2, 26, 2});
  CHECK(parse_nccl_version("2.19") == NcclVersion{2, 19, 0});
  for (const char* bad : {"", "2", "2.", "2.22.", "2.22.3.4", "2.22.3-", "2.22.3-x", "two", "2.x", "2..3", "-1"})
    CHECK_MESSAGE(!parse_nccl_version(bad), bad);
  CHECK(nccl_version_text({2, 30, 7}) == "2.30.7");
  CHECK(NcclVersion{2, 9, 9} < NcclVersion{2, 19, 0});  // numeric, not text, order
}

TEST_CASE("each version range follows the rules read from its NCCL source") {
  // search.cc's retry value: crossNic 1 in 2.19.3 and 2.22.3, 2 from 2.23.4.
  CHECK(ring_rules({2, 18, 6}).fallback == 0);
  CHECK(ring_rules({2, 19, 3}).fallback == 1);
  CHECK(ring_rules({2, 22, 3}).fallback == 1);
  CHECK(ring_rules({2, 23, 4}).fallback == 2);
  CHECK(ring_rules({2, 30, 7}).fallback == 2);
  // connect.cc's exchange condition.
  CHECK(ring_rules({2, 19, 3}).swap == RingSwap::Never);
  CHECK(ring_rules({2, 20, 3}).swap == RingSwap::NonZeroEvenNodes);
  CHECK(ring_rules({2, 21, 5}).swap == RingSwap::NonZero);
  CHECK(ring_rules({2, 25, 1}).swap == RingSwap::NonZero);
  CHECK(ring_rules({2, 26, 2}).swap == RingSwap::Two);
  // search.cc's pairing of odd channels: none in 2.19.3 (no "nChannels & 1"
  // test), any crossNic in 2.20.3 and 2.22.3, crossNic == 2 from 2.23.4.
  CHECK(ring_rules({2, 18, 6}).pairs == RingPairs::Never);
  CHECK(ring_rules({2, 19, 3}).pairs == RingPairs::Never);
  CHECK(ring_rules({2, 20, 3}).pairs == RingPairs::NonZero);
  CHECK(ring_rules({2, 22, 3}).pairs == RingPairs::NonZero);
  CHECK(ring_rules({2, 23, 4}).pairs == RingPairs::Two);
  CHECK(ring_rules({2, 27, 5}).pairs == RingPairs::Two);
  // Older than the table: its first row.
  CHECK(&ring_rules({2, 4, 8}) == &kNcclRingRules.front());
}

// 4 nodes x 2 GPUs x 2 NICs, PXN off (the same-NIC search falls short), 4
// search channels, NCCL_CROSS_NIC 2. Node 1's channel 0 by version:
//   2.18: the retry cannot leave the entry NIC: in and out on NIC 0;
//   2.19: crossNic 1, no exchange: in on 0, out on 1;
//   2.20 and 2.21 to 2.25: crossNic 1 or 2, exchanged on odd node 1: in on 1, out on 0
//     (2.20 only because 4 nodes is even);
//   2.26 on: crossNic 2, exchanged.
TEST_CASE("a PXN-less 4-node ring's NICs on node 1 under each version, worked by hand") {
  const bool short_of_bw = same_nic_falls_short(2, 2, false);
  REQUIRE(short_of_bw);
  struct Case {
    NcclVersion v;
    RingNics node1_ch0;
  };
  for (const Case c : {Case{{2, 18, 6}, {0, 0}}, Case{{2, 19, 3}, {0, 1}}, Case{{2, 20, 3}, {1, 0}},
                       Case{{2, 22, 3}, {1, 0}}, Case{{2, 25, 1}, {1, 0}}, Case{{2, 26, 2}, {1, 0}}}) {
    const NcclRingRules& rules = ring_rules(c.v);
    const RingGraph g = ring_graph(2, CrossNicOutcome::Auto, short_of_bw, rules);
    CHECK_MESSAGE(ring_nics(1, 0, 4, 2, g, ring_swaps(g, rules, 4, 4)) == c.node1_ch0, nccl_version_text(c.v));
  }
  // 2.20 with an odd node count does not exchange; 2.21 does.
  const RingGraph g20 = ring_graph(2, CrossNicOutcome::Auto, true, ring_rules({2, 20, 3}));
  CHECK(!ring_swaps(g20, ring_rules({2, 20, 3}), 3, 4));
  CHECK(ring_swaps(g20, ring_rules({2, 21, 5}), 3, 4));
  // From 2.26 a crossNic 1 graph (NCCL_CROSS_NIC=1) is not exchanged; before, it is.
  CHECK(!ring_swaps(RingGraph::CrossNic1, ring_rules({2, 26, 2}), 4, 4));
  CHECK(ring_swaps(RingGraph::CrossNic1, ring_rules({2, 25, 1}), 4, 4));
}

TEST_CASE("an unpaired crossing ring leaves by the NIC of the GPU after its entry GPU, worked by hand") {
  // Which graphs rotate: crossNic 1 from 2.23 and before 2.20; never crossNic 0.
  CHECK(ring_rotates(RingGraph::CrossNic1, ring_rules({2, 27, 5})));
  CHECK(ring_rotates(RingGraph::CrossNic1, ring_rules({2, 19, 3})));
  CHECK(!ring_rotates(RingGraph::CrossNic1, ring_rules({2, 22, 3})));
  CHECK(!ring_rotates(RingGraph::CrossNic2, ring_rules({2, 27, 5})));
  CHECK(!ring_rotates(RingGraph::SameNic, ring_rules({2, 27, 5})));
  const std::vector<std::uint32_t> o8{0, 1, 2, 3, 4, 5, 6, 7}, o4{0, 1, 2, 3};
  // 8 GPUs x 8 NICs: channel c enters on NIC c at GPU c; the last GPU is c+1, whose NIC is c+1.
  for (std::uint32_t c = 0; c < 8; ++c)
    CHECK(ring_rotate_nics({}, 8, 8, o8, 0, c, 8, false) == RingNics{c, (c + 1) % 8});
  // Exchanged on odd nodes: node 1's channel 0 takes channel 1's NICs.
  CHECK(ring_rotate_nics({}, 8, 8, o8, 1, 0, 8, true) == RingNics{1, 2});
  CHECK(ring_rotate_nics({}, 8, 8, o8, 2, 0, 8, true) == RingNics{0, 1});
  // 8 GPUs x 4 NICs: NIC n serves GPUs 2n and 2n+1, so the ring's last GPU
  // (2n+1) leaves by the NIC it entered.
  for (std::uint32_t c = 0; c < 4; ++c) CHECK(ring_rotate_nics({}, 8, 4, o4, 0, c, 4, false) == RingNics{c, c});
  // 2 GPUs x 4 NICs (GPU 0 has NICs 0 and 1, GPU 1 NICs 2 and 3): channel 1
  // enters NIC 1 at GPU 0 (the first of its GPUs from GPU 1 on), leaves from
  // GPU 1 by its NIC for channel 1, NIC 3; channel 2 enters NIC 2 at GPU 1 and
  // leaves from GPU 0 by NIC 0.
  CHECK(ring_rotate_nics({}, 2, 4, o4, 0, 0, 4, false) == RingNics{0, 2});
  CHECK(ring_rotate_nics({}, 2, 4, o4, 0, 1, 4, false) == RingNics{1, 3});
  CHECK(ring_rotate_nics({}, 2, 4, o4, 0, 2, 4, false) == RingNics{2, 0});
  CHECK(ring_rotate_nics({}, 2, 4, o4, 0, 3, 4, false) == RingNics{3, 1});
}

TEST_CASE("the same-NIC search falls short only without PXN, between one GPU and two per NIC") {
  CHECK(same_nic_falls_short(2, 2, false));
  CHECK(same_nic_falls_short(3, 2, false));
  CHECK(!same_nic_falls_short(4, 2, false));  // a second GPU close to the entry NIC
  CHECK(!same_nic_falls_short(1, 1, false));  // one GPU: leaves where it entered
  CHECK(!same_nic_falls_short(8, 1, false));  // one NIC: nothing to cross to
  CHECK(!same_nic_falls_short(2, 2, true));   // PXN: over NVLink to the entry NIC's GPU
  CHECK(!same_nic_falls_short(8, 8, true));
}

}  // namespace nccl_version_test
