#include "sim/routing/forwarding.h"

namespace ecmpsim {

Forwarding::Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                       const std::string& source, const workloads::Flows* flows)
    : sets_(&sets), ecmp_(fabric, sets, scenario, source), source_(source), scenario_name_(scenario.name),
      scenario_where_(scenario.where) {
  if (scenario.routing == RoutingKind::Static) static_ = StaticTable(fabric, sets, scenario, flows);
}

}  // namespace ecmpsim
