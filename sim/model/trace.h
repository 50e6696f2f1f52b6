// Placing flows on paths: per flow its links, per link its flow and byte counters.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "workloads/flow.h"

namespace ecmpsim {

struct Trace {
  std::vector<std::uint32_t> link_flows;  // per directed link; spraying: the flows crossing it at all
  std::vector<std::uint64_t> link_bytes;  // spraying: bytes x share, rounded
  std::vector<std::uint32_t> path_begin;  // per flow, into path_links; size flows + 1
  std::vector<LinkId> path_links;         // source access link ... destination access link
  // Spraying (split flows) only, else empty: parallel to path_links, the
  // fraction of the flow on that link (a flow's path is then every link it
  // crosses, each once, hop by hop); per link the sum of those fractions
  // (fractional flow counts) and of bytes x fraction.
  std::vector<double> split_fraction;
  std::vector<double> link_share, link_share_bytes;

  std::span<const LinkId> path(std::size_t flow) const {
    return {path_links.data() + path_begin[flow], path_links.data() + path_begin[flow + 1]};
  }
  bool split() const noexcept { return !link_share.empty(); }
  // What the metrics count on a link: flows and bytes, or their shares when split.
  double flows_on(LinkId l) const { return split() ? link_share[l] : link_flows[l]; }
  double bytes_on(LinkId l) const { return split() ? link_share_bytes[l] : static_cast<double>(link_bytes[l]); }
};

// Routes every flow by the scenario's mode (sim/routing/route_flows.h) and
// counts flows and bytes per link; a mode that splits flows (spraying) counts
// shares as well. A flow with no route, or one caught in a loop, is an
// InputError naming the switch and destination.
void route_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out);

}  // namespace ecmpsim
