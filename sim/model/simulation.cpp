#include "sim/model/simulation.h"

#include <algorithm>
#include <exception>
#include <limits>

#include "sim/base/parallel.h"
#include "sim/fabric/failures.h"
#include "sim/model/flows_import.h"
#include "sim/model/memory.h"
#include "sim/model/nccl_derive.h"
#include "sim/model/replay_flows.h"
#include "workloads/generators/job.h"
#include "workloads/generators/placement.h"
#include "workloads/traces/join.h"

namespace ecmpsim {

namespace {

// The job's nodes (fabric server indices) in rank order; marks them taken.
std::vector<std::uint32_t> place_job(const JobSpec& job, const Fabric& fabric, std::vector<std::uint8_t>& taken) {
  const std::uint32_t servers = fabric.server_count();
  std::vector<std::uint32_t> nodes;
  if (job.placement == workloads::Placement::List) {
    for (const std::string& name : job.hosts) {
      const std::uint32_t s = fabric.find_server(name);
      if (s == kNone) throw InputError(job.hosts_at, "unknown node '" + name + "'");
      if (taken[s]) throw InputError(job.hosts_at, "node '" + name + "' is already used (by this or an earlier job)");
      taken[s] = 1;
      nodes.push_back(s);
    }
    return nodes;
  }
  const auto free = static_cast<std::uint32_t>(std::count(taken.begin(), taken.end(), std::uint8_t{0}));
  const std::uint32_t want = job.nodes == 0 ? free : job.nodes;
  if (want > free || want == 0)
    throw InputError(job.nodes_at, "job '" + job.name + "' needs " + std::to_string(want) + " nodes but only " +
                                       std::to_string(free) + " of the fabric's " + std::to_string(servers) +
                                       (free == 1 ? " nodes is free" : " nodes are free"));
  std::vector<std::uint32_t> tor_of(servers);
  for (std::uint32_t s = 0; s < servers; ++s) tor_of[s] = fabric.tor_of(fabric.server_nics(s)[0]);
  nodes = workloads::place(job.placement, tor_of, want, job.seed, taken);
  for (std::uint32_t s : nodes) taken[s] = 1;
  return nodes;
}

}  // namespace

std::vector<std::vector<std::uint32_t>> place_jobs(const Spec& spec, const Fabric& fabric) {
  std::vector<std::uint8_t> taken(fabric.server_count(), 0);
  std::vector<std::vector<std::uint32_t>> out;
  for (const JobSpec& job : spec.jobs) out.push_back(place_job(job, fabric, taken));
  return out;
}

workloads::Flows generate_flows(const Spec& spec, const Fabric& fabric,
                                std::span<const std::vector<std::uint32_t>> servers) {
  const auto endpoints = fabric.endpoints();
  std::vector<hashing::IpAddr> ips(endpoints.size());
  for (std::size_t e = 0; e < endpoints.size(); ++e) ips[e] = fabric.node(endpoints[e]).ip;
  workloads::Flows flows;
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& job = spec.jobs[j];
    if (job.kind == workloads::JobKind::Training) {
      // Every collective of the step at once: what routing does to the step's traffic.
      const auto step = workloads::step_trace(workloads::training_step(job.training));
      const workloads::Flows made = expand_collectives(spec, fabric, step, {}, j).flows;
      for (std::size_t f = 0; f < made.size(); ++f) flows.push_back(made[f]);
      continue;
    }
    const workloads::JobLayout layout = job_layout(spec, job, fabric, servers[j]);
    const workloads::CollectiveParams p = collective_params(job, job.collective);
    workloads::QpnAllocator qpns(endpoints.size(), job.roce);
    workloads::FlowMaker maker(job.roce, qpns, ips, static_cast<std::uint16_t>(j), job.collective);
    maker.set_max_flows(spec.limits.max_flows);
    try {
      workloads::generate(p, layout, maker, flows);
    } catch (const workloads::FlowLimitExceeded&) {
      throw InputError(option_at("max_flows", spec.source), "job '" + job.name + "' takes the workload past " +
                                                               std::to_string(spec.limits.max_flows) + " flows");
    }
  }
  return flows;
}

