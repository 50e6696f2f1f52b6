#include "sim/simulation.h"

#include "sim/failures.h"
#include "sim/flows_import.h"
#include "workloads/placement.h"
#include "workloads/ring.h"

namespace ecmpsim {

workloads::Flows generate_flows(const WorkloadSpec& w, const Fabric& fabric) {
  const auto endpoints = fabric.endpoints();
  std::vector<std::uint32_t> ips(endpoints.size());
  for (std::size_t e = 0; e < endpoints.size(); ++e) ips[e] = fabric.node(endpoints[e]).ip;
  const std::size_t count = w.nodes == 0 ? endpoints.size() : w.nodes;
  if (count > endpoints.size())
    throw InputError({{}, 0, 0, "workload.nodes"}, "job has " + std::to_string(count) +
                                                       " nodes but the fabric has only " +
                                                       std::to_string(endpoints.size()) + " endpoints");
  const auto ring = workloads::place(w.placement, fabric.tor_of_endpoints(), count);
  workloads::QpnAllocator qpns(endpoints.size(), w.qpn_base, w.qpn_stride);
  workloads::Flows flows;
  workloads::RingAllReduce p{w.message.value, w.channels, w.qps_per_connection, 0};
  workloads::ring_allreduce(p, ring, ips, qpns, flows);
  return flows;
}

namespace {

// Errors from building the fabric that carry no file belong to the config.
Fabric fabric_of(const Spec& spec) {
  try {
    return build_fabric(spec.fabric);
  } catch (const InputError& e) {
    if (!e.where().file.empty()) throw;
    SourcePos p = e.where();
    p.file = spec.source;
    throw InputError(p, e.what());
  }
}

// The failure set of a scenario, checked: the fabric must stay connected.
std::vector<std::uint8_t> failure_mask(const Fabric& fabric, const ScenarioSpec& s) {
  auto mask = down_mask(fabric, s.down);
  if (!mask.empty()) {
    SourcePos at = s.down.front().where;
    try {
      check_connected(fabric, mask, at);
    } catch (const InputError& e) {
      throw InputError(at, "scenario '" + s.name + "': with these links down " + e.what());
    }
  }
  return mask;
}

}  // namespace

Simulation::Simulation(Spec spec)
    : spec_(std::move(spec)),
      fabric_(fabric_of(spec_)),
      healthy_(std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_))),
      flows_(generate_flows(spec_.workload, fabric_)) {
  find_metric_links();
}

Simulation::Simulation(Spec spec, const workloads::ImportedFlows& imported)
    : spec_(std::move(spec)),
      fabric_(fabric_of(spec_)),
      healthy_(std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_))),
      flows_(place_imported_flows(imported, fabric_)) {
  std::string files;
  for (const auto& f : imported.files) files += (files.empty() ? "" : ",") + f;
  imported_ = ImportedSource{imported.format, files};
  find_metric_links();
}

void Simulation::find_metric_links() {
  for (LinkId l = 0; l < fabric_.links().size(); ++l) {
    const Link& link = fabric_.link(l);
    if (link.up && fabric_.is_switch(link.from) && fabric_.is_switch(link.to)) metric_links_.push_back(l);
  }
  for (const ScenarioSpec& s : spec_.scenarios) {
    auto mask = failure_mask(fabric_, s);
    if (mask.empty()) continue;
    bool known = false;
    for (const auto& [m, sets] : by_failure_) known = known || m == mask;
    if (!known) {
      auto sets = std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_, mask));
      by_failure_.emplace_back(std::move(mask), std::move(sets));
    }
  }
}

std::shared_ptr<const EqualCostSets> Simulation::sets_for(const ScenarioSpec& scenario) const {
  auto mask = failure_mask(fabric_, scenario);
  if (mask.empty()) return healthy_;
  for (const auto& [m, sets] : by_failure_)
    if (m == mask) return sets;
  return std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_, mask));
}

ScenarioResult Simulation::run(const ScenarioSpec& scenario) const {
  ScenarioResult r;
  r.spec = &scenario;
  const auto sets = sets_for(scenario);
  r.down.assign(sets->down().begin(), sets->down().end());
  const Forwarding fwd(fabric_, *sets, scenario, spec_.source, &flows_);
  trace(fabric_, fwd, flows_, r.trace);
  std::vector<double> by_flows, by_bytes;
  by_flows.reserve(metric_links_.size());
  by_bytes.reserve(metric_links_.size());
  for (LinkId l : metric_links_) {
    if (r.is_down(l)) continue;
    by_flows.push_back(r.trace.link_flows[l]);
    by_bytes.push_back(static_cast<double>(r.trace.link_bytes[l]));
  }
  r.flows = imbalance(by_flows);
  r.bytes = imbalance(by_bytes);
  return r;
}

std::vector<ScenarioResult> Simulation::run_all() const {
  std::vector<ScenarioResult> out;
  for (const ScenarioSpec& s : spec_.scenarios) out.push_back(run(s));
  return out;
}

}  // namespace ecmpsim
