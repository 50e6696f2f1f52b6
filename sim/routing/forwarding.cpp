#include "sim/routing/forwarding.h"

#include "sim/fabric/failures.h"

namespace ecmpsim {

Forwarding::Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                       const std::string& source, const workloads::Flows* flows)
    : sets_(&sets),
      ecmp_(fabric, sets, scenario, source),
      source_(source),
      scenario_name_(scenario.name),
      scenario_where_(scenario.where),
      routing_(scenario.routing),
      adaptive_(scenario.adaptive) {
  const RoutingMode& mode = routing_mode(scenario.routing);
  if (mode.tables) static_ = StaticTable(fabric, sets, scenario, flows);
  if (mode.splits) weights_ = link_weights(fabric, scenario.weights);
}

}  // namespace ecmpsim