workloads::Flows generate_flows(const Spec& spec, const Fabric& fabric) {
  return generate_flows(spec, fabric, place_jobs(spec, fabric));
}

Fabric fabric_for(const Spec& spec) {
  const std::uint64_t hosts = endpoint_count(spec.fabric);
  if (hosts > spec.limits.max_hosts)
    throw InputError(option_at("max_hosts", spec.source),
                     "the fabric has " + over_limit(hosts, "NIC endpoints", spec.limits.max_hosts));
  const FabricCounts counts = fabric_counts(spec.fabric);
  if (counts.switches > spec.limits.max_switches)
    throw InputError(option_at("max_switches", spec.source),
                     "the fabric has " + over_limit(counts.switches, "switches", spec.limits.max_switches));
  if (counts.cables > spec.limits.max_links)
    throw InputError(option_at("max_links", spec.source),
                     "the fabric has " + over_limit(counts.cables, "cables", spec.limits.max_links));
  // Before anything is allocated: the fabric and its routing tables must fit.
  check_memory(routing_memory(spec), spec, "the fabric with its routing tables");
  try {
    return build_fabric(spec.fabric);
  } catch (const InputError& e) {
    if (!e.where().file.empty()) throw;
    SourcePos p = e.where();
    p.file = spec.source;
    throw InputError(p, e.what());
  }
}

namespace {

// The failure set of a scenario, checked: the fabric must stay connected.
// When it does not, the error points at the `down` entry that cut it: the
// first whose prefix of the list disconnects (more down links never
// reconnect, so the prefixes are searched by halving).
std::vector<std::uint8_t> failure_mask(const Fabric& fabric, const ScenarioSpec& s) {
  auto mask = down_mask(fabric, s.down);
  if (mask.empty() || unreachable_endpoint(fabric, mask) == kNone) return mask;
  const std::span<const LinkRef> refs(s.down);
  std::size_t lo = 1, hi = refs.size();  // the shortest cutting prefix has length in [lo, hi]
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (unreachable_endpoint(fabric, down_mask(fabric, refs.first(mid))) != kNone)
      hi = mid;
    else
      lo = mid + 1;
  }
  const SourcePos at = refs[lo - 1].where;
  try {
    check_connected(fabric, mask, at);
  } catch (const InputError& e) {
    throw InputError(at, "scenario '" + s.name + "': with these links down " + e.what());
  }
  return mask;
}

}  // namespace

BusPattern bus_pattern(workloads::Collective c) {
  switch (workloads::collective_info(c).op) {
    case workloads::CollectiveOp::AllReduce: return BusPattern::AllReduce;
    case workloads::CollectiveOp::AllGather: return BusPattern::AllGather;
    case workloads::CollectiveOp::ReduceScatter: return BusPattern::ReduceScatter;
    case workloads::CollectiveOp::AllToAll: return BusPattern::AllToAll;
    case workloads::CollectiveOp::SendRecv: return BusPattern::SendRecv;
    case workloads::CollectiveOp::Broadcast: return BusPattern::Broadcast;
    case workloads::CollectiveOp::Reduce: return BusPattern::Reduce;
  }
  return BusPattern::SendRecv;
}

