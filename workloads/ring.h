// NCCL rings across multi-NIC nodes: which NIC each channel enters and
// leaves a node by, and the flows of ring all-reduce, all-gather and
// reduce-scatter.
#pragma once

#include <cstdint>

#include "workloads/job.h"

namespace ecmpsim::workloads {

// The NICs (0..K-1) of one node on one channel: the ring's first GPU receives
// on `recv` (NCCL inter[2*ch]), its last GPU sends on `send` (inter[2*ch+1]).
struct RingNics {
  std::uint32_t recv = 0;
  std::uint32_t send = 0;
  friend constexpr bool operator==(RingNics, RingNics) = default;
};

// The model of NCCL's ring graph (src/graph/search.cc, connect.cc):
//  - search channel ch = channel mod search_channels;
//  - the search starts channel ch at NIC ch mod K (ncclTopoSearchRecNet tries
//    nets[(nChannels + i) % netCount] first);
//  - cross_nic 0: the ring leaves by the NIC it entered (same asic/port);
//  - cross_nic 1 or 2: channels pair up, 2p entering on NIC a = 2p mod K and
//    leaving on b = (2p+1) mod K, 2p+1 entering on b and leaving on a (with
//    NCCL_CROSS_NIC=2 an odd channel must reuse its partner's NICs swapped);
//  - cross_nic 2, an even number of search channels and an odd node index:
//    channels c and c^1 swap on that node (ncclTopoPostset), so node n's
//    send NIC is node n+1's receive NIC and every hop stays on one rail.
constexpr RingNics ring_nics(std::uint32_t node, std::uint32_t channel, std::uint32_t search_channels,
                             std::uint32_t nics, std::uint8_t cross_nic) noexcept {
  std::uint32_t ch = channel % search_channels;
  if (cross_nic == 2 && search_channels % 2 == 0 && node % 2 == 1) ch ^= 1;
  const std::uint32_t recv = ch % nics;
  return {recv, cross_nic == 0 ? recv : (ch ^ 1) % nics};
}

// For every channel c and each of its QPs, node n's sender sends to node
// n+1's receiver (mod nodes). `per_rank_bytes` is what each rank sends its
// ring successor over the whole collective, split evenly over channels, then
// over the QPs of a connection.
void ring_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_rank_bytes, FlowMaker& maker,
                Flows& out);

}  // namespace ecmpsim::workloads
