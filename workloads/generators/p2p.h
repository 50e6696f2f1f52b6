// Point-to-point traffic between GPUs: all-to-all and send/recv pairs.
#pragma once

#include <cstdint>

#include "workloads/generators/job.h"

namespace ecmpsim::workloads {

// The NIC index each end of a p2p connection from GPU `from` to GPU `to` (local
// indices 0..G-1) uses on channel c, as ncclTopoGetNetDev (src/graph/search.cc)
// picks it with no graph: the receiver always uses its own NIC
// (transport/net.cc recvSetup passes itself as the peer). The sender uses the
// NIC of the node-local GPU with the receiver's device index -- the receiver's
// rail -- when PXN is on (NCCL_P2P_PXN_LEVEL 2, since NCCL 2.12: the data goes
// over NVLink to that GPU, whose proxy posts it on its NIC) or when
// NCCL_CROSS_NIC is 0 (then straight over PCIe); otherwise its own NIC.
struct P2pNics {
  std::uint32_t send = 0;
  std::uint32_t recv = 0;
  friend constexpr bool operator==(P2pNics, P2pNics) = default;
};
// Each GPU's NIC as `map` says (gpu_nic, locality.h).
inline P2pNics p2p_nics(const GpuNicMap& map, std::uint32_t from, std::uint32_t to, std::uint32_t gpus,
                        std::uint32_t nics, std::uint32_t channel, bool pxn, std::uint8_t cross_nic) {
  const std::uint32_t recv = gpu_nic(map, to, gpus, nics, channel);
  return {pxn || cross_nic == 0 ? recv : gpu_nic(map, from, gpus, nics, channel), recv};
}

// All-to-all: rank i sends share(S, N, j) to every rank j != i (S counts all
// ranks' data), over C channels per peer pair and their QPs.
void alltoall_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

// Send/recv: rank r sends S to rank (r + peer_offset) mod N, over C channels and their QPs.
void sendrecv_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

}  // namespace ecmpsim::workloads