std::vector<JobInfo> describe_jobs(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows) {
  std::vector<JobInfo> out;
  std::vector<std::uint8_t> used(fabric.server_count());
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const JobSpec& job = spec.jobs[j];
    std::fill(used.begin(), used.end(), 0);
    for (std::size_t f = 0; f < flows.size(); ++f)
      if (flows.job[f] == j) used[fabric.server_of(flows.src[f])] = used[fabric.server_of(flows.dst[f])] = 1;
    const auto nodes = static_cast<std::uint32_t>(std::count(used.begin(), used.end(), std::uint8_t{1}));
    if (job.kind == workloads::JobKind::Training) {
      // A step is no one collective: its busbw is the busiest sender's
      // throughput (bus factor 1, S the most bytes one endpoint sends), as
      // for imported flows.
      std::vector<std::uint64_t> sent(fabric.endpoints().size());
      for (std::size_t f = 0; f < flows.size(); ++f)
        if (flows.job[f] == j) sent[flows.src[f]] += flows.bytes[f];
      const std::uint64_t most = sent.empty() ? 0 : *std::max_element(sent.begin(), sent.end());
      out.push_back({job.name, "training", BusPattern::SendRecv, job.training.ranks(), Bytes{most}});
      continue;
    }
    out.push_back({job.name, std::string(workloads::collective_name(job.collective)), bus_pattern(job.collective),
                   nodes * spec.fabric.gpus_per_node, job.message});
  }
  return out;
}

Simulation::Simulation(Spec spec)
    : spec_(std::move(spec)),
      fabric_(fabric_for(spec_)),
      healthy_(std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_))) {
  job_servers_ = place_jobs(spec_, fabric_);
  derive_nccl(spec_, fabric_, job_servers_);
  flows_ = generate_flows(spec_, fabric_, job_servers_);
  prepare();
}

Simulation::Simulation(Spec spec, const workloads::ImportedFlows& imported)
    : spec_(std::move(spec)),
      fabric_(fabric_for(spec_)),
      healthy_(std::make_shared<const EqualCostSets>(compute_equal_cost_sets(fabric_))),
      flows_(place_imported_flows(imported, fabric_, spec_.limits)) {
  std::string files;
  const std::size_t dumps = imported.files.size() - (imported.map.empty() ? 0 : 1);
  for (std::size_t i = 0; i < dumps && i < imported.files.size(); ++i)
    files += (files.empty() ? "" : ",") + imported.files[i];
  imported_ = ImportedSource{imported.format, files, imported.map};
  prepare();
}

