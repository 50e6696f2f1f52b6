// One experiment as an ordinary value: the fabric, its routes and flows,
// evaluated under every scenario of the spec.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/fabric.h"
#include "sim/forwarding.h"
#include "sim/metrics.h"
#include "sim/routes.h"
#include "sim/spec.h"
#include "sim/trace.h"
#include "workloads/flow.h"
#include "workloads/import.h"

namespace ecmpsim {

struct ScenarioResult {
  const ScenarioSpec* spec = nullptr;
  Trace trace;
  Imbalance flows;  // over the scenario's working switch-to-switch links, by flow count
  Imbalance bytes;  // the same links, by bytes
  std::vector<std::uint8_t> down;  // per LinkId, 1 if the scenario took it down; empty if none
  bool is_down(LinkId l) const { return !down.empty() && down[l] != 0; }
};

// Where imported flows came from (`ecmpsim run --flows`), for the reports.
struct ImportedSource {
  std::string format;  // "csv", "rdma" or "pcap"
  std::string files;   // comma-separated
};

class Simulation {
 public:
  explicit Simulation(Spec spec);
  // The imported flows replace the spec's workload; they are placed on the
  // endpoints owning their addresses (InputError for an unknown address).
  Simulation(Spec spec, const workloads::ImportedFlows& imported);

  const Spec& spec() const noexcept { return spec_; }
  const Fabric& fabric() const noexcept { return fabric_; }
  // The healthy fabric's equal-cost sets.
  const EqualCostSets& sets() const noexcept { return *healthy_; }
  // The sets for a scenario's failure set: computed once per distinct set of
  // down links for the spec's scenarios, on demand for any other scenario.
  std::shared_ptr<const EqualCostSets> sets_for(const ScenarioSpec& scenario) const;
  const workloads::Flows& flows() const noexcept { return flows_; }
  // Set when the flows were imported rather than generated from the spec.
  const std::optional<ImportedSource>& imported() const noexcept { return imported_; }
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
  std::optional<ImportedSource> imported_;
  std::vector<LinkId> metric_links_;

  void find_metric_links();  // and the failure sets of the spec's scenarios
};

// Flows of the spec's jobs on the fabric, job by job. Each job takes its
// nodes among those no earlier job took; placement errors are InputErrors
// pointing at the job's config.
workloads::Flows generate_flows(const Spec& spec, const Fabric& fabric);

}  // namespace ecmpsim
