// A job's traffic under another collective shape, routed beside the other
// jobs' flows: what the size table prices NCCL's tree-shaped algorithms on
// (sim/model/size_table.cpp).
#include <algorithm>

#include "sim/model/nccl_derive.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/routing/port_plan.h"

namespace ecmpsim {

namespace {

// Job j's flows as collective `shape`: the parameters generate_flows gives it.
workloads::Flows shape_flows(const Spec& spec, const Fabric& fabric, std::uint32_t j,
                             std::span<const std::uint32_t> servers, workloads::Collective shape) {
  const JobSpec& job = spec.jobs[j];
  const auto endpoints = fabric.endpoints();
  std::vector<hashing::IpAddr> ips(endpoints.size());
  for (std::size_t e = 0; e < endpoints.size(); ++e) ips[e] = fabric.node(endpoints[e]).ip;
  const workloads::CollectiveParams p = collective_params(job, shape);
  workloads::QpnAllocator qpns(endpoints.size(), job.roce);
  workloads::FlowMaker maker(job.roce, qpns, ips, static_cast<std::uint16_t>(j), shape);
  maker.set_max_flows(spec.limits.max_flows);
  workloads::Flows out;
  workloads::generate(p, job_layout(spec, job, fabric, servers), maker, out);
  return out;
}

}  // namespace

Simulation::ShapeTime Simulation::job_shape_time(std::uint32_t j, workloads::Collective shape,
                                                 const ScenarioSpec& scenario, bool lockstep) const {
  workloads::Flows flows;
  for (std::size_t f = 0; f < flows_.size(); ++f)
    if (flows_.job[f] != j) flows.push_back(flows_[f]);
  const workloads::Flows mine = shape_flows(spec_, fabric_, j, job_servers_[j], shape);
  for (std::size_t f = 0; f < mine.size(); ++f) flows.push_back(mine[f]);
  const auto sets = sets_for(scenario);
  const Forwarding fwd(fabric_, *sets, scenario, spec_.source, &flows);
  if (plans_ports(scenario)) flows = with_ports(flows, ecmpsim::plan_ports(fabric_, fwd, flows, scenario));
  Trace trace;
  route_and_count(fabric_, fwd, flows, trace);
  std::vector<Gbps> capacity = capacity_;
  for (LinkId l = 0; l < capacity.size(); ++l)
    if (sets->down().size() > l && sets->down()[l]) capacity[l] = Gbps{0};
  const FlowNetwork net{capacity, flows.bytes, trace.path_begin, trace.path_links, trace.split_fraction};
  ShapeTime out;
  if (lockstep) {
    out.time = lockstep_times(net, flows.job, flows.channel, jobs_.size())[j];
  } else {
    FlowModel model;
    FlowTimes times;
    model.run(net, times);
    for (std::size_t f = 0; f < flows.size(); ++f)
      if (flows.job[f] == j) out.time = std::max(out.time, times.finish[f]);
  }
  const std::uint32_t per_domain = domain_servers(spec_.fabric);
  std::vector<std::uint64_t> sent(fabric_.server_count() / per_domain + 1, 0);
  for (std::size_t f = 0; f < mine.size(); ++f) sent[fabric_.server_of(mine.src[f]) / per_domain] += mine.bytes[f];
  out.node_bytes = *std::max_element(sent.begin(), sent.end());
  return out;
}

}  // namespace ecmpsim
