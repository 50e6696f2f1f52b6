#include "workloads/generators/ring.h"

#include <algorithm>

namespace ecmpsim::workloads {

bool same_nic_falls_short(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics, bool pxn) {
  if (map.near.empty()) return same_nic_falls_short(gpus, nics, pxn);
  const std::vector<std::uint32_t> order = search_nic_order(map, gpus, nics);
  if (pxn || gpus < 2 || order.size() < 2) return false;
  return std::any_of(order.begin(), order.end(), [&](std::uint32_t n) { return gpus_near(map, n, gpus, nics) < 2; });
}

void ring_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_rank_bytes, FlowMaker& maker,
                Flows& out) {
  const std::uint32_t n = layout.nodes();
  if (n < 2) return;
  const std::uint32_t search = p.search_channels ? p.search_channels : default_search_channels(p.channels);
  const std::vector<std::uint32_t> order =
      search_nic_order(layout.gpu_nics, layout.gpus_per_node, layout.nics_per_node);
  const auto k = static_cast<std::uint32_t>(order.size());
  const NcclRingRules& rules = ring_rules(p.nccl_version);
  const RingGraph graph = ring_graph(
      p.cross_nic, p.ring_cross_nic,
      same_nic_falls_short(layout.gpu_nics, layout.gpus_per_node, layout.nics_per_node, p.pxn), rules);
  const bool swap = ring_swaps(graph, rules, n, search);
  out.reserve(out.size() + std::size_t{n} * p.channels * p.qps_per_connection);
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    const std::uint64_t channel_bytes = share(per_rank_bytes, p.channels, c);
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q) {
      const std::uint64_t bytes = share(channel_bytes, p.qps_per_connection, q);
      for (std::uint32_t node = 0; node < n; ++node) {
        const std::uint32_t next = (node + 1) % n;
        const std::uint32_t src = layout.nic(node, order[ring_nics(node, c, search, k, graph, swap).send]);
        const std::uint32_t dst = layout.nic(next, order[ring_nics(next, c, search, k, graph, swap).recv]);
        maker.add(out, src, dst, c, bytes);
      }
    }
  }
}

}  // namespace ecmpsim::workloads
