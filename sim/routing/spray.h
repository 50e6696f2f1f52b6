// Per-packet spraying (routing = "spray") as a fluid: every switch splits each
// flow's traffic over all members of its equal-cost group in proportion to
// their WCMP weights (equally without weights), as Ultra Ethernet's transport
// or adaptive routing with reordering at the NIC spread packets. A flow then
// crosses every link of its shortest-path DAG with a fraction of its rate:
// the product of the per-hop splits, summed over the paths through the link.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/next_link.h"

namespace ecmpsim {

class Sprayer {
 public:
  // `fwd` (its sets) must outlive the sprayer; `weights` are the scenario's
  // WCMP weights over the fabric's (sim/fabric/failures.h link_weights).
  Sprayer(const Fabric& fabric, const Forwarding& fwd, std::vector<std::uint32_t> weights);

  // Calls on_link(l, fraction) once for every link the flow's traffic
  // crosses, hop by hop: the source's uplink (1), then each switch level's
  // links (their fractions sum to 1), then the destination's downlink (1).
  // A switch with no way on is an InputError, as for the other routings.
  void route(const FlowEnds& e, const std::function<void(LinkId, double)>& on_link);

  // Every path of the flow with its share (the product of its hops' splits),
  // members in group order; for outputs, which list them.
  void paths(const FlowEnds& e, const std::function<void(std::span<const LinkId>, double)>& on_path) const;

 private:
  double split(std::uint32_t g, LinkId l) const;  // a member's part of its group

  const Fabric* fabric_;
  const Forwarding* fwd_;
  std::vector<std::uint32_t> weight_;  // per link
  std::vector<double> mass_;           // per switch: the flow's fraction arriving there
  std::vector<std::uint64_t> stamp_;   // per switch: mass_ valid for this flow
  std::uint64_t flow_ = 0;
  std::vector<std::uint32_t> level_, next_;
};

}  // namespace ecmpsim
