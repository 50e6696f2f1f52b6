// One experiment as an ordinary value: the fabric, its routes and flows,
// evaluated under every scenario of the spec.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/fabric.h"
#include "sim/forwarding.h"
#include "sim/metrics.h"
#include "sim/routes.h"
#include "sim/spec.h"
#include "sim/trace.h"
#include "workloads/flow.h"

namespace ecmpsim {

struct ScenarioResult {
  const ScenarioSpec* spec = nullptr;
  Trace trace;
  Imbalance flows;  // over the scenario's working switch-to-switch links, by flow count
  Imbalance bytes;  // the same links, by bytes
  std::vector<std::uint8_t> down;  // per LinkId, 1 if the scenario took it down; empty if none
  bool is_down(LinkId l) const { return !down.empty() && down[l] != 0; }
};

class Simulation {
 public:
  explicit Simulation(Spec spec);

  const Spec& spec() const noexcept { return spec_; }
  const Fabric& fabric() const noexcept { return fabric_; }
  // The healthy fabric's equal-cost sets.
  const EqualCostSets& sets() const noexcept { return *healthy_; }
  // The sets for a scenario's failure set: computed once per distinct set of
  // down links for the spec's scenarios, on demand for any other scenario.
  std::shared_ptr<const EqualCostSets> sets_for(const ScenarioSpec& scenario) const;
  const workloads::Flows& flows() const noexcept { return flows_; }
  // The links metrics are taken over: every switch-to-switch link, both
  // directions (a scenario leaves out the ones it takes down).
  const std::vector<LinkId>& metric_links() const noexcept { return metric_links_; }

  ScenarioResult run(const ScenarioSpec& scenario) const;
  std::vector<ScenarioResult> run_all() const;

 private:
  Spec spec_;
  Fabric fabric_;
  std::shared_ptr<const EqualCostSets> healthy_;
  std::vector<std::pair<std::vector<std::uint8_t>, std::shared_ptr<const EqualCostSets>>> by_failure_;
  workloads::Flows flows_;
  std::vector<LinkId> metric_links_;
};

// Flows of the spec's workload on the fabric.
workloads::Flows generate_flows(const WorkloadSpec& w, const Fabric& fabric);

}  // namespace ecmpsim
