// One experiment as an ordinary value: the fabric, its routes and flows,
// evaluated under every scenario of the spec.
#pragma once

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
  Imbalance flows;  // over switch-to-switch links, by flow count
  Imbalance bytes;  // the same links, by bytes
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
  const EqualCostSets& sets() const noexcept { return sets_; }
  const workloads::Flows& flows() const noexcept { return flows_; }
  // Set when the flows were imported rather than generated from the spec.
  const std::optional<ImportedSource>& imported() const noexcept { return imported_; }
  // The links metrics are taken over: every working switch-to-switch link, both directions.
  const std::vector<LinkId>& metric_links() const noexcept { return metric_links_; }

  ScenarioResult run(const ScenarioSpec& scenario) const;
  std::vector<ScenarioResult> run_all() const;

 private:
  Spec spec_;
  Fabric fabric_;
  EqualCostSets sets_;
  workloads::Flows flows_;
  std::optional<ImportedSource> imported_;
  std::vector<LinkId> metric_links_;

  void find_metric_links();
};

// Flows of the spec's jobs on the fabric, job by job. Each job takes its
// nodes among those no earlier job took; placement errors are InputErrors
// pointing at the job's config.
workloads::Flows generate_flows(const Spec& spec, const Fabric& fabric);

}  // namespace ecmpsim
