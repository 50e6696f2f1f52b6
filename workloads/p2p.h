// Point-to-point traffic between GPUs: all-to-all and send/recv pairs.
#pragma once

#include <cstdint>

#include "workloads/job.h"

namespace ecmpsim::workloads {

// The NIC (0..K-1) GPU g (0..G-1) uses on p2p channel c: GPUs and NICs are
// spread evenly over the node (NIC k is close to GPUs k*G/K .. (k+1)*G/K-1);
// a GPU with several close NICs rotates over them by channel.
constexpr std::uint32_t p2p_nic(std::uint32_t gpu, std::uint32_t gpus, std::uint32_t nics,
                                std::uint32_t channel) noexcept {
  const std::uint32_t first = gpu * nics / gpus;
  const std::uint32_t count = (gpu + 1) * nics / gpus - first;
  return count == 0 ? first : first + channel % count;
}

// All-to-all: rank i sends share(S, N, j) to every rank j != i (S counts all
// ranks' data), over C channels per peer pair and their QPs.
void alltoall_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

// Send/recv: rank r sends S to rank (r + peer_offset) mod N, over C channels and their QPs.
void sendrecv_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

}  // namespace ecmpsim::workloads
