// One job's nodes and NICs, and the parameters of its collective: what every
// collective generator takes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/base/named.h"
#include "workloads/flow.h"
#include "workloads/generators/collective.h"
#include "workloads/generators/locality.h"
#include "workloads/generators/nccl_version.h"
#include "workloads/roce.h"

namespace ecmpsim::workloads {

// The job's nodes in communicator order (node n holds ranks n*G .. n*G+G-1)
// and, per node, the fabric endpoints of its K NICs.
struct JobLayout {
  std::uint32_t gpus_per_node = 1;
  std::uint32_t nics_per_node = 1;
  std::vector<std::uint32_t> nics;  // nics[n*K + k]: endpoint of NIC k of node n
  GpuNicMap gpu_nics;               // which NICs each GPU is close to (empty: rail-aligned)

  std::uint32_t nodes() const noexcept { return static_cast<std::uint32_t>(nics.size() / nics_per_node); }
  std::uint32_t ranks() const noexcept { return nodes() * gpus_per_node; }
  std::uint32_t nic(std::uint32_t node, std::uint32_t k) const { return nics[node * nics_per_node + k]; }
};

// What a config says about the crossNic of NCCL's ring graph (ring.h,
// ring_graph): derive it from NCCL_CROSS_NIC, or force it off or on.
enum class CrossNicOutcome : std::uint8_t { Auto, Off, On };
inline constexpr std::array<Named<CrossNicOutcome>, 3> kCrossNicOutcomes{
    {{CrossNicOutcome::Auto, "auto"}, {CrossNicOutcome::Off, "off"}, {CrossNicOutcome::On, "on"}}};

struct CollectiveParams {
  Collective collective = Collective::RingAllReduce;
  std::uint64_t message_bytes = 0;  // S
  std::uint32_t channels = 1;       // C: NCCL channels (rings/trees), or p2p channels per peer
  std::uint32_t search_channels = 0;  // channels the topology search found; 0 = default_search_channels(C)
  std::uint32_t qps_per_connection = 1;
  std::uint8_t cross_nic = 2;       // NCCL_CROSS_NIC: 0, 1 or 2
  CrossNicOutcome ring_cross_nic = CrossNicOutcome::Auto;
  bool pxn = true;                  // NCCL_PXN_DISABLE=0: p2p sends via the destination GPU's rail
  NcclVersion nccl_version = kDefaultNcclVersion;  // whose ring-graph rules apply (nccl_version.h)
  std::uint32_t peer_offset = 1;    // send/recv: rank r sends to rank r + offset
};

// The P channels ncclTopoPostset (src/graph/connect.cc) starts from: it always
// doubles them (channel c+P copies channel c's ring and runs tree 1), so C = 2P.
// An odd C comes from NCCL_MAX_NCHANNELS cutting 2P short, most simply by one:
// P = (C+1)/2, as ceil(C/2) for every C.
constexpr std::uint32_t default_search_channels(std::uint32_t channels) noexcept {
  return channels / 2 + channels % 2;
}

// Appends the network flows of one collective (traffic between GPUs of the
// same node stays inside it and makes no flow).
void generate(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

}  // namespace ecmpsim::workloads
