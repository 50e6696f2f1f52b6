#include "sim/simulation.h"

#include "sim/flows_import.h"
#include "workloads/placement.h"
#include "workloads/ring.h"

namespace ecmpsim {

workloads::Flows generate_flows(const WorkloadSpec& w, const Fabric& fabric) {
  const auto endpoints = fabric.endpoints();
  std::vector<std::uint32_t> ips(endpoints.size());
  for (std::size_t e = 0; e < endpoints.size(); ++e) ips[e] = fabric.node(endpoints[e]).ip;
  const std::size_t count = w.nodes == 0 ? endpoints.size() : w.nodes;
  const auto ring = workloads::place(w.placement, fabric.tor_of_endpoints(), count);
  workloads::QpnAllocator qpns(endpoints.size(), w.qpn_base, w.qpn_stride);
  workloads::Flows flows;
  workloads::RingAllReduce p{w.message.value, w.channels, w.qps_per_connection, 0};
  workloads::ring_allreduce(p, ring, ips, qpns, flows);
  return flows;
}

Simulation::Simulation(Spec spec)
    : spec_(std::move(spec)), fabric_(build_fabric(spec_.fabric)), sets_(compute_equal_cost_sets(fabric_)),
      flows_(generate_flows(spec_.workload, fabric_)) {
  find_metric_links();
}

Simulation::Simulation(Spec spec, const workloads::ImportedFlows& imported)
    : spec_(std::move(spec)), fabric_(build_fabric(spec_.fabric)), sets_(compute_equal_cost_sets(fabric_)),
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
}

ScenarioResult Simulation::run(const ScenarioSpec& scenario) const {
  ScenarioResult r;
  r.spec = &scenario;
  const Forwarding fwd(fabric_, sets_, scenario, spec_.source);
  trace(fabric_, fwd, flows_, r.trace);
  std::vector<double> by_flows, by_bytes;
  by_flows.reserve(metric_links_.size());
  by_bytes.reserve(metric_links_.size());
  for (LinkId l : metric_links_) {
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
