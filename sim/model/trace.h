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
  std::vector<std::uint32_t> link_flows;  // per directed link
  std::vector<std::uint64_t> link_bytes;
  std::vector<std::uint32_t> path_begin;  // per flow, into path_links; size flows + 1
  std::vector<LinkId> path_links;         // source access link ... destination access link

  std::span<const LinkId> path(std::size_t flow) const {
    return {path_links.data() + path_begin[flow], path_links.data() + path_begin[flow + 1]};
  }
};

// Routes every flow hop by hop and counts flows and bytes per link: by the
// switches' hashes or static tables, or, for an adaptive scenario, by the
// load placed so far in flow order (sim/routing/adaptive.h). A flow
// with no route, or one caught in a loop, is an InputError naming the switch
// and destination.
void route_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out);

}  // namespace ecmpsim
