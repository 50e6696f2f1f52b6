#include "workloads/generators/locality.h"

#include <algorithm>
#include <numeric>

namespace ecmpsim::workloads {

// The NICs close to GPU g: the map's, or the default's (p2p_nic's rotation).
std::vector<std::uint32_t> nics_near_gpu(const GpuNicMap& map, std::uint32_t gpu, std::uint32_t gpus,
                                         std::uint32_t nics) {
  if (!map.near.empty()) return map.near[gpu];
  const std::uint32_t first = gpu * nics / gpus;
  const std::uint32_t count = std::max((gpu + 1) * nics / gpus - first, 1u);
  std::vector<std::uint32_t> out(count);
  std::iota(out.begin(), out.end(), first);
  return out;
}

std::uint32_t gpu_nic(const GpuNicMap& map, std::uint32_t gpu, std::uint32_t gpus, std::uint32_t nics,
                      std::uint32_t channel) {
  if (map.near.empty()) return p2p_nic(gpu, gpus, nics, channel);
  const std::vector<std::uint32_t>& near = map.near[gpu];
  return near[channel % near.size()];
}

std::vector<std::uint32_t> search_nic_order(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t g = 0; g < gpus; ++g)
    for (const std::uint32_t n : nics_near_gpu(map, g, gpus, nics))
      if (std::find(order.begin(), order.end(), n) == order.end()) order.push_back(n);
  return order;
}

std::uint32_t gpus_near(const GpuNicMap& map, std::uint32_t nic, std::uint32_t gpus, std::uint32_t nics) {
  std::uint32_t count = 0;
  for (std::uint32_t g = 0; g < gpus; ++g) {
    const auto near = nics_near_gpu(map, g, gpus, nics);
    count += std::find(near.begin(), near.end(), nic) != near.end();
  }
  return count;
}

}  // namespace ecmpsim::workloads
