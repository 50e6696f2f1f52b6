// NCCL rings across multi-NIC nodes: which NIC each channel enters and
// leaves a node by, and the flows of ring all-reduce, all-gather and
// reduce-scatter.
#pragma once

#include <cstdint>
#include <span>

#include "workloads/generators/job.h"
#include "workloads/generators/nccl_version.h"

namespace ecmpsim::workloads {

// The NICs (0..K-1) of one node on one channel: the ring's first GPU receives
// on `recv` (NCCL inter[2*ch]), its last GPU sends on `send` (inter[2*ch+1]).
struct RingNics {
  std::uint32_t recv = 0;
  std::uint32_t send = 0;
  friend constexpr bool operator==(RingNics, RingNics) = default;
};

// The crossNic value of the ring graph NCCL's search ended with. NCCL_CROSS_NIC
// is a permission, not an outcome: with 2 (the default) ncclTopoCompute
// (src/graph/search.cc) sets graph->crossNic = 0, searches, and retries with
// crossing allowed only after every crossNic 0 search at that speed fell
// short; which crossNic that retry uses depends on the version
// (NcclRingRules::fallback). With 1 it searches with crossNic 1 from the start.
enum class RingGraph : std::uint8_t {
  SameNic,    // crossNic 0: a channel leaves every node by the NIC it entered
  CrossNic1,  // crossNic 1: channels pair NICs (enter a, leave b)
  CrossNic2,  // crossNic 2: channels pair NICs
};

// Whether the same-NIC search falls short. It does where a ring's last GPU
// cannot reach its entry NIC at the bandwidth a crossing ring gets. ecmpsim's
// nodes are identical and rail-aligned (NIC k close to GPUs floor(kG/K) ..
// floor((k+1)G/K)-1); the last GPU reaches the entry NIC at full bandwidth
// from the same GPU (G = 1), from a second GPU close to it (G >= 2K), or over
// NVLink through a GPU close to it: a PXN path (NCCL >= 2.12), which
// NCCL_PXN_DISABLE=1 takes away (nccl#1189: 2 GPUs, 2 NICs per node, PXN off,
// "Pattern 4, crossNic 1"). Nodes outside this model (a path back that
// crosses CPU sockets, NICs of unequal speed) make NCCL cross too: force
// ring_cross_nic "on" for them.
constexpr bool same_nic_falls_short(std::uint32_t gpus, std::uint32_t nics, bool pxn) noexcept {
  return !pxn && nics > 1 && gpus > 1 && gpus < 2 * nics;
}

// The same on a node whose GPU-NIC map is stated (locality.h): without PXN the
// search falls short when a NIC it starts channels on has fewer than two
// close GPUs (nccl#1189: each of the two NICs has one). The default map gives
// the rule above.
bool same_nic_falls_short(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics, bool pxn);

// The ring graph of NCCL_CROSS_NIC `cross_nic` under `outcome`: Auto crosses
// where the same-NIC search falls short, On where NCCL_CROSS_NIC permits it;
// a crossing search with NCCL_CROSS_NIC 2 ends with the version's fallback.
constexpr RingGraph ring_graph(std::uint8_t cross_nic, CrossNicOutcome outcome, bool falls_short,
                               const NcclRingRules& rules) noexcept {
  if (cross_nic == 0 || outcome == CrossNicOutcome::Off) return RingGraph::SameNic;
  if (cross_nic == 1) return RingGraph::CrossNic1;
  if (outcome == CrossNicOutcome::Auto && !falls_short) return RingGraph::SameNic;
  return rules.fallback == 0 ? RingGraph::SameNic : rules.fallback == 1 ? RingGraph::CrossNic1 : RingGraph::CrossNic2;
}

// Whether odd nodes exchange the NICs of channels c and c^1 (ncclTopoPostset,
// "Alternate rings to avoid crossing rails"): never for a same-NIC graph,
// only with an even number of search channels, and as the version's rule says.
constexpr bool ring_swaps(RingGraph graph, const NcclRingRules& rules, std::uint32_t nodes,
                          std::uint32_t search_channels) noexcept {
  if (graph == RingGraph::SameNic || search_channels % 2 != 0) return false;
  switch (rules.swap) {
    case RingSwap::Never: return false;
    case RingSwap::NonZeroEvenNodes: return nodes % 2 == 0;
    case RingSwap::NonZero: return true;
    case RingSwap::Two: return graph == RingGraph::CrossNic2;
  }
  return false;
}

// Whether a crossing graph's channels pair (ring_nics) or each leaves by the
// NIC of its last GPU (ring_rotate_nics): search.cc pairs odd channels with
// the one before for any crossNic in 2.20-2.22 and for crossNic 2 only from
// 2.23 (NcclRingRules::pairs); 2.19 and earlier never pair.
constexpr bool ring_rotates(RingGraph graph, const NcclRingRules& rules) noexcept {
  if (graph == RingGraph::SameNic) return false;
  switch (rules.pairs) {
    case RingPairs::Never: return true;
    case RingPairs::NonZero: return false;
    case RingPairs::Two: return graph != RingGraph::CrossNic2;
  }
  return false;
}

// An unpaired crossing ring on an NVSwitch node: search channel ch enters at
// NIC order[ch mod n] by the first GPU on its PCIe switch from GPU ch on
// (ncclTopoSearchRecNet), visits the GPUs previous-first (ncclTopoSearchNextGpuSort
// puts the previous GPU before the next on NVSwitch), so its last GPU is the
// entry GPU + 1, and leaves by that GPU's NIC for the channel (ncclTopoSelectNets
// lists a GPU's own NETs first). On rail-aligned nodes channel c leaves by NIC
// c+1: the rotation of NVIDIA/nccl 2.27.5's log with NCCL_CROSS_NIC=1
// (tests/data/nccl-logs). `swap` and an odd node exchange channels c and c^1
// first, as for paired rings. Returns NIC indices (not positions in the order).
RingNics ring_rotate_nics(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics,
                          std::span<const std::uint32_t> order, std::uint32_t node, std::uint32_t channel,
                          std::uint32_t search_channels, bool swap);

// The model of NCCL's ring graph (src/graph/search.cc, connect.cc):
//  - search channel ch = channel mod search_channels;
//  - the search starts channel ch at NIC ch mod K of its NIC order
//    (search_nic_order, locality.h: 0..K-1 on the default node; ncclTopoSearchRecNet
//    tries nets[(nChannels + i) % netCount] first);
//  - crossNic 0: the ring leaves by the NIC it entered (ncclTopoSearchCheckNet);
//  - crossNic 1 or 2: channels pair up, 2p entering on NIC a = 2p mod K and
//    leaving on b = (2p+1) mod K, 2p+1 entering on b and leaving on a (from
//    2.20 an odd channel must reuse its partner's NICs swapped);
//  - `swap` (ring_swaps) and an odd node index: channels c and c^1 exchange
//    on that node, so node n's send NIC is node n+1's receive NIC.
// The NICs returned are positions in that order (ring_flows maps them).
constexpr RingNics ring_nics(std::uint32_t node, std::uint32_t channel, std::uint32_t search_channels,
                             std::uint32_t nics, RingGraph graph, bool swap) noexcept {
  std::uint32_t ch = channel % search_channels;
  if (swap && node % 2 == 1) ch ^= 1;
  const std::uint32_t recv = ch % nics;
  return {recv, graph == RingGraph::SameNic ? recv : (ch ^ 1) % nics};
}

// For every channel c and each of its QPs, node n's sender sends to node
// n+1's receiver (mod nodes). `per_rank_bytes` is what each rank sends its
// ring successor over the whole collective, split evenly over channels, then
// over the QPs of a connection.
void ring_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_rank_bytes, FlowMaker& maker,
                Flows& out);

// NCCL's ring broadcast and reduce with root 0 (src/device/broadcast.h,
// reduce.h): the data passes once along the ring's chain, `bytes` on every
// hop, split over channels and QPs. A broadcast's chain runs from the root
// to the rank before it, so its last node sends nothing back to the root's
// node (nodes - 1 network hops); a reduce's runs from the rank after the root
// to the root, so every node sends (nodes hops). NICs as ring_flows.
void chain_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t bytes, bool into_root,
                 FlowMaker& maker, Flows& out);

}  // namespace ecmpsim::workloads
