#include "sim/model/trace.h"

#include <cmath>

#include "sim/routing/adaptive.h"
#include "sim/routing/spray.h"
#include "sim/routing/next_link.h"

namespace ecmpsim {
namespace {

void spray_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out) {
  Sprayer sprayer(fabric, fwd, {fwd.weights().begin(), fwd.weights().end()});
  out.link_share.assign(fabric.links().size(), 0.0);
  out.link_share_bytes.assign(fabric.links().size(), 0.0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const auto bytes = static_cast<double>(flows.bytes[f]);
    sprayer.route(ends_of(fabric, flows, f), [&](LinkId l, double fraction) {
      out.path_links.push_back(l);
      out.split_fraction.push_back(fraction);
      ++out.link_flows[l];
      out.link_share[l] += fraction;
      out.link_share_bytes[l] += fraction * bytes;
    });
    out.path_begin.push_back(static_cast<std::uint32_t>(out.path_links.size()));
  }
  for (LinkId l = 0; l < fabric.links().size(); ++l)
    out.link_bytes[l] = static_cast<std::uint64_t>(std::llround(out.link_share_bytes[l]));
}

}  // namespace

void route_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out) {
  out.link_flows.assign(fabric.links().size(), 0);
  out.link_bytes.assign(fabric.links().size(), 0);
  out.path_begin.assign(1, 0);
  out.path_begin.reserve(flows.size() + 1);
  out.path_links.clear();
  out.split_fraction.clear();
  out.link_share.clear();
  out.link_share_bytes.clear();
  if (fwd.routing() == RoutingKind::Spray) {
    spray_and_count(fabric, fwd, flows, out);
    return;
  }
  if (fwd.routing() == RoutingKind::Adaptive) {
    AdaptiveRouter router(fabric, fwd);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      router.route(ends_of(fabric, flows, f), flows.bytes[f], [&](LinkId l) {
        out.path_links.push_back(l);
        ++out.link_flows[l];
        out.link_bytes[l] += flows.bytes[f];
      });
      out.path_begin.push_back(static_cast<std::uint32_t>(out.path_links.size()));
    }
    return;
  }
  for (std::size_t f = 0; f < flows.size(); ++f) {
    hashing::Tuple t = flows.tuple(f);
    auto hash = [&](std::uint32_t sw, const Hop& hop) {
      hop.apply(t);
      return fwd.hash_of(sw).hash(t);
    };
    walk(fabric, fwd, ends_of(fabric, flows, f), hash, [&](LinkId l) {
      out.path_links.push_back(l);
      ++out.link_flows[l];
      out.link_bytes[l] += flows.bytes[f];
    });
    out.path_begin.push_back(static_cast<std::uint32_t>(out.path_links.size()));
  }
}

}  // namespace ecmpsim
