#include "sim/routing/adaptive.h"

#include <limits>

namespace ecmpsim {

AdaptiveRouter::AdaptiveRouter(const Fabric& fabric, const Forwarding& fwd)
    : fabric_(&fabric),
      fwd_(&fwd),
      placed_(fabric.links().size(), 0.0),
      inv_speed_(fabric.links().size(), 0.0),
      best_(fabric.switches().size(), 0.0),
      best_stamp_(fabric.switches().size(), 0) {
  for (LinkId l = 0; l < fabric.links().size(); ++l) {
    const double gbps = fabric.link(l).speed.value;
    inv_speed_[l] = gbps > 0 ? 1.0 / gbps : 0.0;
  }
}

LinkId AdaptiveRouter::choose(std::uint32_t sw, const FlowEnds& e) {
  if (fabric_->tor_of_switch(sw) == e.dst_tor) return e.last;
  const EqualCostSets& sets = fwd_->sets();
  const std::uint32_t g = sets.group(sw, e.dst_tor);
  if (g == EqualCostSets::kNoGroup) return kNone;
  const auto members = sets.members(g);
  LinkId pick = members[0];
  double pick_path = std::numeric_limits<double>::infinity(), pick_own = pick_path;
  const bool global = fwd_->adaptive() == AdaptiveMode::Global;
  for (LinkId l : members) {  // strict comparisons keep the lowest member index on ties
    const double own = load(l);
    const double path = global ? std::max(own, best(fabric_->switch_after(l), e.dst_tor)) : own;
    if (path < pick_path || (path == pick_path && own < pick_own)) {
      pick = l;
      pick_path = path;
      pick_own = own;
    }
  }
  return pick;
}

double AdaptiveRouter::best(std::uint32_t sw, std::uint32_t tor) {
  if (fabric_->tor_of_switch(sw) == tor) return 0.0;
  if (best_stamp_[sw] == stamp_) return best_[sw];
  const EqualCostSets& sets = fwd_->sets();
  const std::uint32_t g = sets.group(sw, tor);
  double b = std::numeric_limits<double>::infinity();
  if (g != EqualCostSets::kNoGroup)
    for (LinkId l : sets.members(g)) b = std::min(b, std::max(load(l), best(fabric_->switch_after(l), tor)));
  best_stamp_[sw] = stamp_;
  best_[sw] = b;
  return b;
}

}  // namespace ecmpsim
