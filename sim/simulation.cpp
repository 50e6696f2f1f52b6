#include "sim/simulation.h"

#include <algorithm>

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

std::vector<JobInfo> describe_jobs(const WorkloadSpec& w, const Fabric& fabric) {
  const auto ranks = static_cast<std::uint32_t>(w.nodes == 0 ? fabric.endpoints().size() : w.nodes);
  switch (w.collective) {
    case Collective::RingAllReduce: return {{"ring-allreduce", BusPattern::AllReduce, ranks, w.message}};
  }
  return {};
}

Simulation::Simulation(Spec spec)
    : spec_(std::move(spec)), fabric_(build_fabric(spec_.fabric)), sets_(compute_equal_cost_sets(fabric_)),
      flows_(generate_flows(spec_.workload, fabric_)) {
  prepare();
}

Simulation::Simulation(Spec spec, const workloads::ImportedFlows& imported)
    : spec_(std::move(spec)), fabric_(build_fabric(spec_.fabric)), sets_(compute_equal_cost_sets(fabric_)),
      flows_(place_imported_flows(imported, fabric_)) {
  std::string files;
  for (const auto& f : imported.files) files += (files.empty() ? "" : ",") + f;
  imported_ = ImportedSource{imported.format, files};
  prepare();
}

std::vector<JobInfo> describe_imported_jobs(const workloads::Flows& flows) {
  std::size_t jobs = 0;
  std::uint32_t endpoints = 0;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    jobs = std::max<std::size_t>(jobs, flows.job[f] + 1u);
    endpoints = std::max({endpoints, flows.src[f] + 1, flows.dst[f] + 1});
  }
  std::vector<JobInfo> out(jobs, JobInfo{"imported", BusPattern::SendRecv, 0, Bytes{0}});
  std::vector<std::uint64_t> sent(endpoints);
  std::vector<std::uint8_t> member(endpoints);
  for (std::size_t j = 0; j < jobs; ++j) {
    std::fill(sent.begin(), sent.end(), 0);
    std::fill(member.begin(), member.end(), 0);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (flows.job[f] != j) continue;
      sent[flows.src[f]] += flows.bytes[f];
      member[flows.src[f]] = member[flows.dst[f]] = 1;
    }
    for (std::uint32_t e = 0; e < endpoints; ++e) {
      out[j].message.value = std::max(out[j].message.value, sent[e]);
      out[j].ranks += member[e];
    }
  }
  return out;
}

void Simulation::prepare() {
  for (LinkId l = 0; l < fabric_.links().size(); ++l) {
    const Link& link = fabric_.link(l);
    if (link.up && fabric_.is_switch(link.from) && fabric_.is_switch(link.to)) metric_links_.push_back(l);
    capacity_gbps_.push_back(link.up ? link.speed.value : 0.0);
  }
  jobs_ = imported_ ? describe_imported_jobs(flows_) : describe_jobs(spec_.workload, fabric_);
  const CutBounds cuts(fabric_);
  for (std::uint32_t j = 0; j < jobs_.size(); ++j) job_ideal_s_.push_back(cuts.ideal_s(flows_, j));
  ideal_s_ = cuts.ideal_s(flows_);
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
  r.tiers = tier_imbalance(fabric_, metric_links_, r.trace);
  r.collisions = colliding_pairs(fabric_, sets_, flows_, r.trace);
  FlowModel model;
  model.run({capacity_gbps_, flows_.bytes, r.trace.path_begin, r.trace.path_links}, r.times);
  r.predicted = predict(flows_, r.times, jobs_, job_ideal_s_, ideal_s_);
  return r;
}

std::vector<ScenarioResult> Simulation::run_all() const {
  std::vector<ScenarioResult> out;
  for (const ScenarioSpec& s : spec_.scenarios) out.push_back(run(s));
  return out;
}

}  // namespace ecmpsim
