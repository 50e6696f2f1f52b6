#include "workloads/generators/job.h"

#include "workloads/generators/p2p.h"
#include "workloads/generators/ring.h"
#include "workloads/generators/tree.h"

namespace ecmpsim::workloads {
namespace {

// S * num / den without overflow (S up to 2^64, num/den about 2).
std::uint64_t scaled(std::uint64_t s, std::uint64_t num, std::uint64_t den) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(s) * num / den);
}

}  // namespace

void generate(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out) {
  const std::uint64_t n = layout.ranks();
  if (n < 2) return;
  switch (p.collective) {
    case Collective::RingAllReduce: ring_flows(p, layout, scaled(p.message_bytes, 2 * (n - 1), n), maker, out); break;
    case Collective::AllGather:
    case Collective::ReduceScatter: ring_flows(p, layout, scaled(p.message_bytes, n - 1, n), maker, out); break;
    case Collective::TreeAllReduce: tree_flows(p, layout, maker, out); break;
    case Collective::AllToAll: alltoall_flows(p, layout, maker, out); break;
    case Collective::SendRecv: sendrecv_flows(p, layout, maker, out); break;
    // Root 0 (nccl-tests' default): a broadcast's ring chain ends before the
    // root's node, a reduce's ends at it.
    case Collective::Broadcast: chain_flows(p, layout, p.message_bytes, false, maker, out); break;
    case Collective::Reduce: chain_flows(p, layout, p.message_bytes, true, maker, out); break;
  }
}

}  // namespace ecmpsim::workloads
