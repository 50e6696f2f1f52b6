// NCCL's ncclTopoTuneModel latencies, which algorithms and protocols it
// offers, and ncclTopoGetAlgoTime (src/graph/tuning.cc, 2.18.1 to 2.30.7;
// the bandwidths are nccl_bandwidth.cpp). The formulas with their sources:
// docs/prediction.md, "Time per message size".
#include "sim/model/nccl_cost.h"

#include <algorithm>
#include <limits>

#include "sim/model/nccl_cost_parts.h"
#include "workloads/gpu.h"

namespace ecmpsim {

namespace {

using workloads::NcclAlgo;
using workloads::NcclProto;
using workloads::NcclVersion;

// nsteps and nInterSteps of a ring: up to 2.22 AllReduce crosses 2 nNodes
// times, from 2.23 2 (nNodes - 1).
std::uint32_t inter_steps(const NcclComm& c, const NcclTuningRow& row) noexcept {
  if (c.coll == NcclColl::AllReduce) return c.nodes <= 1 ? 0 : row.inter_steps_2n ? 2 * c.nodes : 2 * (c.nodes - 1);
  return c.nodes <= 1 ? 0 : c.nodes - 1;
}

double ring_latency(const NcclComm& c, const NcclTuningRow& row, std::size_t pi, double intra, double inter) noexcept {
  const std::size_t ring = algo_index(NcclAlgo::Ring), tree = algo_index(NcclAlgo::Tree);
  const std::uint32_t steps = ring_nsteps(c);
  if (c.coll == NcclColl::Broadcast || c.coll == NcclColl::Reduce) {
    // hwLat of the NET (or intra-node) row; without sameChannels every step,
    // Simple on the Tree row ("some chunk latency").
    const NcclLatencies& hw = c.nodes == 1 ? intra_row(c, row) : row.net;
    if (c.hw && c.hw->same_channels) return row.base[ring][pi] + hw[ring][pi];
    const double lat = pi == proto_index(NcclProto::Simple) ? hw[tree][pi] : hw[ring][pi];
    return row.base[ring][pi] + steps * lat;
  }
  const std::uint32_t across = inter_steps(c, row);
  // Across nodes an intra-node step costs at least the network overhead (x3 for Simple).
  const double overhead = c.host.net_overhead_us * (pi == proto_index(NcclProto::Simple) ? 3 : 1);
  const double intra_step = c.nodes > 1 ? std::max(intra, overhead) : intra;
  // Signed, as NCCL's ints: before 2.23 a one-GPU-per-node AllReduce has more
  // network steps (2 nNodes) than steps (2 (nNodes - 1)).
  const double intra_steps = static_cast<double>(steps) - static_cast<double>(across);
  return row.base[ring][pi] + intra_steps * intra_step + across * inter;
}

}  // namespace

NcclComm scaled_network(NcclComm c, double f) noexcept {
  c.net_busbw *= f;
  if (c.hw) {
    c.hw->tree_net *= f;
    c.hw->sharp_net *= f;
  }
  return c;
}

double nccl_latency(const NcclComm& c, NcclAlgo a, NcclProto p) noexcept {
  const NcclTuningRow& row = tuning_row(c);
  const std::size_t ai = algo_index(a), pi = proto_index(p);
  const std::uint32_t ppn = comm_ppn(c);
  const double intra = intra_row(c, row)[ai][pi];
  // With one GPU per node the network hop takes the Tree row (2.23 on); the
  // plugin's latencyInter is added once, twice for Simple (its flush).
  const std::size_t net_algo = row.ppn1_tree_net && ppn == 1 ? algo_index(NcclAlgo::Tree) : ai;
  const double inter = row.net[net_algo][pi] + c.host.net_latency_us * (p == NcclProto::Simple ? 2 : 1);
  const double base = row.base[ai][pi];
  const int log_nodes = std::max(0, nccl_log2i(c.nodes));
  const bool v218 = nvls_from_graph(row.nvls);
  switch (a) {
    case NcclAlgo::Ring: return ring_latency(c, row, pi, intra, inter);
    case NcclAlgo::Tree: return base + 2 * ((ppn - 1) * intra + log_nodes * inter);
    case NcclAlgo::CollNetDirect:  // + 0.4 us arity serialization per local rank (0.5 in 2.18)
      return base + 2 * (std::min(1u, ppn - 1) * intra + (ppn - 1) * (v218 ? 0.5 : 0.4)) + inter;
    case NcclAlgo::CollNetChain: return base + 2 * (ppn - 1) * intra + inter;
    case NcclAlgo::NVLS:
      if (v218) return base + (c.nodes > 1 ? row.net[ai][pi] : 0);
      return intra + (c.nodes > 1 ? inter : 0);
    case NcclAlgo::NVLSTree:
      if (v218) return base + 2.0 * (c.nodes - 1) * row.net[ai][pi];
      return base + intra + 2 * log_nodes * inter;
    case NcclAlgo::PAT: return base + log_nodes * (inter / 3.5) + c.ranks * 2.8;
  }
  return base;
}

namespace {

// ncclTopoGetAlgoTime from the pair's latency and bandwidth.
double time_at(const NcclComm& c, const NcclTuningRow& row, NcclAlgo a, NcclProto p, double lat, double bw,
               std::uint64_t bytes) noexcept {
  const int log_size = nccl_log2i(bytes >> 6);
  if (a == NcclAlgo::Tree && c.coll == NcclColl::AllReduce && log_size >= 0 && log_size < 23)
    bw *= kNcclTreeCorrection[proto_index(p)][static_cast<std::size_t>(log_size)];
  // 2.29 on: NVLSTree AllReduce on Blackwell x86 hosts takes the correction too (24 entries).
  if (a == NcclAlgo::NVLSTree && row.nvlstree_correction && c.coll == NcclColl::AllReduce && c.hw &&
      c.hw->sm >= 100 && c.host.x86 && log_size >= 0 && log_size < 24)
    bw *= kNcclTreeCorrection[proto_index(p)][static_cast<std::size_t>(log_size)];
  if (a == NcclAlgo::Ring && p == NcclProto::Simple && c.nodes > 1 && c.coll == NcclColl::AllReduce &&
      bytes / (static_cast<std::uint64_t>(c.channels) * c.ranks) >= 64)
    lat *= (c.hw && c.hw->sm < 80) ? 1.9 : 1.4;  // the ring's plateau
  if (bw <= 0) return std::numeric_limits<double>::infinity();
  return lat + static_cast<double>(bytes) / (1000 * bw);
}


}  // namespace

double nccl_time_us(const NcclComm& c, NcclAlgo a, NcclProto p, std::uint64_t bytes) noexcept {
  const NcclTuningRow& row = tuning_row(c);
  return time_at(c, row, a, p, nccl_latency(c, a, p), nccl_algbw(c, a, p), bytes);
}

double nccl_p2p_time_us(const NcclComm& c, std::uint64_t bytes) noexcept {
  const NcclTuningRow& row = tuning_row(c);
  const std::size_t ring = algo_index(NcclAlgo::Ring), simple = proto_index(NcclProto::Simple);
  const double step = c.nodes > 1 ? row.net[ring][simple] + 2 * c.host.net_latency_us : intra_row(c, row)[ring][simple];
  const double n = c.ranks;
  const double factor = c.coll == NcclColl::AllToAll ? (n - 1) / n : 1.0;
  const double bw = std::min(c.net_busbw, c.host.intra_busbw) / factor;
  if (!(bw > 0)) return std::numeric_limits<double>::infinity();
  return row.base[ring][simple] + step + static_cast<double>(bytes) / (1000 * bw);
}

NcclPrices::NcclPrices(const NcclComm& c, std::optional<NcclAlgo> algo, std::optional<NcclProto> proto) noexcept
    : comm_(c), algo_(algo), proto_(proto) {
  if (nccl_p2p(c.coll)) return;
  for (const auto& a : workloads::kNcclAlgos) {
    if (algo && *algo != a.value) continue;
    for (const auto& p : workloads::kNcclProtos) {
      if ((proto && *proto != p.value) || !nccl_available(c, a.value, p.value)) continue;
      pairs_[algo_index(a.value)][proto_index(p.value)] = {true, nccl_latency(c, a.value, p.value),
                                                           nccl_algbw(c, a.value, p.value)};
    }
  }
}

std::optional<NcclChoice> NcclPrices::choose(std::uint64_t bytes) const noexcept {
  if (nccl_p2p(comm_.coll)) {
    if ((algo_ && *algo_ != NcclAlgo::Ring) || (proto_ && *proto_ != NcclProto::Simple)) return std::nullopt;
    return NcclChoice{NcclAlgo::Ring, NcclProto::Simple, nccl_p2p_time_us(comm_, bytes)};
  }
  const NcclTuningRow& row = tuning_row(comm_);
  std::optional<NcclChoice> best;
  for (const auto& a : workloads::kNcclAlgos)
    for (const auto& p : workloads::kNcclProtos) {
      const Pair& pair = pairs_[algo_index(a.value)][proto_index(p.value)];
      if (!pair.priced) continue;
      const double time = time_at(comm_, row, a.value, p.value, pair.latency, pair.algbw, bytes);
      if (!best || time < best->time_us) best = NcclChoice{a.value, p.value, time};
    }
  return best;
}

std::optional<NcclChoice> nccl_choose(const NcclComm& c, std::uint64_t bytes, std::optional<NcclAlgo> algo,
                                      std::optional<NcclProto> proto) noexcept {
  return NcclPrices(c, algo, proto).choose(bytes);
}

}  // namespace ecmpsim
