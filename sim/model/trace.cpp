#include "sim/model/trace.h"

#include "sim/base/parse.h"

namespace ecmpsim {

namespace {

[[noreturn]] void no_route(const Fabric& fabric, const Forwarding& fwd, NodeId sw, std::uint32_t dst,
                           std::uint32_t src_ip, bool loop) {
  const Node& d = fabric.node(fabric.endpoint_node(dst));
  // A static decision that came from an explicit route points at that route.
  // Otherwise (a generated entry, a missing route) it names the config and scenario.
  SourcePos where{fwd.source(), 0, 0, "scenario '" + fwd.scenario_name() + "'"};
  if (fwd.is_static())
    if (auto origin = fwd.route_origin(fabric.switch_index(sw), dst, src_ip)) where = *origin;
  throw InputError(where, std::string(loop ? "routing loop" : "no route") + " on switch '" +
                                       fabric.node(sw).name + "' for destination " + d.name + " (" +
                                       format_ipv4(d.ip) + ")");
}

// The ingress port number a packet arriving over `in` has on its switch:
// the position of the reverse link among the switch's ports.
std::uint16_t in_port(const Fabric& fabric, LinkId in) {
  const Link& l = fabric.link(in);
  const auto ports = fabric.out_links(l.to);
  for (std::size_t i = 0; i < ports.size(); ++i)
    if (ports[i] == l.reverse) return static_cast<std::uint16_t>(i);
  return 0;
}

}  // namespace

void trace(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, Trace& out) {
  out.link_flows.assign(fabric.links().size(), 0);
  out.link_bytes.assign(fabric.links().size(), 0);
  out.path_begin.assign(1, 0);
  out.path_begin.reserve(flows.size() + 1);
  out.path_links.clear();
  const EqualCostSets& sets = fwd.sets();
  const std::size_t max_hops = fabric.switches().size() + 1;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const std::uint32_t dst = flows.dst[f];
    const std::uint32_t dst_tor = fabric.tor_of(dst);
    hashing::Tuple t{flows.src_ip[f], flows.dst_ip[f], flows.proto[f], flows.sport[f], flows.dport[f], 0,
                     flows.rqpn[f], 0};
    LinkId link = fabric.uplink(flows.src[f]);
    for (std::size_t hop = 0;; ++hop) {
      out.path_links.push_back(link);
      ++out.link_flows[link];
      out.link_bytes[link] += flows.bytes[f];
      const NodeId at = fabric.link(link).to;
      if (!fabric.is_switch(at)) break;
      if (hop >= max_hops) no_route(fabric, fwd, at, dst, t.src_ip, true);
      const std::uint32_t s = fabric.switch_index(at);
      if (fabric.tor_index(at) == dst_tor) {
        link = fabric.downlink(dst);
      } else if (fwd.is_static()) {
        link = fwd.static_next(s, dst, t.src_ip);
        if (link == kNone) no_route(fabric, fwd, at, dst, t.src_ip, false);
      } else {
        const std::uint32_t g = sets.group(s, dst_tor);
        if (g == EqualCostSets::kNoGroup) no_route(fabric, fwd, at, dst, t.src_ip, false);
        const SwitchHash& h = fwd.hash_of(s);
        t.in_port = in_port(fabric, link);
        link = sets.members(g)[fwd.select(g, h, h.hash(t))];
      }
    }
    out.path_begin.push_back(static_cast<std::uint32_t>(out.path_links.size()));
  }
}

}  // namespace ecmpsim
