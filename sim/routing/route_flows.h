// The one dispatch from a scenario's routing mode to its router: every flow,
// in flow order, through the switches' hashes or static tables (next_link.h),
// adaptive placement (adaptive.h) or spraying (spray.h). The trace behind
// `ecmpsim run` and the sweep's general path route through here; only the
// sweep kernel's allocation-free walk of per-hop modes goes its own way. A
// new mode is a row in sim/config/routing_kind.h, its router, and a case here.
#pragma once

#include <cstddef>

#include "sim/fabric/fabric.h"
#include "sim/routing/adaptive.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/next_link.h"
#include "sim/routing/spray.h"
#include "workloads/flow.h"

namespace ecmpsim {

// Calls on_link(f, l, fraction) for every link flow f crosses, in path order
// (fraction 1 unless the mode splits flows), then on_flow(f). A flow with no
// route, or one caught in a loop, is an InputError naming the switch and
// destination.
template <class OnLink, class OnFlow>
void route_flows(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, OnLink&& on_link,
                 OnFlow&& on_flow) {
  switch (fwd.routing()) {
    case RoutingKind::Ecmp:
    case RoutingKind::Static:
      for (std::size_t f = 0; f < flows.size(); ++f) {
        hashing::Tuple t = flows.tuple(f);
        auto hash = [&](std::uint32_t sw, const Hop& hop, HashRole role) {
          hop.apply(t);
          return fwd.hash_for(sw, role).hash(t);
        };
        walk(fabric, fwd, ends_of(fabric, flows, f), hash, [&](LinkId l) { on_link(f, l, 1.0); });
        on_flow(f);
      }
      return;
    case RoutingKind::Adaptive: {
      AdaptiveRouter router(fabric, fwd);
      for (std::size_t f = 0; f < flows.size(); ++f) {
        router.route(ends_of(fabric, flows, f), flows.bytes[f], [&](LinkId l) { on_link(f, l, 1.0); });
        on_flow(f);
      }
      return;
    }
    case RoutingKind::Spray: {
      Sprayer sprayer(fabric, fwd, {fwd.weights().begin(), fwd.weights().end()});
      for (std::size_t f = 0; f < flows.size(); ++f) {
        sprayer.route(ends_of(fabric, flows, f), [&](LinkId l, double fraction) { on_link(f, l, fraction); });
        on_flow(f);
      }
      return;
    }
  }
}

}  // namespace ecmpsim
