#include "workloads/generators/ring.h"

#include <algorithm>

namespace ecmpsim::workloads {

bool same_nic_falls_short(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics, bool pxn) {
  if (map.near.empty()) return same_nic_falls_short(gpus, nics, pxn);
  const std::vector<std::uint32_t> order = search_nic_order(map, gpus, nics);
  if (pxn || gpus < 2 || order.size() < 2) return false;
  return std::any_of(order.begin(), order.end(), [&](std::uint32_t n) { return gpus_near(map, n, gpus, nics) < 2; });
}

RingNics ring_rotate_nics(const GpuNicMap& map, std::uint32_t gpus, std::uint32_t nics,
                          std::span<const std::uint32_t> order, std::uint32_t node, std::uint32_t channel,
                          std::uint32_t search_channels, bool swap) {
  std::uint32_t ch = channel % search_channels;
  if (swap && node % 2 == 1) ch ^= 1;
  const std::uint32_t entry = order[ch % order.size()];
  std::uint32_t first = ch % gpus;
  for (std::uint32_t i = 0; i < gpus; ++i) {
    const std::uint32_t g = (ch + i) % gpus;
    const auto near = nics_near_gpu(map, g, gpus, nics);
    if (std::find(near.begin(), near.end(), entry) != near.end()) {
      first = g;
      break;
    }
  }
  return {entry, gpu_nic(map, (first + 1) % gpus, gpus, nics, ch)};
}

namespace {

// Every channel's hops between nodes, `per_hop` bytes each (over the
// channel's QPs); `wrap` false leaves out the last node's hop back to node 0.
void ring_hops(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_hop, bool wrap, FlowMaker& maker,
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
  const bool rotate = ring_rotates(graph, rules);
  const auto nics_of = [&](std::uint32_t node, std::uint32_t c) {
    if (rotate)
      return ring_rotate_nics(layout.gpu_nics, layout.gpus_per_node, layout.nics_per_node, order, node, c, search, swap);
    const RingNics pos = ring_nics(node, c, search, k, graph, swap);
    return RingNics{order[pos.recv], order[pos.send]};
  };
  out.reserve(out.size() + std::size_t{n} * p.channels * p.qps_per_connection);
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    const std::uint64_t channel_bytes = share(per_hop, p.channels, c);
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q) {
      const std::uint64_t bytes = share(channel_bytes, p.qps_per_connection, q);
      for (std::uint32_t node = 0; node < (wrap ? n : n - 1); ++node) {
        const std::uint32_t next = (node + 1) % n;
        const std::uint32_t src = layout.nic(node, nics_of(node, c).send);
        const std::uint32_t dst = layout.nic(next, nics_of(next, c).recv);
        maker.add(out, src, dst, c, bytes);
      }
    }
  }
}

}  // namespace

void ring_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t per_rank_bytes, FlowMaker& maker,
                Flows& out) {
  ring_hops(p, layout, per_rank_bytes, true, maker, out);
}

void chain_flows(const CollectiveParams& p, const JobLayout& layout, std::uint64_t bytes, bool into_root,
                 FlowMaker& maker, Flows& out) {
  ring_hops(p, layout, bytes, into_root, maker, out);
}

}  // namespace ecmpsim::workloads
