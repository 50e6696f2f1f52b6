// The generated `balanced` static policy: a per-destination table computed
// for the workload that keeps the most-loaded link low.
//
// Greedy: destinations are taken in decreasing order of the bytes sent to
// them (ties: lower endpoint index). For one destination d, the bytes each
// switch must forward towards d are known switch by switch in decreasing
// distance to d's ToR (hop counts strictly fall along equal-cost members, so
// this is a topological order): a switch holding c bytes for d picks the
// member l of its equal-cost set minimising the resulting utilisation
// (load + c) / speed over l and the links that follow l while the next
// switch has a single member (the forced part of the path, which also takes
// the bytes for d already waiting at those switches); ties go to the
// less-loaded l, then member order. Its c bytes are added to those links and
// passed on to the next switch.
//
// Bound: where the look-ahead does not bind (a switch's members lead to
// disjoint, otherwise idle forced paths) each choice is Graham's list
// scheduling on identical machines: the most-loaded member of a set ends at
// most (set load / members) + (largest per-destination chunk), at most twice
// the best any per-destination assignment of that switch's chunks achieves,
// and 4/3 - 1/(3m) of it when chunks arrive largest first (LPT). Across tiers
// minimum-congestion unsplittable routing is NP-hard and no constant factor
// is claimed; congestion_lower_bound() gives a floor to compare against.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"
#include "workloads/flow.h"

namespace ecmpsim {

struct BalancedEntry {
  std::uint32_t switch_index = 0;
  std::uint32_t endpoint = 0;  // destination
  LinkId link = kNone;
};

// One entry per (switch, destination) the workload's flows cross, sorted by
// switch, then destination ToR, then endpoint.
std::vector<BalancedEntry> balanced_routes(const Fabric& fabric, const EqualCostSets& sets,
                                           const workloads::Flows& flows);

// A floor on the most-loaded switch-to-switch link (bytes) of ANY
// per-destination routing on shortest paths: the largest bytes one ToR sends
// to one destination endpoint in another ToR (they share one uplink), and for
// every ToR its total bytes leaving (entering) over its working
// switch-to-switch links divided by their number.
double congestion_lower_bound(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows);

}  // namespace ecmpsim
