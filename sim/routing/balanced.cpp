#include "sim/routing/balanced.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ecmpsim {

std::vector<BalancedEntry> balanced_routes(const Fabric& fabric, const EqualCostSets& sets,
                                           const workloads::Flows& flows) {
  const auto ne = fabric.endpoints().size();
  const auto nsw = fabric.switches().size();
  std::vector<double> to_dst(ne, 0);
  std::vector<std::vector<std::uint32_t>> flows_to(ne);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    to_dst[flows.dst[f]] += static_cast<double>(flows.bytes[f]);
    flows_to[flows.dst[f]].push_back(static_cast<std::uint32_t>(f));
  }
  std::vector<std::uint32_t> order(ne);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return to_dst[a] > to_dst[b]; });

  std::vector<double> load(fabric.links().size(), 0);  // bytes
  std::vector<double> carry(nsw, 0);                    // bytes a switch holds for the current destination
  std::vector<std::uint8_t> queued(nsw, 0);
  std::vector<std::vector<std::uint32_t>> by_distance;  // switches holding bytes, by hops to the ToR
  std::vector<BalancedEntry> out;
  auto util = [&](LinkId l, double extra) { return (load[l] + extra) / fabric.link(l).speed.value; };
  for (std::uint32_t d : order) {
    if (flows_to[d].empty()) continue;
    const std::uint32_t t = fabric.tor_of(d);
    const std::uint32_t root = fabric.switch_index(fabric.tors()[t]);
    auto hold = [&](std::uint32_t s, double bytes) {
      if (s == root) return;
      if (!queued[s]) {
        const std::uint32_t dist = sets.distance(s, t);
        if (dist == kNone) return;  // unreachable: the trace reports it
        queued[s] = 1;
        if (by_distance.size() <= dist) by_distance.resize(dist + 1);
        by_distance[dist].push_back(s);
      }
      carry[s] += bytes;
    };
    for (std::uint32_t f : flows_to[d])
      hold(fabric.switch_index(fabric.link(fabric.uplink(flows.src[f])).to), static_cast<double>(flows.bytes[f]));
    for (std::size_t dist = by_distance.size(); dist-- > 1;) {
      auto& level = by_distance[dist];
      std::sort(level.begin(), level.end());
      for (std::uint32_t s : level) {
        const double c = carry[s];
        carry[s] = 0;
        queued[s] = 0;
        const std::uint32_t g = sets.group(s, t);
        LinkId best = kNone;
        double best_score = 0, best_own = 0;
        for (LinkId l : sets.members(g)) {
          double score = util(l, c);
          // Follow the forced part of the path: next switches with one
          // member, which will also carry the bytes already waiting there.
          double extra = c;
          for (NodeId at = fabric.link(l).to; fabric.switch_index(at) != root;) {
            const std::uint32_t ns = fabric.switch_index(at);
            const std::uint32_t ng = sets.group(ns, t);
            if (ng == EqualCostSets::kNoGroup || sets.members(ng).size() != 1) break;
            const LinkId m = sets.members(ng)[0];
            extra += carry[ns];
            score = std::max(score, util(m, extra));
            at = fabric.link(m).to;
          }
          const double own = util(l, 0);
          if (best == kNone || score < best_score || (score == best_score && own < best_own)) {
            best = l;
            best_score = score;
            best_own = own;
          }
        }
        out.push_back({s, d, best});
        load[best] += c;
        hold(fabric.switch_index(fabric.link(best).to), c);
      }
      level.clear();
    }
    by_distance.clear();
  }
  std::sort(out.begin(), out.end(), [&](const BalancedEntry& a, const BalancedEntry& b) {
    const auto ta = fabric.tor_of(a.endpoint), tb = fabric.tor_of(b.endpoint);
    return std::tie(a.switch_index, ta, a.endpoint) < std::tie(b.switch_index, tb, b.endpoint);
  });
  return out;
}

double congestion_lower_bound(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows) {
  const auto nt = fabric.tors().size();
  std::vector<double> out_bytes(nt, 0), in_bytes(nt, 0);
  std::unordered_map<std::uint64_t, double> chunk;  // (source ToR, destination endpoint)
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const std::uint32_t ts = fabric.tor_of(flows.src[f]), td = fabric.tor_of(flows.dst[f]);
    if (ts == td) continue;
    const auto b = static_cast<double>(flows.bytes[f]);
    out_bytes[ts] += b;
    in_bytes[td] += b;
    chunk[(std::uint64_t{ts} << 32) | flows.dst[f]] += b;
  }
  double lb = 0;
  for (const auto& [key, b] : chunk) lb = std::max(lb, b);
  for (std::uint32_t t = 0; t < nt; ++t) {
    const NodeId tor = fabric.tors()[t];
    std::size_t up = 0, down = 0;
    for (LinkId l : fabric.out_links(tor)) {
      const Link& link = fabric.link(l);
      if (sets.is_down(l) || !fabric.is_switch(link.to)) continue;
      ++up;
      if (!sets.is_down(link.reverse)) ++down;
    }
    if (up > 0) lb = std::max(lb, out_bytes[t] / static_cast<double>(up));
    if (down > 0) lb = std::max(lb, in_bytes[t] / static_cast<double>(down));
  }
  return lb;
}

}  // namespace ecmpsim
