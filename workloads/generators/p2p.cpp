#include "workloads/generators/p2p.h"

namespace ecmpsim::workloads {
namespace {

// One peer pair's connections: C channels, each with its QPs.
void pair_flows(const CollectiveParams& p, const JobLayout& l, std::uint32_t from, std::uint32_t to,
                std::uint64_t bytes, FlowMaker& maker, Flows& out) {
  const std::uint32_t g = l.gpus_per_node, k = l.nics_per_node;
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    const std::uint64_t channel_bytes = share(bytes, p.channels, c);
    const P2pNics n = p2p_nics(l.gpu_nics, from % g, to % g, g, k, c, p.pxn, p.cross_nic);
    const std::uint32_t src = l.nic(from / g, n.send);
    const std::uint32_t dst = l.nic(to / g, n.recv);
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q)
      maker.add(out, src, dst, c, share(channel_bytes, p.qps_per_connection, q));
  }
}

}  // namespace

void alltoall_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out) {
  const std::uint32_t ranks = layout.ranks(), g = layout.gpus_per_node;
  for (std::uint32_t i = 0; i < ranks; ++i)
    for (std::uint32_t j = 0; j < ranks; ++j)
      if (i / g != j / g) pair_flows(p, layout, i, j, share(p.message_bytes, ranks, j), maker, out);
}

void sendrecv_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out) {
  const std::uint32_t ranks = layout.ranks(), g = layout.gpus_per_node;
  if (ranks == 0) return;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    const std::uint32_t peer = static_cast<std::uint32_t>((std::uint64_t{r} + p.peer_offset) % ranks);
    if (r / g != peer / g) pair_flows(p, layout, r, peer, p.message_bytes, maker, out);
  }
}

}  // namespace ecmpsim::workloads
