// NCCL 2.23.4's ncclTopoTuneModel and ncclTopoGetAlgoTime (src/graph/tuning.cc)
// on the routed network bandwidth; the formulas are listed with their
// sources in docs/prediction.md.
#include "sim/model/nccl_cost.h"

#include <algorithm>
#include <limits>

namespace ecmpsim {

namespace {

using workloads::NcclAlgo;
using workloads::NcclProto;

// The column of the [N1, N2, N>2] tables.
std::size_t node_index(std::uint32_t nodes) noexcept { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }

// nsteps and nInterSteps of a ring (2.23+: AllReduce 2(nNodes-1), else nNodes-1).
std::uint32_t ring_steps(const NcclComm& c) noexcept {
  return c.coll == NcclColl::AllReduce ? 2 * (c.ranks - 1) : c.ranks - 1;
}
std::uint32_t ring_inter_steps(const NcclComm& c) noexcept {
  if (c.nodes <= 1) return 0;
  return c.coll == NcclColl::AllReduce ? 2 * (c.nodes - 1) : c.nodes - 1;
}

}  // namespace

double nccl_latency(const NcclComm& c, NcclAlgo a, NcclProto p, const NcclTuning& t) noexcept {
  const std::size_t ai = algo_index(a), pi = proto_index(p);
  const std::uint32_t ppn = c.nodes == 0 ? 1 : c.ranks / c.nodes;
  const double intra = (c.host.intra == workloads::IntraLink::PCI ? t.pci_lat : t.nvlink_lat)[ai][pi];
  // 2.23: with one GPU per node the network hop takes the Tree row; the
  // plugin's latencyInter is added once, twice for Simple (its flush).
  const double inter = t.net_lat[ppn == 1 ? algo_index(NcclAlgo::Tree) : ai][pi] +
                       c.host.net_latency_us * (p == NcclProto::Simple ? 2 : 1);
  if (a == NcclAlgo::Tree) {
    const int log_nodes = std::max(0, nccl_log2i(c.nodes));
    return t.base_lat[ai][pi] + 2 * ((ppn - 1) * intra + log_nodes * inter);
  }
  const std::uint32_t steps = ring_steps(c), inter_steps = ring_inter_steps(c);
  // Across nodes an intra-node step costs at least the network overhead (x3 for Simple).
  const double overhead = c.host.net_overhead_us * (p == NcclProto::Simple ? 3 : 1);
  const double intra_step = c.nodes > 1 ? std::max(intra, overhead) : intra;
  return t.base_lat[ai][pi] + (steps - inter_steps) * intra_step + inter_steps * inter;
}

double nccl_busbw(const NcclComm& c) noexcept { return std::min(c.net_busbw, c.host.intra_busbw); }

double nccl_algbw(const NcclComm& c, NcclAlgo a, NcclProto p, const NcclTuning& t) noexcept {
  const double bus = nccl_busbw(c);
  const std::size_t ni = node_index(c.nodes);
  const double ll_max = c.nodes <= 1 ? t.ll_max_bw_1node : t.ll_max_bw[ni];
  const double nch = c.search_channels;
  double bw = bus;
  if (a == NcclAlgo::Ring) {
    if (p == NcclProto::LL) bw = std::min(ll_max, bus * 0.5);
    if (p == NcclProto::LL128) bw = std::min(bus * 0.92, nch * t.ring_ll128_per_ch);
    // busBw -> algBw: nRanks / nsteps.
    return bw * c.ranks / ring_steps(c);
  }
  // Tree: the Simple cap first, then the LL and LL128 ones on top of it.
  bw = std::min(bus * 0.92, nch * t.tree_per_ch[ni]);
  if (p == NcclProto::LL) bw = std::min(bw / 3.8, ll_max);
  if (p == NcclProto::LL128)
    bw = std::min(bw * (c.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), nch * t.tree_ll128_per_ch[ni]);
  return bw * 0.5;
}

double nccl_time_us(const NcclComm& c, NcclAlgo a, NcclProto p, std::uint64_t bytes, const NcclTuning& t) noexcept {
  double lat = nccl_latency(c, a, p, t);
  double bw = nccl_algbw(c, a, p, t);
  if (a == NcclAlgo::Tree && c.coll == NcclColl::AllReduce) {
    const int log_size = nccl_log2i(bytes >> 6);
    if (log_size >= 0 && log_size < 23) bw *= t.tree_correction[proto_index(p)][static_cast<std::size_t>(log_size)];
  }
  if (a == NcclAlgo::Ring && p == NcclProto::Simple && c.nodes > 1 && c.coll == NcclColl::AllReduce &&
      bytes / (static_cast<std::uint64_t>(c.channels) * c.ranks) >= 64)
    lat *= t.ring_plateau;
  if (bw <= 0) return std::numeric_limits<double>::infinity();
  return lat + static_cast<double>(bytes) / (1000 * bw);
}

std::optional<NcclChoice> nccl_choose(const NcclComm& c, std::uint64_t bytes, std::optional<NcclAlgo> algo,
                                      std::optional<NcclProto> proto, const NcclTuning& t) noexcept {
  std::optional<NcclChoice> best;
  for (const auto& a : workloads::kNcclAlgos) {
    if (!nccl_supported(c.coll, a.value) || (algo && *algo != a.value)) continue;
    for (const auto& p : workloads::kNcclProtos) {
      if (proto && *proto != p.value) continue;
      const double time = nccl_time_us(c, a.value, p.value, bytes, t);
      if (!best || time < best->time_us) best = NcclChoice{a.value, p.value, time};
    }
  }
  return best;
}

}  // namespace ecmpsim
