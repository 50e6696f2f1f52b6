// ncclTopoTuneModel's bandwidths and its algorithm and protocol enables
// (src/graph/tuning.cc, 2.18.1 to 2.30.7). NCCL starts every algorithm from
// nChannels x bw of its graph; here the network part of that product is what
// the routed fabric gives the algorithm's own traffic (NcclComm::net_busbw for
// rings, NcclHardware::tree_net and sharp_net) and the intra-node part the
// host's NVLink or PCIe cap, or the NVLS graph; NCCL's refinements then apply
// as written. docs/prediction.md, "Time per message size", lists them.
#include <algorithm>
#include <limits>

#include "sim/model/nccl_cost_parts.h"

namespace ecmpsim {

namespace {

using workloads::NcclAlgo;
using workloads::NcclProto;
using workloads::NcclVersion;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool agrs(NcclColl c) noexcept { return c == NcclColl::AllGather || c == NcclColl::ReduceScatter; }

// Which algorithms each collective has in the release.
bool runs(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a) noexcept {
  switch (c.coll) {
    case NcclColl::Broadcast:
    case NcclColl::Reduce: return a == NcclAlgo::Ring;
    case NcclColl::AllGather:
    case NcclColl::ReduceScatter:
      return a == NcclAlgo::Ring || (a == NcclAlgo::NVLS && !nvls_from_graph(row.nvls)) ||
             (a == NcclAlgo::CollNetDirect && row.collnet_agrs) || (a == NcclAlgo::PAT && row.pat_factor > 0);
    case NcclColl::AllReduce: return a != NcclAlgo::PAT;
    case NcclColl::SendRecv:
    case NcclColl::AllToAll: return false;  // no tuner entry: nccl_p2p_time_us
  }
  return false;
}

// LL128's default (protoEnable 2): an architecture the release trusts it on,
// NVLink inside the node, and no PXN ring below Hopper.
bool ll128_on(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a) noexcept {
  if (!c.hw) return true;
  const std::uint16_t sm = c.hw->sm;
  const bool arch = row.ll128_any ? sm >= 70
                                  : sm == 70 || sm == 80 || sm == 90 || (row.ll128_sm100 && (sm == 100 || sm == 120));
  const bool pxn = a == NcclAlgo::Ring && c.hw->ring_pxn && sm < 90;
  return arch && c.host.intra == workloads::IntraLink::NVLink && !pxn;
}

// What the hardware offers: NVLS needs NVSwitch gen 3 on Hopper or later
// (and SHARP across nodes before NVLSTree takes over), CollNet SHARP
// (CollNetDirect an NVSwitch too), PAT one GPU per node.
bool hardware_offers(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a) noexcept {
  if (!c.hw) return a == NcclAlgo::Ring || a == NcclAlgo::Tree;
  const NcclHardware& hw = *c.hw;
  const bool nvls_graph = hw.nvls && hw.nvls_channels >= (row.nvls == NvlsModel::Efficiency ? 2u : 1u);
  switch (a) {
    case NcclAlgo::Tree:
    case NcclAlgo::Ring: return true;
    case NcclAlgo::NVLS: return nvls_graph && (c.nodes == 1 || hw.collnet);
    case NcclAlgo::NVLSTree: return nvls_graph && c.nodes > 1;
    case NcclAlgo::CollNetDirect:
      return hw.collnet && hw.nvswitch && c.nodes > 1 && (!agrs(c.coll) || comm_ppn(c) <= hw.heads);
    case NcclAlgo::CollNetChain: return hw.collnet && c.nodes > 1;
    case NcclAlgo::PAT: return hw.pat && comm_ppn(c) == 1 && hw.sm >= 60;
  }
  return false;
}

// busBw -> algBw: nRanks / nsteps for rings (and NVLS from 2.28), 5/6 for
// NVLS (2.19-2.27), 0.5 for the rest; none for AllGather and ReduceScatter
// off the ring (CollNetDirect's from 2.20, every algorithm's from 2.23).
double to_algbw(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a) noexcept {
  const bool v223 = row.from >= NcclVersion{2, 23, 0};
  if (agrs(c.coll) && a != NcclAlgo::Ring && (v223 || (a == NcclAlgo::CollNetDirect && row.collnet_agrs))) return 1;
  const double ring = static_cast<double>(c.ranks) / ring_nsteps(c);
  if (a == NcclAlgo::Ring) return ring;
  if (a == NcclAlgo::NVLS || a == NcclAlgo::NVLSTree) {
    if (row.nvls == NvlsModel::Efficiency) return ring;
    if (nvls_from_graph(row.nvls) && a == NcclAlgo::NVLSTree) return .70 * c.nodes / (2.0 * (c.nodes - 1));
    return row.nvls == NvlsModel::Graph2181 ? .75 : 5.0 / 6.0;
  }
  return .5;
}

double ring_busbw(const NcclComm& c, const NcclTuningRow& row, NcclProto p, double llmax, std::size_t arch) {
  const double bus = nccl_busbw(c);
  const std::size_t ni = node_index(c.nodes);
  if (p == NcclProto::LL) {
    if (row.ring_ll_half) return std::min(llmax, bus * .5);
    const bool quarter = c.nodes > 1 || c.coll == NcclColl::AllReduce || c.coll == NcclColl::Reduce;
    return std::min(llmax, bus * (quarter ? 1.0 / 4.0 : 1.0 / 3.0));
  }
  if (p == NcclProto::LL128)
    return std::min(bus * (row.ll128_ppn && comm_ppn(c) < 2 ? 0.7 : 0.92),
                    c.search_channels * row.ring_ll128[arch][ni]);
  return bus;
}

double tree_busbw(const NcclComm& c, const NcclTuningRow& row, NcclProto p, double llmax, std::size_t arch) {
  const std::size_t ni = node_index(c.nodes);
  // Across two nodes NCCL's tree graph runs bwIntra up to twice bwInter: the
  // tree's own routed traffic, doubled (without a GPU: the ring's, as before).
  const double net = c.hw ? c.hw->tree_net * (c.nodes <= 2 ? 2 : 1) : c.net_busbw;
  const double nch = c.search_channels;
  const double t = std::min(std::min(net, c.host.intra_busbw) * .92, nch * row.tree[arch][ni]);
  if (p == NcclProto::LL) return std::min(t / 3.8, llmax);
  if (p == NcclProto::LL128) return std::min(t * (c.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), nch * row.tree_ll128[arch][ni]);
  return t;
}

// NVLS and NVLSTree from the NVLS graph (nChannels x bwIntra) and the network
// (SHARP across nodes for NVLS, the tree's traffic for NVLSTree).
double nvls_busbw(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a, std::size_t arch) {
  const NcclHardware& hw = *c.hw;
  const double nch = hw.nvls_channels;
  const double intra = nch * hw.nvls_bw_intra;
  const bool tree = a == NcclAlgo::NVLSTree;
  const double net = c.nodes == 1 ? kInf : tree ? hw.tree_net : hw.sharp_net;
  if (row.nvls == NvlsModel::Efficiency) {
    const double ppn = comm_ppn(c);
    double in = intra * row.nvls_eff[arch] * (nch - 1) / nch * (c.coll == NcclColl::AllReduce ? 2.0 : (ppn - 1) / ppn);
    const double across = c.nodes == 1 ? intra : net * (tree && c.nodes <= 2 ? 2 : 1);
    const double cap = tree ? nch * row.nvls_tree[arch][node_index(c.nodes)] : kInf;
    return std::min({in, across, cap});
  }
  if (row.nvls == NvlsModel::AgRs227 && a == NcclAlgo::NVLS && agrs(c.coll)) {
    const double ppn = comm_ppn(c);
    return std::min(intra * (ppn - 1) / ppn, net * 0.9);
  }
  if (tree && !nvls_from_graph(row.nvls) && c.nodes > 2) return std::min(intra, net / 2);
  return std::min(intra, net);
}

// CollNet: SHARP reduces in the switches, so every node sends and receives
// its whole buffer once per NIC: twice the NICs' rate in busBw (as the
// tree's two nodes), capped inside the node.
double collnet_busbw(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a) {
  const NcclHardware& hw = *c.hw;
  const double bus = std::min(2 * hw.sharp_net, c.host.intra_busbw);
  if (a == NcclAlgo::CollNetChain) return bus;
  const double ppn = comm_ppn(c);
  if (agrs(c.coll)) {
    const double per_head = hw.sharp_net * ppn / hw.heads;  // 1:1 GPU:NIC
    if (row.from >= NcclVersion{2, 27, 0}) return std::min(c.host.intra_busbw, per_head * 0.9);
    const double w = (ppn - 1) / (8 - 1);  // NCCL's interpolation between 1 and 8 GPUs per node
    return std::min(c.host.intra_busbw, per_head) * (w * 0.85 + (1 - w) * 0.95);
  }
  double f = ppn / hw.heads;  // GPUs per NIC
  f -= (f - 1) / 2;
  return bus / f * (hw.sm >= 90 ? .85 : 1.0);
}

}  // namespace

double nccl_busbw(const NcclComm& c) noexcept { return std::min(c.net_busbw, c.host.intra_busbw); }

bool nccl_available(const NcclComm& c, NcclAlgo a, NcclProto p) noexcept {
  const NcclTuningRow& row = tuning_row(c);
  if (!runs(c, row, a) || !hardware_offers(c, row, a)) return false;
  const bool simple_only = a != NcclAlgo::Ring && a != NcclAlgo::Tree;
  if (simple_only && p != NcclProto::Simple) return false;
  return p != NcclProto::LL128 || ll128_on(c, row, a);
}

double nccl_algbw(const NcclComm& c, NcclAlgo a, NcclProto p) noexcept {
  const NcclTuningRow& row = tuning_row(c);
  const std::size_t arch = arch_index(c);
  // llMaxBws: by GPU on one node, by CPU vendor across nodes.
  const std::size_t llrow = c.nodes <= 1 ? arch : c.host.amd_cpu ? 1 : 0;
  const double llmax = row.ll_max[llrow][node_index(c.nodes)];
  double bus = 0;
  switch (a) {
    case NcclAlgo::Ring: bus = ring_busbw(c, row, p, llmax, arch); break;
    case NcclAlgo::Tree: bus = tree_busbw(c, row, p, llmax, arch); break;
    case NcclAlgo::PAT: bus = std::min(c.net_busbw, c.host.intra_busbw) * row.pat_factor; break;
    case NcclAlgo::NVLS:
    case NcclAlgo::NVLSTree: bus = c.hw ? nvls_busbw(c, row, a, arch) : 0; break;
    case NcclAlgo::CollNetDirect:
    case NcclAlgo::CollNetChain: bus = c.hw ? collnet_busbw(c, row, a) : 0; break;
  }
  return bus * to_algbw(c, row, a);
}

}  // namespace ecmpsim
