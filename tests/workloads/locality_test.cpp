// GPU-NIC locality (issue 34 item 4), worked by hand on small nodes: the
// default map against its explicit form, and a stated map moving the NICs of
// rings, trees and p2p connections.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "workloads/generators/job.h"
#include "workloads/generators/p2p.h"
#include "workloads/generators/ring.h"
#include "workloads/generators/tree.h"
#include "tests/support/synthetic_job.h"

namespace locality_test {

using namespace ecmpsim::workloads;
namespace hashing = ecmpsim::hashing;

namespace {

// The default node written out: GPU g's NICs as p2p_nic hands them out by channel.
GpuNicMap explicit_default(std::uint32_t gpus, std::uint32_t nics) {
  GpuNicMap m;
  for (std::uint32_t g = 0; g < gpus; ++g) {
    std::vector<std::uint32_t> near;
    for (std::uint32_t c = 0; c < nics; ++c)
      if (std::find(near.begin(), near.end(), p2p_nic(g, gpus, nics, c)) == near.end())
        near.push_back(p2p_nic(g, gpus, nics, c));
    m.near.push_back(near);
  }
  return m;
}

// (source endpoint, destination endpoint, channel) of every flow of one
// collective over `nodes` nodes of K NICs each (endpoint = node * K + NIC).
std::vector<std::vector<unsigned>> flows_of(Collective c, std::uint32_t nodes, std::uint32_t gpus, std::uint32_t nics,
                                            const GpuNicMap& map, bool pxn, std::uint32_t channels = 4) {
  CollectiveParams p;
  p.collective = c;
  p.message_bytes = 1 << 20;
  p.channels = channels;
  p.pxn = pxn;
  const Flows out = ecmpsim::test_support::synthetic_flows(p, nodes, gpus, nics, map);
  std::vector<std::vector<unsigned>> rows;
  for (std::size_t f = 0; f < out.size(); ++f) rows.push_back({out.src[f], out.dst[f], out.channel[f]});
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace

TEST_CASE("the default map and its explicit form give the same NICs, search order and crossing rule") {
  for (const auto& [g, k] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {1, 1}, {2, 2}, {3, 2}, {4, 2}, {2, 4}, {6, 4}, {8, 4}, {8, 8}, {8, 1}}) {
    INFO(g << " GPUs, " << k << " NICs");
    const GpuNicMap e = explicit_default(g, k);
    for (std::uint32_t gpu = 0; gpu < g; ++gpu)
      for (std::uint32_t c = 0; c < 8; ++c) CHECK(gpu_nic(e, gpu, g, k, c) == gpu_nic({}, gpu, g, k, c));
    std::vector<std::uint32_t> identity(k);
    for (std::uint32_t i = 0; i < k; ++i) identity[i] = i;
    CHECK(search_nic_order({}, g, k) == identity);
    CHECK(search_nic_order(e, g, k) == identity);
    // The generic rule (a NIC with fewer than two close GPUs) on the explicit
    // form against the closed form 1 < G < 2K.
    for (bool pxn : {false, true}) CHECK(same_nic_falls_short(e, g, k, pxn) == same_nic_falls_short(g, k, pxn));
    for (Collective c : {Collective::RingAllReduce, Collective::TreeAllReduce, Collective::AllToAll})
      for (bool pxn : {false, true}) CHECK(flows_of(c, 2, g, k, e, pxn) == flows_of(c, 2, g, k, {}, pxn));
  }
}

TEST_CASE("a stated map: GPU 0 on NIC 3, GPU 1 on NIC 2 of four (nccl#1189's node)") {
  const GpuNicMap m{{{3}, {2}}};
  CHECK(search_nic_order(m, 2, 4) == std::vector<std::uint32_t>{3, 2});  // NICs 0 and 1 are near no GPU
  CHECK(gpus_near(m, 3, 2, 4) == 1);
  CHECK(gpus_near(m, 0, 2, 4) == 0);
  CHECK(same_nic_falls_short(m, 2, 4, false));  // each NIC has one GPU: without PXN the ring must cross
  CHECK(!same_nic_falls_short(m, 2, 4, true));
  // Ring, PXN on (same NIC in and out): channel c on NIC order[c mod 2] = 3, 2, 3, 2 at both
  // ends of both hops; 2 nodes, endpoints node * 4 + NIC.
  std::vector<std::vector<unsigned>> ring;
  for (unsigned c = 0; c < 4; ++c) {
    const unsigned nic = c % 2 == 0 ? 3 : 2;
    ring.push_back({nic, 4 + nic, c});
    ring.push_back({4 + nic, nic, c});
  }
  std::sort(ring.begin(), ring.end());
  CHECK(flows_of(Collective::RingAllReduce, 2, 2, 4, m, true) == ring);
  // Tree: channel c (P = 2 search channels) on NIC order[c mod 2], both ends, both ways.
  CHECK(flows_of(Collective::TreeAllReduce, 2, 2, 4, m, true) == ring);
  // PXN off: the ring crosses, node 0 entering on order[c] and leaving on order[c ^ 1] (crossNic 2,
  // the fallback of the default NCCL 2.30), node 1 swapping channel pairs (an odd node, crossNic 2).
  std::vector<std::vector<unsigned>> crossed;
  for (unsigned c = 0; c < 4; ++c) {
    const unsigned a = c % 2 == 0 ? 3 : 2, b = c % 2 == 0 ? 2 : 3;
    crossed.push_back({b, 4 + b, c});  // node 0 leaves by b; node 1 (swapped) enters on b
    crossed.push_back({4 + a, a, c});  // node 1 (swapped) leaves by a; node 0 enters on a
  }
  std::sort(crossed.begin(), crossed.end());
  CHECK(flows_of(Collective::RingAllReduce, 2, 2, 4, m, false) == crossed);
  // All-to-all, one channel: rank 3 (node 1, GPU 1) receives on its NIC 2. With PXN both senders
  // of node 0 hand their data to GPU 1 and leave by NIC 2; without, rank 0 (GPU 0) leaves by its
  // own NIC 3 and rank 1 by NIC 2.
  const auto pxn = flows_of(Collective::AllToAll, 2, 2, 4, m, true, 1);
  const auto own = flows_of(Collective::AllToAll, 2, 2, 4, m, false, 1);
  auto count = [](const std::vector<std::vector<unsigned>>& rows, unsigned src, unsigned dst) {
    return std::count(rows.begin(), rows.end(), std::vector<unsigned>{src, dst, 0});
  };
  CHECK(count(pxn, 2, 4 + 2) == 2);
  CHECK(count(pxn, 3, 4 + 2) == 0);
  CHECK(count(own, 2, 4 + 2) == 1);
  CHECK(count(own, 3, 4 + 2) == 1);
  // Negative control: no flow of any of them touches NICs 0 and 1.
  for (const auto& rows : {ring, crossed, pxn, own})
    for (const auto& r : rows) CHECK((r[0] % 4 >= 2 && r[1] % 4 >= 2));
}

}  // namespace locality_test
