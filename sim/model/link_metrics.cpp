#include "sim/model/link_metrics.h"

#include <algorithm>
#include <tuple>

namespace ecmpsim {

std::vector<TierImbalance> tier_imbalance(const Fabric& fabric, std::span<const LinkId> links, const Trace& trace) {
  auto key = [&](LinkId l) {
    const auto a = static_cast<int>(fabric.node(fabric.link(l).from).tier);
    const auto b = static_cast<int>(fabric.node(fabric.link(l).to).tier);
    return std::tuple{std::min(a, b), std::max(a, b), a > b};
  };
  std::vector<LinkId> order(links.begin(), links.end());
  std::stable_sort(order.begin(), order.end(), [&](LinkId x, LinkId y) { return key(x) < key(y); });
  std::vector<TierImbalance> out;
  std::vector<double> by_flows, by_bytes;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t end = i;
    by_flows.clear();
    by_bytes.clear();
    while (end < order.size() && key(order[end]) == key(order[i])) {
      by_flows.push_back(trace.flows_on(order[end]));
      by_bytes.push_back(trace.bytes_on(order[end]));
      ++end;
    }
    const Link& l = fabric.link(order[i]);
    out.push_back({std::string(name_of(kTiers, fabric.node(l.from).tier)) + "->" +
                       std::string(name_of(kTiers, fabric.node(l.to).tier)),
                   imbalance(by_flows), imbalance(by_bytes)});
    i = end;
  }
  return out;
}

std::uint64_t colliding_pairs(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows,
                              const Trace& trace) {
  // One entry per placement whose group had an idle member; equal entries collide.
  struct Placement {
    LinkId link;
    std::uint32_t group;
    std::uint16_t job;
    auto operator<=>(const Placement&) const = default;
  };
  std::vector<Placement> placed;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const std::uint32_t dst_tor = fabric.tor_of(flows.dst[f]);
    const auto path = trace.path(f);
    for (std::size_t i = 1; i < path.size(); ++i) {
      const NodeId at = fabric.link(path[i - 1]).to;
      if (!fabric.is_switch(at)) continue;
      const std::uint32_t g = sets.group(fabric.switch_index(at), dst_tor);
      if (g == EqualCostSets::kNoGroup) continue;
      const auto members = sets.members(g);
      if (members.size() < 2 || std::find(members.begin(), members.end(), path[i]) == members.end()) continue;
      const bool idle_alternative =
          std::any_of(members.begin(), members.end(), [&](LinkId m) { return trace.link_flows[m] == 0; });
      if (idle_alternative) placed.push_back({path[i], g, flows.job[f]});
    }
  }
  std::sort(placed.begin(), placed.end());
  std::uint64_t pairs = 0;
  for (std::size_t i = 0; i < placed.size();) {
    std::size_t end = i;
    while (end < placed.size() && placed[end] == placed[i]) ++end;
    const std::uint64_t k = end - i;
    pairs += k * (k - 1) / 2;
    i = end;
  }
  return pairs;
}

}  // namespace ecmpsim
