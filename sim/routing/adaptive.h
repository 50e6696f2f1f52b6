// Adaptive routing (routing = "adaptive"): switches that choose a member of
// their equal-cost group by the load already placed, not by a hash.
//
// Flows are placed one at a time, in flow order, each for its whole life (a
// fluid model of long-lived collective flows: what a flowlet or DLB switch
// does when every flow is one long flowlet). A link's load is the bytes of
// the flows placed on it so far divided by its speed. At every switch:
//  - local:  the member with the lowest load (Broadcom DLB's port quality,
//            reduced to placed bytes);
//  - global: the member l minimising max(load(l), best(next switch)), where
//            best(s) is the lowest maximum load over every remaining
//            equal-cost path from s to the destination ToR (a minimax over
//            the shortest-path DAG, computed per flow) — path-aware
//            balancing that sees the remote links; among members tied on
//            that, the one with the lowest load(l).
// Remaining ties go to the lowest member index of the group, so the result is a pure
// function of the flows, the fabric and the failures. WCMP weights are not
// read (they shape hashing); speeds are. The last hop to the endpoint and
// single-member groups are forced, as under ECMP.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/next_link.h"

namespace ecmpsim {

class AdaptiveRouter {
 public:
  // `fwd` (its sets and adaptive mode) must outlive the router.
  AdaptiveRouter(const Fabric& fabric, const Forwarding& fwd);

  // Routes the next flow: calls on_link(l) for every link from e.first to
  // e.last, then counts `bytes` on them. Returns the switch hops. A switch
  // with no way on is an InputError, as for the other routings.
  template <class OnLink>
  std::uint32_t route(const FlowEnds& e, std::uint64_t bytes, OnLink&& on_link) {
    path_.clear();
    ++stamp_;
    // The whole path first: a flow's own load must not steer its later hops.
    const std::uint32_t hops = walk_path(
        *fabric_, *fwd_, e, [&](std::uint32_t sw, LinkId) { return choose(sw, e); },
        [&](LinkId l) { path_.push_back(l); });
    for (LinkId l : path_) {
      placed_[l] += static_cast<double>(bytes);
      on_link(l);
    }
    return hops;
  }

  // Bytes placed on a link so far over its speed (bytes per Gb/s).
  double load(LinkId l) const { return placed_[l] * inv_speed_[l]; }

 private:
  LinkId choose(std::uint32_t sw, const FlowEnds& e);
  // The lowest maximum load of any equal-cost path from `sw` to ToR `tor`
  // (0 at the ToR), memoised for the current flow.
  double best(std::uint32_t sw, std::uint32_t tor);

  const Fabric* fabric_;
  const Forwarding* fwd_;
  std::vector<double> placed_, inv_speed_;  // per link
  std::vector<double> best_;                // per switch, valid when best_stamp_ == stamp_
  std::vector<std::uint64_t> best_stamp_;
  std::uint64_t stamp_ = 0;
  std::vector<LinkId> path_;
};

}  // namespace ecmpsim
