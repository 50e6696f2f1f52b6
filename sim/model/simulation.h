// One experiment as an ordinary value: the fabric, its routes and flows,
// evaluated under every scenario of the spec.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/model/flow_model.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/port_plan.h"
#include "sim/model/link_metrics.h"
#include "sim/model/metrics.h"
#include "sim/model/prediction.h"
#include "sim/routing/routes.h"
#include "sim/config/spec.h"
#include "sim/model/trace.h"
#include "workloads/flow.h"
#include "workloads/import/import.h"

namespace ecmpsim {

struct ScenarioResult {
  const ScenarioSpec* spec = nullptr;  // the scenario run() was given; it must outlive the result
  Trace trace;
  Imbalance flows;  // over the scenario's working switch-to-switch links, by flow count
  Imbalance bytes;  // the same links, by bytes
  std::vector<std::uint8_t> down;  // per LinkId, 1 if the scenario took it down; empty if none
  bool is_down(LinkId l) const { return !down.empty() && down[l] != 0; }
  std::vector<TierImbalance> tiers;  // the same links, per tier
  std::uint64_t collisions = 0;      // colliding flow pairs (sim/model/link_metrics.h)
  bool modelled = true;              // false under `run --no-slowdown`: times and predicted stay empty
  FlowTimes times;                   // per flow: max-min rate at start, finish time
  Prediction predicted;              // per job and overall: completion, ideal, slowdown, busbw
  std::optional<PortPlan> plan;      // sports = "planned": the ports the flows were routed with
  // A flow's UDP source port in this scenario: the plan's, or the workload's.
  std::uint16_t sport(const workloads::Flows& flows, std::size_t f) const {
    return plan ? plan->sport[f] : flows.sport[f];
  }
};

// What Simulation::run computes beyond routes and metrics.
struct RunOptions {
  bool model = true;                 // false skips the max-min flow model (`run --no-slowdown`)
  FlowProgress* progress = nullptr;  // kept up to date by the flow model, for a progress line
};

// Where imported flows came from (`ecmpsim run --flows`), for the reports.
struct ImportedSource {
  std::string format;  // "csv", "rdma" or "pcap"
  std::string files;   // comma-separated: the flows files (rdma: the dumps)
  std::string map;     // rdma: the host map; empty otherwise
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
  // Per job id: what it is (for its bus bandwidth) and its ideal time alone on the fabric.
  const std::vector<JobInfo>& jobs() const noexcept { return jobs_; }
  const std::vector<Seconds>& job_ideal() const noexcept { return job_ideal_; }
  // The ideal time of all flows together.
  Seconds ideal() const noexcept { return ideal_; }
  // The fabric's cuts, for the ideal time of any other flows on it.
  const CutBounds& cuts() const noexcept { return *cuts_; }
  // Per link: its speed, 0 when the fabric has it down (a scenario may take more down).
  const std::vector<Gbps>& capacity() const noexcept { return capacity_; }

  ScenarioResult run(const ScenarioSpec& scenario, const RunOptions& options = {}) const;
  // The source-port plan of a planned-ports scenario (sim/routing/port_plan.h)
  // for these flows; InputError as plan_ports() throws it.
  PortPlan plan_ports(const ScenarioSpec& scenario) const;
  std::vector<ScenarioResult> run_all(const RunOptions& options = {}) const;

 private:
  Spec spec_;
  Fabric fabric_;
  std::shared_ptr<const EqualCostSets> healthy_;
  std::vector<std::pair<std::vector<std::uint8_t>, std::shared_ptr<const EqualCostSets>>> by_failure_;
  workloads::Flows flows_;
  std::optional<ImportedSource> imported_;
  std::vector<LinkId> metric_links_;
  std::vector<Gbps> capacity_;  // per link, 0 when down
  std::vector<JobInfo> jobs_;
  std::vector<Seconds> job_ideal_;
  Seconds ideal_;
  std::optional<CutBounds> cuts_;

  // Everything derived from the fabric and the flows once: metric links,
  // capacities, jobs and their ideal times, and the failure sets of the spec's
  // scenarios.
  void prepare();
};

// The spec's fabric, refused past --max-hosts, --max-switches or --max-links
// before it is built; errors without a file of their own name the config.
Fabric fabric_for(const Spec& spec);

// The nodes (server indices, rank order) of each of the spec's jobs, placed
// as generate_flows places them.
std::vector<std::vector<std::uint32_t>> place_jobs(const Spec& spec, const Fabric& fabric);
// Flows of the spec's jobs on the fabric, job by job. Each job takes its
// nodes among those no earlier job took; placement errors are InputErrors
// pointing at the job's config, and so is a workload past --max-flows.
workloads::Flows generate_flows(const Spec& spec, const Fabric& fabric);
// The spec's jobs, indexed by the flows' job id: collective, bus pattern,
// ranks (the nodes the job's flows touch x gpus_per_node) and S.
std::vector<JobInfo> describe_jobs(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows);
// Imported flows carry no collective: each job id present is an "imported"
// job with bus factor 1 (send/recv) and S = the most bytes any one endpoint of
// it sends, so its busbw is the busiest sender's throughput, comparable to the NIC speed.
std::vector<JobInfo> describe_imported_jobs(const workloads::Flows& flows);

}  // namespace ecmpsim