std::vector<JobInfo> describe_imported_jobs(const workloads::Flows& flows) {
  std::size_t jobs = 0;
  std::uint32_t endpoints = 0;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    jobs = std::max<std::size_t>(jobs, flows.job[f] + 1u);
    endpoints = std::max({endpoints, flows.src[f] + 1, flows.dst[f] + 1});
  }
  std::vector<JobInfo> out(jobs, JobInfo{"", "imported", BusPattern::SendRecv, 0, Bytes{0}});
  std::vector<std::uint64_t> sent(endpoints);
  std::vector<std::uint8_t> member(endpoints);
  for (std::size_t j = 0; j < jobs; ++j) {
    out[j].name = "job" + std::to_string(j);
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
  // Before the scenarios run: their paths, times and flow models must fit too.
  MemoryEstimate need = routing_memory(spec_);
  const std::uint32_t hops = generated_max_hops(spec_);
  add_flow_memory(need, spec_, flows_.size(), path_groups_bound(fabric_, flows_),
                  hops != 0 ? hops : max_path_links(*healthy_));
  check_memory(need, spec_, "the run");
  for (LinkId l = 0; l < fabric_.links().size(); ++l) {
    const Link& link = fabric_.link(l);
    if (fabric_.is_switch(link.from) && fabric_.is_switch(link.to)) metric_links_.push_back(l);
    capacity_.push_back(link.speed);
  }
  jobs_ = imported_ ? describe_imported_jobs(flows_) : describe_jobs(spec_, fabric_, flows_);
  // In an NVLink domain a job's GPUs are its nodes' whether or not their
  // NICs carry its flows (only traffic between domains does).
  if (spec_.fabric.nvlink_domain != 0)
    for (std::size_t j = 0; j < jobs_.size() && j < job_servers_.size(); ++j)
      jobs_[j].ranks = static_cast<std::uint32_t>(job_servers_[j].size()) * spec_.fabric.gpus_per_node;
  const CutBounds& cuts = cuts_.emplace(fabric_);
  for (std::uint32_t j = 0; j < jobs_.size(); ++j) job_ideal_.push_back(cuts.ideal(flows_, j));
  ideal_ = cuts.ideal(flows_);
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

ScenarioResult Simulation::run(const ScenarioSpec& scenario, const RunOptions& options) const {
  ScenarioResult r;
  r.spec = &scenario;
  const auto sets = sets_for(scenario);
  r.down.assign(sets->down().begin(), sets->down().end());
  const Forwarding fwd(fabric_, *sets, scenario, spec_.source, &flows_);
  workloads::Flows planned;
  if (plans_ports(scenario)) {
    r.plan = ecmpsim::plan_ports(fabric_, fwd, flows_, scenario);
    planned = with_ports(flows_, *r.plan);
  }
  const workloads::Flows& flows = r.plan ? planned : flows_;
  route_and_count(fabric_, fwd, flows, r.trace);
  // Down links leave the metrics and carry nothing in the flow model.
  std::vector<LinkId> working;
  std::vector<Gbps> capacity;
  if (!r.down.empty()) {
    capacity = capacity_;
    for (LinkId l = 0; l < capacity.size(); ++l)
      if (r.down[l]) capacity[l] = Gbps{0};
    for (LinkId l : metric_links_)
      if (!r.down[l]) working.push_back(l);
  }
  const std::vector<LinkId>& links = r.down.empty() ? metric_links_ : working;
  std::vector<double> by_flows, by_bytes;
  by_flows.reserve(links.size());
  by_bytes.reserve(links.size());
  for (LinkId l : links) {
    by_flows.push_back(r.trace.flows_on(l));
    by_bytes.push_back(r.trace.bytes_on(l));
  }
  r.flows = imbalance(by_flows);
  r.bytes = imbalance(by_bytes);
  r.tiers = tier_imbalance(fabric_, links, r.trace);
  // A sprayed flow is never placed whole: nothing collides.
  if (!r.trace.split()) r.collisions = colliding_pairs(fabric_, *sets, flows, r.trace);
  r.modelled = options.model;
  if (!options.model) return r;
  FlowModel solver;
  const FlowNetwork net{r.down.empty() ? capacity_ : capacity, flows_.bytes, r.trace.path_begin, r.trace.path_links,
                        r.trace.split_fraction};
  solver.run(net, r.times, options.progress);
  r.predicted = predict(flows_, r.times, jobs_, job_ideal_, ideal_);
  if (jobs_.size() > 1) r.predicted.alone = predict_alone(flows_, net, jobs_, job_ideal_);
  return r;
}

PortPlan Simulation::plan_ports(const ScenarioSpec& scenario) const {
  const auto sets = sets_for(scenario);
  const Forwarding fwd(fabric_, *sets, scenario, spec_.source, &flows_);
  return ecmpsim::plan_ports(fabric_, fwd, flows_, scenario);
}

// Scenarios are independent: they run on up to default_threads() threads,
// scenario i on thread i mod threads, so the results never depend on the
// thread count; the first failing scenario's error is the one reported, as on
// one thread. The progress follows thread 0's scenarios.
std::vector<ScenarioResult> Simulation::run_all(const RunOptions& options) const {
  const std::size_t n = spec_.scenarios.size();
  std::vector<ScenarioResult> out(n);
  std::vector<std::exception_ptr> failed(n);
  const auto threads = static_cast<unsigned>(std::min<std::size_t>(n, default_threads()));
  on_threads(std::max(1u, threads), [&](unsigned t) {
    RunOptions mine = options;
    if (t > 0) mine.progress = nullptr;
    for (std::size_t i = t; i < n; i += std::max(1u, threads)) {
      try {
        out[i] = run(spec_.scenarios[i], mine);
      } catch (...) {
        failed[i] = std::current_exception();
        return;
      }
    }
  });
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace ecmpsim
