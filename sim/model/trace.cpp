#include "sim/model/trace.h"

#include "sim/routing/next_link.h"

namespace ecmpsim {

void route_and_count(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out) {
  out.link_flows.assign(fabric.links().size(), 0);
  out.link_bytes.assign(fabric.links().size(), 0);
  out.path_begin.assign(1, 0);
  out.path_begin.reserve(flows.size() + 1);
  out.path_links.clear();
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
