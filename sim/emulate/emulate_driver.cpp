// The `emulate` driver: scenario and hash resolution, build, measure,
// compare. emulate_time.cpp holds the --measure-time steps, and
// emulate_output.cpp and emulate_time_output.cpp the writers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>

#include "hashing/key.h"
#include "sim/config/overrides.h"
#include "sim/emulate/emulate.h"
#include "sim/emulate/emulate_time.h"
#include "sim/fabric/failures.h"
#include "sim/routing/next_link.h"
#include "sim/base/text.h"

namespace ecmpsim {
namespace {


bool is_linux(const std::string& algo) {
  const hashing::Algorithm* a = hashing::find(algo);
  return a != nullptr && hashing::key_layout(a->layout).linux_policy >= 0;
}

// The scenario named, ECMP or static; by default the first ECMP one.
const ScenarioSpec& pick_scenario(const Spec& spec, const std::string& name, const char* flag) {
  for (const ScenarioSpec& s : spec.scenarios) {
    const RoutingMode& mode = routing_mode(s.routing);
    const bool plain_ecmp = mode.hashes && s.sports == SportPlan::Workload;
    if (name.empty() ? !plain_ecmp : s.name != name) continue;
    if (!mode.emulated)
      throw InputError(option_at(flag), "scenario '" + name + "' is " + std::string(mode.name) +
                                             "; emulate needs an ECMP or static scenario");
    if (plans_ports(s))
      throw InputError(option_at(flag), "scenario '" + name +
                                             "' plans its source ports, which emulate does not replay; pick an "
                                             "ECMP scenario with the workload's ports");
    return s;
  }
  throw InputError(option_at(flag), name.empty() ? spec.source + " has no ECMP scenario"
                                                  : no_scenario_named(spec, name));
}

// The scenario as Linux routers can run it: a Linux hash stays (with --hash
// and --seed applied); any other is replaced by --hash (linux-l4) with
// hash-threshold selection, and `note` says so.
ScenarioSpec as_linux(ScenarioSpec sc, const EmulateOptions& opt, std::string* note) {
  HashSpec& h = sc.hash;
  const bool was_linux = is_linux(h.algo);
  if (opt.hash || !was_linux) {
    const std::string algo = opt.hash.value_or("linux-l4");
    if (!was_linux && note != nullptr && routing_mode(sc.routing).hashes)
      *note = "the scenario hashes with " + h.algo + ", which Linux cannot; emulated and predicted as " + algo +
              " with hash-threshold selection";
    h.algo = algo;
    h.select = hashing::Selection::Threshold;
    h.offset = 0;
    if (!opt.seed && h.seed == 0) h.seed = 1;
  }
  if (opt.seed) h.seed = *opt.seed;
  return sc;
}

// A cable as `down` and `weights` name it: "a-b" or "a-b#k".
std::string cable_name(const Fabric& f, LinkId l) {
  return f.node(f.link(l).from).name + "-" + f.node(f.link(l).to).name + f.cable_suffix(l);
}

// The member each switch on a measured path chose, where it had a choice.
std::vector<ObservedHop> observed_hops(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows,
                                       const Trace& measured) {
  std::vector<ObservedHop> out;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const std::uint32_t dst_tor = ends_of(fabric, flows, f).dst_tor;
    for (LinkId l : measured.path(f)) {
      const NodeId from = fabric.link(l).from;
      if (!fabric.is_switch(from)) continue;
      const std::uint32_t s = fabric.switch_index(from);
      if (fabric.tor_of_switch(s) == dst_tor) continue;
      const std::uint32_t g = sets.group(s, dst_tor);
      if (g == EqualCostSets::kNoGroup) continue;
      const auto members = sets.members(g);
      const auto it = std::find(members.begin(), members.end(), l);
      if (members.size() < 2 || it == members.end()) continue;
      out.push_back({static_cast<std::uint32_t>(f), s, static_cast<std::uint32_t>(it - members.begin()),
                     static_cast<std::uint32_t>(members.size())});
    }
  }
  return out;
}

// The methods asked for, in order; with --measure-time the packets method
// first, whose paths the timed flows take.
void measure(const Simulation& sim, const EmulateOptions& opt, EmulatedFabric& emu, EmulateReport& r) {
  std::vector<EmulateMethod> methods = opt.methods;
  if (opt.time.enabled) {
    std::erase(methods, EmulateMethod::Packets);
    methods.insert(methods.begin(), EmulateMethod::Packets);
  }
  for (EmulateMethod m : methods) {
    r.measurements.push_back(m == EmulateMethod::Packets ? emu.measure_packets(sim.flows(), opt.packets_per_flow)
                                                         : emu.measure_route_get(sim.flows()));
    r.comparisons.push_back(compare(r.predicted, r.measurements.back(), r.metric_links));
  }
}

}  // namespace

EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt) {
  const Spec& spec = sim.spec();
  const Fabric& fabric = sim.fabric();
  if (opt.hash && !is_linux(*opt.hash))
    throw InputError(option_at("hash"), "expected linux-l3 or linux-l4, got '" + *opt.hash + "'");
  if (opt.seed && *opt.seed == 0) throw InputError(option_at("seed"), "the kernel treats seed 0 as random; use 1..2^32-1");
  if (!fabric.lags().empty())
    throw InputError({spec.source, 0, 0, {}}, "the fabric has port-channels (" + fabric.lags()[0].name +
                                                   " of " + fabric.node(fabric.lags()[0].node).name +
                                                   ", ...): the emulator routes every cable as a kernel next hop "
                                                   "and does not build bonds");
  EmulateReport r;
  const ScenarioSpec kernel_sc = as_linux(pick_scenario(spec, opt.scenario, "scenario"), opt, &r.note);
  ScenarioSpec predict_sc =
      opt.predict_scenario ? as_linux(pick_scenario(spec, *opt.predict_scenario, "predict_scenario"), opt, nullptr)
                           : kernel_sc;
  if (opt.predict_seed) predict_sc.hash.seed = *opt.predict_seed;
  r.scenario = kernel_sc.name;
  r.predict_scenario = predict_sc.name;
  r.kernel_hash = kernel_sc.hash;
  r.predict_hash = predict_sc.hash;

  // The kernel runs the scenario's failure-aware sets with its weights (or
  // its static table); the prediction is ecmpsim's trace of the (normally
  // same) scenario.
  const auto kernel_sets = sim.sets_for(kernel_sc);
  const Forwarding kernel_fwd(fabric, *kernel_sets, kernel_sc, spec.source, &sim.flows());
  r.kernel = kernel_hashes(fabric, kernel_fwd, spec.source);
  r.is_static = kernel_fwd.is_static();
  const std::vector<LinkId> static_next =
      kernel_fwd.is_static() ? static_next_hops(fabric, kernel_fwd) : std::vector<LinkId>{};
  const std::vector<std::uint32_t> weight = link_weights(fabric, kernel_sc.weights);
  for (const LinkRef& d : kernel_sc.down) r.down.push_back(d.text);
  for (LinkId l = 0; l < weight.size(); l += 2)
    if (weight[l] != 1) r.weights.emplace_back(cable_name(fabric, l), weight[l]);
  r.link_down.assign(kernel_sets->down().begin(), kernel_sets->down().end());
  for (LinkId l : sim.metric_links())
    if (!kernel_sets->is_down(l)) r.metric_links.push_back(l);
  std::vector<std::uint8_t> built(fabric.links().size(), 1);
  for (LinkId l = 0; l < built.size(); ++l) built[l] = !kernel_sets->is_down(l) && !kernel_sets->is_down(l ^ 1u);

  const auto predict_sets = sim.sets_for(predict_sc);
  const Forwarding predict_fwd(fabric, *predict_sets, predict_sc, spec.source, &sim.flows());
  route_and_count(fabric, predict_fwd, sim.flows(), r.predicted);
  std::vector<double> load;
  for (LinkId l : r.metric_links) load.push_back(r.predicted.link_flows[l]);
  r.predicted_imbalance = imbalance(load);
  if (opt.time.enabled) r.time = plan_time(sim, predict_sc, opt.time);

  NetnsPlan plan = [&] {
    try {
      return plan_netns(fabric, *kernel_sets, weight, r.kernel, namespace_prefix(::getpid()), static_next);
    } catch (const InputError& e) {
      if (!e.where().file.empty()) throw;
      SourcePos at = e.where();
      at.file = spec.source;
      throw InputError(at, e.what());
    }
  }();
  r.prefix = plan.prefix;
  r.namespaces = plan.ns.size();
  for (char c : plan.links_batch) r.veth_pairs += c == '\n';
  const auto start = std::chrono::steady_clock::now();
  EmulatedFabric emu(fabric, std::move(plan), opt.stop);
  r.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  measure(sim, opt, emu, r);
  if (!r.measurements.empty()) r.observed = observed_hops(fabric, *kernel_sets, sim.flows(), r.measurements.front().trace);
  if (r.time && r.comparisons.front().undelivered > 0)
    r.time->skipped = std::to_string(r.comparisons.front().undelivered) +
                      " flows' UDP packets did not arrive: no path to time them on";
  else if (r.time)
    run_time(sim, emu, r.measurements.front(), built, *r.time);
  return r;
}

}  // namespace ecmpsim
