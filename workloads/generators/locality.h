// Which NICs of a node each GPU is close to, and what NCCL derives from it:
// the NIC a GPU's p2p connections use, the order in which the ring and tree
// search tries NICs, and whether a ring can leave a node by the NIC it
// entered. The default is ecmpsim's rail-aligned node; [fabric] gpu_nics
// states another (docs/nccl-fidelity.md, "GPU-NIC locality").
#pragma once

#include <cstdint>
#include <vector>

namespace ecmpsim::workloads {

// Per GPU (0..G-1), the NICs (0..K-1) close to it -- its PCI switch's NICs, PIX
// or PXB in `nvidia-smi topo -m` -- in the order it takes them by channel;
// empty: the rail-aligned default, NIC k close to GPUs floor(kG/K) ..
// floor((k+1)G/K)-1.
struct GpuNicMap {
  std::vector<std::vector<std::uint32_t>> near;
  friend bool operator==(const GpuNicMap&, const GpuNicMap&) = default;
};

// The default's NIC of GPU g on p2p channel c: GPUs and NICs spread evenly
// over the node; a GPU with several close NICs rotates over them by channel.
constexpr std::uint32_t p2p_nic(std::uint32_t gpu, std::uint32_t gpus, std::uint32_t nics,
                                std::uint32_t channel) noexcept {
  const std::uint32_t first = gpu * nics / gpus;
  const std::uint32_t count = (gpu + 1) * nics / gpus - first;
  return count == 0 ? first : first + channel % count;
}

// The NIC GPU `gpu` uses on channel c (ncclTopoGetLocalNet, src/graph/topo.cc:
// the GPU's local NETs, rotated by channel).
std::uint32_t gpu_nic(const GpuNicMap& map, std::uint32_t gpu, std::uint32_t gpus, std::uint32_t nics,
                      std::uint32_t channel);

// The NICs in the order NCCL's ring and tree search starts its channels on
// them: search channel ch starts on order[ch mod order.size()]
// (ncclTopoSearchRecNet tries nets[(nChannels + i) % netCount] first, and
// ncclTopoSelectNets lists GPU 0's local NETs first, then GPU 1's new ones,
// ...). A NIC close to no GPU is left out: the search finds its channels on
// the close ones (a path to a far NIC has a worse type). The default gives
// 0..K-1.
std::vector<std::uint32_t> search_nic_order(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics);

// The NICs close to GPU g, in the order it takes them by channel: the map's
// entry, or the default's floor(gK/G) .. (at least one).
std::vector<std::uint32_t> nics_near_gpu(const GpuNicMap& map, std::uint32_t gpu, std::uint32_t gpus,
                                         std::uint32_t nics);

// How many GPUs are close to NIC n.
std::uint32_t gpus_near(const GpuNicMap& map, std::uint32_t nic, std::uint32_t gpus, std::uint32_t nics);

}  // namespace ecmpsim::workloads
