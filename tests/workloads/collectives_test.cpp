#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "workloads/generators/job.h"
#include "workloads/generators/p2p.h"
#include "tests/support/synthetic_job.h"

namespace collectives_test {

using namespace ecmpsim::workloads;
namespace hashing = ecmpsim::hashing;

namespace {

Flows run(Collective c, std::uint32_t nodes, std::uint32_t gpus, std::uint32_t nics, std::uint64_t s,
          std::uint32_t channels = 2, std::uint32_t qps = 2, bool pxn = true) {
  CollectiveParams p;
  p.collective = c;
  p.message_bytes = s;
  p.channels = channels;
  p.qps_per_connection = qps;
  p.pxn = pxn;
  return ecmpsim::test_support::synthetic_flows(p, nodes, gpus, nics, {}, 3);
}

std::uint64_t total(const Flows& f) { return std::accumulate(f.bytes.begin(), f.bytes.end(), std::uint64_t{0}); }

}  // namespace

// nccl-tests doc/PERFORMANCE.md: busbw = algbw * factor, i.e. each of the n
// ranks moves factor * S: all-reduce 2(n-1)/n, all-gather, reduce-scatter and
// all-to-all (n-1)/n, send/recv 1. With one GPU per node every byte crosses
// the network, so the flows must add up to n * factor * S.
TEST_CASE("total bytes per collective match the bus-bandwidth factors (one GPU per node)") {
  const std::uint64_t s = 1 << 20;  // divisible by n = 4, channels and QPs
  const std::uint64_t n = 4;
  CHECK(total(run(Collective::RingAllReduce, 4, 1, 1, s)) == n * 2 * (n - 1) * s / n);
  CHECK(total(run(Collective::TreeAllReduce, 4, 1, 1, s)) == n * 2 * (n - 1) * s / n);
  CHECK(total(run(Collective::AllGather, 4, 1, 1, s)) == n * (n - 1) * s / n);
  CHECK(total(run(Collective::ReduceScatter, 4, 1, 1, s)) == n * (n - 1) * s / n);
  CHECK(total(run(Collective::AllToAll, 4, 1, 1, s)) == n * (n - 1) * s / n);
  CHECK(total(run(Collective::SendRecv, 4, 1, 1, s)) == n * s);
  // The tree's identity holds for odd n too: 2 trees x (n-1) edges x 2 ways x S/2.
  CHECK(total(run(Collective::TreeAllReduce, 5, 1, 1, 5 << 20)) == 2 * 4 * (5ULL << 20));
  // Broadcast and reduce (factor 1) pass S along the ring's chain once: from
  // the root to the rank before it, n - 1 hops (broadcast); from the rank
  // after it to the root, n hops (reduce): one hop into every rank but the
  // start of the chain. nccl-tests counts S for both.
  CHECK(total(run(Collective::Broadcast, 4, 1, 1, s)) == (n - 1) * s);
  CHECK(total(run(Collective::Reduce, 4, 1, 1, s)) == n * s);
}

TEST_CASE("broadcast and reduce with 8 GPUs per node: only the chain's node-to-node hops are flows") {
  // 3 nodes x 8 GPUs, root rank 0: a broadcast's chain 0 .. 23 crosses 0 -> 1
  // and 1 -> 2 (never 2 -> 0); a reduce's 1 .. 23, 0 crosses 0 -> 1, 1 -> 2 and
  // 2 -> 0. Each hop, per channel (2) and QP (2), carries S / 4.
  const std::uint64_t s = 1 << 20;
  const Flows b = run(Collective::Broadcast, 3, 8, 1, s);
  const Flows r = run(Collective::Reduce, 3, 8, 1, s);
  CHECK(b.size() == 2 * 2 * 2);
  CHECK(r.size() == 3 * 2 * 2);
  for (std::size_t f = 0; f < b.size(); ++f) CHECK(b.dst[f] != 0);  // nothing back into the root's node
  CHECK(std::count(r.dst.begin(), r.dst.end(), 0u) == 4);
  for (const std::uint64_t bytes : r.bytes) CHECK(bytes == s / 4);
}

TEST_CASE("traffic inside a node never enters the network (2 nodes x 8 GPUs x 8 NICs)") {
  const std::uint64_t s = 16 << 20;
  // Ring: 16 ranks, but only the 2 node-to-node hops per channel are flows:
  // 2 hops x 2(16-1)/16 * S.
  CHECK(total(run(Collective::RingAllReduce, 2, 8, 8, s)) == 2 * 2 * 15 * s / 16);
  // All-to-all: each of 16 ranks sends S/16 to the 8 ranks of the other node = 8 S
  // (of the 15 S all ranks send, 7 S stay inside the nodes).
  const Flows a2a = run(Collective::AllToAll, 2, 8, 8, s, 1, 1);
  CHECK(total(a2a) == 8 * s);
  CHECK(a2a.size() == 16 * 8);
  for (std::size_t f = 0; f < a2a.size(); ++f) CHECK(a2a.src[f] / 8 != a2a.dst[f] / 8);
  // Send/recv to rank r+1: only 7 -> 8 and 15 -> 0 cross, to GPU 0's NIC 0
  // (endpoints 8 and 0). With PXN GPU 7 hands the data over NVLink to GPU 0 of
  // its own node, which sends on its NIC 0 (endpoints 0 and 8); without, GPU 7
  // sends on its own NIC 7 (endpoints 7 and 15).
  const Flows sr = run(Collective::SendRecv, 2, 8, 8, s, 1, 1);
  REQUIRE(sr.size() == 2);
  CHECK(sr.src == std::vector<std::uint32_t>{0, 8});
  CHECK(sr.dst == std::vector<std::uint32_t>{8, 0});
  const Flows own = run(Collective::SendRecv, 2, 8, 8, s, 1, 1, false);
  CHECK(own.src == std::vector<std::uint32_t>{7, 15});
  CHECK(own.dst == std::vector<std::uint32_t>{8, 0});
  CHECK(total(sr) == 2 * s);
  CHECK(sr.job[0] == 3);
  CHECK(sr.collective[0] == static_cast<std::uint8_t>(Collective::SendRecv));
}

TEST_CASE("p2p NIC of a GPU") {
  CHECK(p2p_nic(5, 8, 8, 0) == 5);  // one NIC per GPU
  CHECK(p2p_nic(5, 8, 4, 3) == 2);  // NIC k serves GPUs 2k, 2k+1
  CHECK(p2p_nic(1, 2, 4, 0) == 2);  // GPU 1 of 2 has NICs 2 and 3, by channel
  CHECK(p2p_nic(1, 2, 4, 1) == 3);
  CHECK(p2p_nic(7, 8, 1, 5) == 0);
}

TEST_CASE("p2p NICs of a connection: the receiver's own, the sender's by PXN or its own") {
  // 8 GPUs x 4 NICs: GPU 5 (NIC 2) sends to a GPU 2 (NIC 1) of another node.
  CHECK(p2p_nics({}, 5, 2, 8, 4, 0, true, 2) == P2pNics{1, 1});   // PXN: via local GPU 2's NIC 1
  CHECK(p2p_nics({}, 5, 2, 8, 4, 0, false, 2) == P2pNics{2, 1});  // PXN off: its own NIC 2
  CHECK(p2p_nics({}, 5, 2, 8, 4, 0, false, 0) == P2pNics{1, 1});  // NCCL_CROSS_NIC=0: rail NIC over PCIe
  // 2 GPUs x 4 NICs: GPU 1 has NICs 2, 3 and GPU 0 NICs 0, 1, rotated by channel.
  CHECK(p2p_nics({}, 1, 0, 2, 4, 1, true, 2) == P2pNics{1, 1});
  CHECK(p2p_nics({}, 1, 0, 2, 4, 1, false, 2) == P2pNics{3, 1});
}

TEST_CASE("all-to-all with PXN stays on the destination's rail; without, it leaves by the sender's NIC") {
  // 2 nodes x 8 GPUs x 8 NICs: endpoint e is NIC e mod 8 of node e / 8, and
  // GPU g's NIC is g. Flows run i = 0..15 over j of the other node in order.
  const Flows pxn = run(Collective::AllToAll, 2, 8, 8, 16 << 20, 1, 1);
  const Flows own = run(Collective::AllToAll, 2, 8, 8, 16 << 20, 1, 1, false);
  REQUIRE(pxn.size() == 128);
  REQUIRE(own.size() == 128);
  std::size_t f = 0;
  for (std::uint32_t i = 0; i < 16; ++i)
    for (std::uint32_t j = 0; j < 16; ++j) {
      if (i / 8 == j / 8) continue;
      CAPTURE(i);
      CAPTURE(j);
      CHECK(pxn.src[f] == (i / 8) * 8 + j % 8);  // the destination GPU's rail, on the sender's node
      CHECK(pxn.dst[f] == j);
      CHECK(own.src[f] == i);  // the sender GPU's own NIC
      CHECK(own.dst[f] == j);
      ++f;
    }
  // Same bytes either way: PXN changes the NIC, not the traffic.
  CHECK(total(pxn) == total(own));
}

TEST_CASE("a job on one node makes no flows") {
  CHECK(run(Collective::RingAllReduce, 1, 8, 8, 1 << 20).size() == 0);
  CHECK(run(Collective::AllToAll, 1, 8, 8, 1 << 20).size() == 0);
}
}  // namespace collectives_test
