// `flows` (see flows.h).
#include "sim/app/flows.h"

#include <algorithm>

#include "sim/app/load.h"
#include "sim/base/error.h"
#include "sim/config/overrides.h"
#include "sim/output/flows_output.h"
#include "sim/routing/flow_label_note.h"

namespace ecmpsim::app {

FlowsReport flows(const FlowsRequest& q) { return flows(load_spec(q.config, q.limits), q); }

FlowsReport flows(Spec spec, const FlowsRequest& q) {
  FlowsReport r;
  r.inputs = spec_inputs(spec);
  if (q.scenario.empty()) {
    r.spec = std::make_shared<const Spec>(std::move(spec));
    r.fabric = std::make_shared<const Fabric>(fabric_for(*r.spec));
    r.flows = generate_flows(*r.spec, *r.fabric);
    if (const auto note = flow_label_note(*r.spec, r.fabric->family())) r.notes.push_back("note: " + *note);
    return r;
  }
  const auto it = std::find_if(spec.scenarios.begin(), spec.scenarios.end(),
                               [&](const ScenarioSpec& s) { return s.name == q.scenario; });
  if (it == spec.scenarios.end()) throw InputError(option_at("scenario"), no_scenario_named(spec, q.scenario));
  if (it->sports != SportPlan::Planned)
    throw InputError(option_at("scenario"), "scenario '" + it->name +
                                                   "' does not plan its source ports (sports = \"planned\"): its "
                                                   "flows are the workload's, printed without " + option_ref("scenario"));
  const std::size_t which = static_cast<std::size_t>(it - spec.scenarios.begin());
  auto sim = std::make_shared<const Simulation>(std::move(spec));
  r.plan = sim->plan_ports(sim->spec().scenarios[which]);
  r.sim = std::move(sim);
  return r;
}

Result FlowsReport::result() const {
  if (sim) return flows_result(sim->spec(), sim->fabric(), sim->flows(), &*plan);
  return flows_result(*spec, *fabric, flows);
}

}  // namespace ecmpsim::app
