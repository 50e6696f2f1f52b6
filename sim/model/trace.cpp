#include "sim/model/trace.h"

#include <cmath>

#include "sim/routing/route_flows.h"

namespace ecmpsim {

void route_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out) {
  const std::size_t links = fabric.links().size();
  out.link_flows.assign(links, 0);
  out.link_bytes.assign(links, 0);
  out.path_begin.assign(1, 0);
  out.path_begin.reserve(flows.size() + 1);
  out.path_links.clear();
  out.split_fraction.clear();
  out.link_share.clear();
  out.link_share_bytes.clear();
  // A split flow's bytes are counted as shares, rounded once at the end.
  const bool splits = routing_mode(fwd.routing()).splits;
  if (splits) {
    out.link_share.assign(links, 0.0);
    out.link_share_bytes.assign(links, 0.0);
  }
  route_flows(
      fabric, fwd, flows,
      [&](std::size_t f, LinkId l, double fraction) {
        out.path_links.push_back(l);
        ++out.link_flows[l];
        if (!splits) {
          out.link_bytes[l] += flows.bytes[f];
          return;
        }
        out.split_fraction.push_back(fraction);
        out.link_share[l] += fraction;
        out.link_share_bytes[l] += fraction * static_cast<double>(flows.bytes[f]);
      },
      [&](std::size_t) { out.path_begin.push_back(static_cast<std::uint32_t>(out.path_links.size())); });
  if (splits)
    for (LinkId l = 0; l < links; ++l)
      out.link_bytes[l] = static_cast<std::uint64_t>(std::llround(out.link_share_bytes[l]));
}

}  // namespace ecmpsim
