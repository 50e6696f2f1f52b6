// Imbalance per tier of links, and colliding flow pairs: where the routing
// stacked flows of one job on a link while an equal-cost alternative sat idle.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/model/metrics.h"
#include "sim/routing/routes.h"
#include "sim/model/trace.h"
#include "workloads/flow.h"

namespace ecmpsim {

// "host", "leaf", "spine", "core".

// The imbalance of one tier of links: every link from a node of one tier to a
// node of another, e.g. "leaf->spine".
struct TierImbalance {
  std::string name;  // "<from tier>-><to tier>"
  Imbalance flows;   // by flow count
  Imbalance bytes;   // by bytes
};

// Groups `links` (idle ones included) by (from tier, to tier); tiers are
// ordered by their lower tier, then upward before downward
// (leaf->spine, spine->leaf, spine->core, core->spine).
std::vector<TierImbalance> tier_imbalance(const Fabric& fabric, std::span<const LinkId> links, const Trace& trace);

// Colliding flow pairs. A flow is placed at a hop when the switch it leaves
// has an equal-cost group of two or more members towards the flow's
// destination ToR and the flow leaves over one of them (ECMP's hash choice,
// or a static table choosing among the same members). Two flows collide when
// they have the same job, were placed on the same link from the same group,
// and some member of that group carried no flow at all in the scenario (an
// idle equal-cost alternative existed). The count is the number of such
// unordered pairs: k flows of one job placed on one link from a group with an
// idle member make k(k-1)/2 pairs.
std::uint64_t colliding_pairs(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows,
                              const Trace& trace);

}  // namespace ecmpsim
