#include "workloads/generators/ring.h"

namespace ecmpsim::workloads {

void ring_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_rank_bytes, FlowMaker& maker,
                Flows& out) {
  const std::uint32_t n = layout.nodes();
  if (n < 2) return;
  const std::uint32_t search = p.search_channels ? p.search_channels : default_search_channels(p.channels);
  const std::uint32_t k = layout.nics_per_node;
  const NcclRingRules& rules = ring_rules(p.nccl_version);
  const RingGraph graph = ring_graph(p.cross_nic, p.ring_cross_nic,
                                     same_nic_falls_short(layout.gpus_per_node, k, p.pxn), rules);
  const bool swap = ring_swaps(graph, rules, n, search);
  out.reserve(out.size() + std::size_t{n} * p.channels * p.qps_per_connection);
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    const std::uint64_t channel_bytes = share(per_rank_bytes, p.channels, c);
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q) {
      const std::uint64_t bytes = share(channel_bytes, p.qps_per_connection, q);
      for (std::uint32_t node = 0; node < n; ++node) {
        const std::uint32_t next = (node + 1) % n;
        const std::uint32_t src = layout.nic(node, ring_nics(node, c, search, k, graph, swap).send);
        const std::uint32_t dst = layout.nic(next, ring_nics(next, c, search, k, graph, swap).recv);
        maker.add(out, src, dst, c, bytes);
      }
    }
  }
}

}  // namespace ecmpsim::workloads
