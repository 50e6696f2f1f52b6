// NCCL's topology search (workloads/generators/nccl_search.h) on nodes worked
// by hand from search.cc's rules and topo.h's bandwidths, and on the nodes of
// two public logs whose graph lines NCCL printed.
#include <doctest/doctest.h>

#include "workloads/generators/nccl_search.h"
#include "workloads/generators/nccl_topo.h"

namespace nccl_search_test {

using namespace ecmpsim::workloads;

namespace {

// 8 GPUs with 18 NVLinks at topo.h's 2.23 bandwidth and PCIe Gen5 x16, one
// 400G NIC per GPU (net bw 400000 / 8000 = 50 GB/s).
NcclNode hgx_h100() { return {8, 8, {}, 90, 18 * 20.6, 48, 48, 50, true}; }

}  // namespace

TEST_CASE("topo.h, topo.cc and search.cc constants by release") {
  CHECK(nccl_nvlink_bw(90, {2, 19, 3}) == 20.0);  // SM90_NVLINK_BW before 2.20
  CHECK(nccl_nvlink_bw(90, {2, 20, 3}) == 20.6);
  CHECK(nccl_nvlink_bw(80, {2, 23, 4}) == 20.0);
  CHECK(nccl_nvlink_bw(86, {2, 23, 4}) == 12.0);
  CHECK(nccl_nvlink_bw(100, {2, 24, 3}) == 20.6);  // no SM100 define yet: cc >= 90
  CHECK(nccl_nvlink_bw(100, {2, 25, 1}) == 40.0);
  CHECK(nccl_nvlink_bw(100, {2, 27, 7}) == 40.1);
  // width x speed / 80: Gen4 16 x 120 / 80 = 24, Gen5 48, Gen6 96.
  CHECK(nccl_pcie_bw(3) == 12.0);
  CHECK(nccl_pcie_bw(4) == 24.0);
  CHECK(nccl_pcie_bw(5) == 48.0);
  CHECK(nccl_pcie_bw(6) == 96.0);
  CHECK(nccl_net_bw(400) == 50.0);
  CHECK(nccl_net_bw(100) == 12.5);
  CHECK(nccl_speeds(90, {2, 23, 4}, true).front() == 48.0);
  CHECK(nccl_speeds(90, {2, 18, 3}, true).size() == 16);  // no 22 before 2.19
  CHECK(nccl_speeds(90, {2, 19, 3}, true).size() == 17);
  CHECK(nccl_speeds(100, {2, 27, 3}, true).front() == 47.9);
  CHECK(nccl_speeds(100, {2, 27, 5}, true).front() == 48.0);
  CHECK(nccl_speeds(100, {2, 27, 6}, true).front() == 96.0);
  CHECK(nccl_speeds(100, {2, 30, 7}, true)[1] == 86.0);
  CHECK(nccl_speeds(80, {2, 23, 4}, false).front() == 40.0);
  CHECK(nccl_max_channels({2, 24, 3}) == 32);
  CHECK(nccl_max_channels({2, 25, 1}) == 64);
}

TEST_CASE("H100, 8 x 400G across nodes: 8 crossing channels at 48 GB/s, not 7 over PXN") {
  // At 48 GB/s a NIC (50) starts one channel. Leaving by the entry NIC needs
  // PXN (one GPU per NIC): each GPU then sends one NVLink hop per channel,
  // 8 x 48 = 384 > 370.8, so only 7 fit. NCCL_CROSS_NIC=2's retry with
  // crossNic 2 (2.23) pairs NICs: the last GPU leaves by its own NIC over
  // PCIe, 7 hops per GPU, 336 <= 370.8: 8 channels, 384 > 7 x 48.
  const NcclChannels c = nccl_channels(hgx_h100(), 2, {2, 23, 4}, {}, 400);
  CHECK(c.ring == NcclGraph{8, 48, 48, 2, false});
  // ncclTopoDupChannels: sm 90 > 80, 48 < 50 and 8 > 4 channels: no duplication.
  CHECK(c.search == 8);
  // ncclTopoPostset doubles 8 to 16; 16 is not below 16, so no second doubling.
  CHECK(c.channels == 16);
  // NVLS: 8 heads, each channel 2 x bw on its head and bw on the others: 9 x bw
  // <= 370.8 gives 40 of the inter speeds (48, 45, 42, 40); pass 2 raises bwInter
  // to 48 (< 2 x 40) over the NIC path.
  CHECK(c.nvls == NcclGraph{8, 40, 48, 0, false});
  // Negative control: NCCL_CROSS_NIC=0 forbids the retry. At 48 PXN fits 7
  // (336); at 45 it fits 8 (8 x 45 = 360 <= 370.8), more; 42, 40, 30 give less,
  // 24 (24 / 45 > .49) 15 of 16 channels (16 x 24 > 370.8), 360 again, and
  // 22 / 45 < .49 stops: 8 at 45 over PXN, doubled to 16.
  const NcclChannels same = nccl_channels(hgx_h100(), 2, {2, 23, 4}, {0, 0, 0}, 400);
  CHECK(same.ring == NcclGraph{8, 45, 45, 0, true});
  CHECK(same.channels == 16);
}

TEST_CASE("A100 with 16 x 100G (two NICs per GPU): all 16 NICs, one channel each, over PXN") {
  // maxBw = min(PCIe Gen4 24, NIC 12.5) = 12.5: the first speed is 12. A NIC
  // starts one channel (12.5 - 12 < 12); the ring from GPU g (NICs 2g, 2g+1)
  // ends at GPU g+1 and returns over NVLink to g (PXN): per GPU PCIe 2 x 12 =
  // 24 in and out, NVLink 16 x 12 + 2 x 12 = 216 <= 240 (12 x 20): 16 channels,
  // MAXCHANNELS / 2 = 32 at 2.25 leaves room, no duplication (12 < 25),
  // postset doubles to 32.
  const NcclNode a100{8, 16, {}, 80, 12 * 20.0, 24, 24, 12.5, true};
  const NcclChannels c = nccl_channels(a100, 2, {2, 25, 1}, {}, 100);
  CHECK(c.ring == NcclGraph{16, 12, 12, 0, true});
  CHECK(c.channels == 32);
  CHECK(c.reason == "32 channels: 16 search channels of 100 Gb/s NICs (16 per node) at 12 GB/s (PXN), doubled");
  // The tree across two nodes raises bwIntra while below 2 x 12: 15 fits the
  // chain (16 x 15 = 240 <= 240), 18 does not.
  CHECK(c.tree.bw_intra == 15);
  // No NVLS on Ampere.
  CHECK(c.nvls.channels == 0);
  // NCCL_MAX_NCHANNELS=16 cuts the count.
  CHECK(nccl_channels(a100, 2, {2, 25, 1}, {2, 0, 16}, 100).channels == 16);
}

TEST_CASE("DGX A100 (two GPUs and two 200G NICs per PCIe switch): same-NIC rings over the switch") {
  // The ring from GPU 2n ends at GPU 2n+1, on the same switch: PIX, no PXN.
  // 8 x 24 (maxBw min(24, 25)); at 12 two channels per NIC give 16 x 12 = 192,
  // not more than 192: the 24 GB/s graph stays. No duplication (24 < 25).
  NcclNode dgx{8, 8, {}, 80, 240, 24, 24, 25, true};
  dgx.gpu_nics.near = {{0, 1}, {0, 1}, {2, 3}, {2, 3}, {4, 5}, {4, 5}, {6, 7}, {6, 7}};
  const NcclChannels c = nccl_channels(dgx, 2, {2, 23, 4}, {}, 200);
  CHECK(c.ring == NcclGraph{8, 24, 24, 0, false});
  CHECK(c.channels == 16);
  CHECK(c.tree.bw_intra == 30);  // 28 and 30 fit 8 x bw <= 240; 48 does not
}

TEST_CASE("nccl#1189's H20 node with PXN off: the logged graph, crossNic 1, 4 channels at 24") {
  // "Pattern 4, crossNic 1, nChannels 4, bw 24.000000/24.000000, type NVL/PIX"
  // (2.22.3, NCCL_PXN_DISABLE=1, GPU 0 on NET/3's switch, GPU 1 on NET/2's).
  // Without PXN a same-NIC ring cannot end at its entry NIC (one GPU per NIC):
  // the 2.19-2.22 retry crosses with crossNic 1: 2 channels at 48, duplicated
  // (48 >= 25; 2 channels, not more than 4) to 4 at 24.
  NcclNode h20{2, 4, {}, 90, 18 * 20.6, 48, 48, 50, false};
  h20.gpu_nics.near = {{3}, {2}};
  const NcclChannels c = nccl_channels(h20, 2, {2, 22, 3}, {}, 400);
  CHECK(c.ring.cross_nic == 1);
  CHECK(c.search == 4);
  CHECK(c.search_bw == 24);
  // Negative control: with PXN the ring returns to its entry NIC: no crossing.
  h20.pxn = true;
  CHECK(nccl_channels(h20, 2, {2, 22, 3}, {}, 400).ring.cross_nic == 0);
}

TEST_CASE("the public 2.27.5 log with NCCL_CROSS_NIC=1: 16 coll channels") {
  // tests/data/nccl-logs: "16 coll channels" on 2 nodes x 8 GPUs x 8 RoCE NICs.
  // crossNic 1 from the start: channel c enters NIC c at GPU c and leaves by
  // GPU c+1's NIC over PCIe: 8 at 48, doubled to 16 (not below 16: no more).
  const NcclChannels c = nccl_channels(hgx_h100(), 2, {2, 27, 5}, {1, 0, 0}, 400);
  CHECK(c.ring == NcclGraph{8, 48, 48, 1, false});
  CHECK(c.channels == 16);
}

TEST_CASE("one node: rings of NVLink hops at the intra-node speeds, duplicated, doubled") {
  // sm90 intra speeds 60, 50, 40, ...: at 60 a GPU's 370.8 carries 6 rings
  // (6 x 60 = 360); 7 x 50 = 350 and 9 x 40 = 360 are not more; 12 x 30 = 360
  // neither, and 24 / 60 < .49 stops. 60 >= 50: duplicated to 12 at 30;
  // pass 2 at 40 would need 12 x 40 > 370.8. Postset: 24 channels.
  const NcclChannels c = nccl_channels(hgx_h100(), 1, {2, 23, 4}, {}, 400);
  CHECK(c.search == 12);
  CHECK(c.search_bw == 30);
  CHECK(c.channels == 24);
  // NVLS within a node: 8 heads, 9 x bw <= 370.8: 40 of the intra speeds.
  CHECK(c.nvls == NcclGraph{8, 40, 40, 0, false});
}

TEST_CASE("Hopper across nodes above 45 GB/s and fewer than 16 channels: doubled again") {
  // 4 NICs of 400G, each on the switch of two GPUs: 4 same-NIC channels at 48
  // (at 24 two per NIC give 8 x 24, not more). Hopper keeps 48 < 50 undoubled
  // only with more than 4 channels: here 4, so duplicated to 8 at 24, then
  // postset 16; 24 < 45: no second doubling.
  NcclNode four = hgx_h100();
  four.nics = 4;
  const NcclChannels c = nccl_channels(four, 2, {2, 23, 4}, {}, 400);
  CHECK(c.ring.channels == 4);
  CHECK(c.search == 8);
  CHECK(c.channels == 16);
  // nccl_postset_channels: 8 search channels at 48 on Hopper across nodes:
  // 16 (not below 16). 4 at 48: 8, below 16 and above 45: 16.
  CHECK(nccl_postset_channels(8, 48, 90, 2, {2, 23, 4}).channels == 16);
  CHECK(nccl_postset_channels(4, 48, 90, 2, {2, 23, 4}).channels == 16);
  CHECK(nccl_postset_channels(4, 48, 90, 2, {2, 23, 4}).hopper_doubled);
  CHECK_FALSE(nccl_postset_channels(4, 48, 90, 1, {2, 23, 4}).hopper_doubled);   // one node
  CHECK_FALSE(nccl_postset_channels(4, 48, 100, 2, {2, 24, 3}).hopper_doubled);  // sm == 90 only before 2.25
  CHECK(nccl_postset_channels(4, 48, 100, 2, {2, 25, 1}).hopper_doubled);
}

}  // namespace nccl_search_test
