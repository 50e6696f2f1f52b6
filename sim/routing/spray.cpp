#include "sim/routing/spray.h"

namespace ecmpsim {

Sprayer::Sprayer(const Fabric& fabric, const Forwarding& fwd, std::vector<std::uint32_t> weights)
    : fabric_(&fabric),
      fwd_(&fwd),
      weight_(std::move(weights)),
      mass_(fabric.switches().size(), 0.0),
      stamp_(fabric.switches().size(), 0) {}

double Sprayer::split(std::uint32_t g, LinkId l) const {
  std::uint64_t total = 0;
  for (LinkId m : fwd_->sets().members(g)) total += weight_[m];
  return static_cast<double>(weight_[l]) / static_cast<double>(total);
}

void Sprayer::route(const FlowEnds& e, const std::function<void(LinkId, double)>& on_link) {
  ++flow_;
  on_link(e.first, 1.0);
  const EqualCostSets& sets = fwd_->sets();
  level_.assign(1, fabric_->switch_after(e.first));
  mass_[level_[0]] = 1.0;
  stamp_[level_[0]] = flow_;
  // Equal-cost paths are shortest: every switch of a level is as far from
  // the destination ToR, so each level's links are all crossed at one hop.
  for (std::size_t hops = 0; !level_.empty(); ++hops) {
    if (hops > fabric_->switches().size()) no_route(*fabric_, *fwd_, level_[0], e, true);
    next_.clear();
    for (std::uint32_t sw : level_) {
      if (fabric_->tor_of_switch(sw) == e.dst_tor) {
        on_link(e.last, mass_[sw]);
        continue;
      }
      const std::uint32_t g = sets.group(sw, e.dst_tor);
      if (g == EqualCostSets::kNoGroup) no_route(*fabric_, *fwd_, sw, e, false);
      for (LinkId l : sets.members(g)) {
        const double part = mass_[sw] * split(g, l);
        on_link(l, part);
        const std::uint32_t to = fabric_->switch_after(l);
        if (stamp_[to] != flow_) {
          stamp_[to] = flow_;
          mass_[to] = 0.0;
          next_.push_back(to);
        }
        mass_[to] += part;
      }
    }
    std::swap(level_, next_);
  }
}

void Sprayer::paths(const FlowEnds& e, const std::function<void(std::span<const LinkId>, double)>& on_path) const {
  std::vector<LinkId> path{e.first};
  const EqualCostSets& sets = fwd_->sets();
  const std::function<void(std::uint32_t, double)> visit = [&](std::uint32_t sw, double share) {
    if (fabric_->tor_of_switch(sw) == e.dst_tor) {
      path.push_back(e.last);
      on_path(path, share);
      path.pop_back();
      return;
    }
    const std::uint32_t g = sets.group(sw, e.dst_tor);
    if (g == EqualCostSets::kNoGroup) return;  // route() reported it
    for (LinkId l : sets.members(g)) {
      path.push_back(l);
      visit(fabric_->switch_after(l), share * split(g, l));
      path.pop_back();
    }
  };
  visit(fabric_->switch_after(e.first), 1.0);
}

}  // namespace ecmpsim
