#include "sim/routing/next_link.h"

#include "sim/base/text.h"

namespace ecmpsim {

FlowEnds ends_of(const Fabric& fabric, const workloads::Flows& flows, std::size_t f) {
  return {fabric.uplink(flows.src[f]), fabric.downlink(flows.dst[f]), flows.dst[f], fabric.tor_of(flows.dst[f]),
          flows.src_ip[f]};
}

void no_route(const Fabric& fabric, const Forwarding& fwd, std::uint32_t sw, const FlowEnds& e, bool loop) {
  const Node& d = fabric.node(fabric.endpoint_node(e.dst));
  // The scenario's own table when the config has one (the default scenario has none).
  SourcePos where = fwd.scenario_where();
  if (where.file != fwd.source()) where = {fwd.source(), 0, 0, {}};
  where.field = "scenario '" + fwd.scenario_name() + "'";
  if (fwd.is_static())
    if (auto origin = fwd.route_origin(sw, e.dst, e.src_ip)) where = *origin;
  throw InputError(where, std::string(loop ? "routing loop" : "no route") + " on switch '" +
                              fabric.node(fabric.switches()[sw]).name + "' for destination " + d.name + " (" +
                              hashing::format_ip(d.ip) + ")");
}

}  // namespace ecmpsim
