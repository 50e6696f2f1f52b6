#include "workloads/job.h"

#include <array>

#include "workloads/p2p.h"
#include "workloads/ring.h"
#include "workloads/tree.h"

namespace ecmpsim::workloads {
namespace {

// S * num / den without overflow (S up to 2^64, num/den about 2).
std::uint64_t scaled(std::uint64_t s, std::uint64_t num, std::uint64_t den) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(s) * num / den);
}

constexpr std::array<std::string_view, 3> kCrossNicOutcomeNames{"auto", "off", "on"};

}  // namespace

std::optional<CrossNicOutcome> parse_cross_nic_outcome(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kCrossNicOutcomeNames.size(); ++i)
    if (kCrossNicOutcomeNames[i] == name) return static_cast<CrossNicOutcome>(i);
  return std::nullopt;
}

std::string_view cross_nic_outcome_name(CrossNicOutcome o) noexcept {
  return kCrossNicOutcomeNames[static_cast<std::size_t>(o)];
}

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
  }
}

}  // namespace ecmpsim::workloads
