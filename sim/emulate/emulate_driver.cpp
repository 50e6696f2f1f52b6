// The `emulate` driver (scenario and hash resolution, build, measure,
// compare) and its table and JSON writers; emulate_time.cpp holds the
// --measure-time steps and emulate_time_output.cpp their writers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "hashing/hasher.h"
#include "sim/config/overrides.h"
#include "sim/emulate/emulate.h"
#include "sim/emulate/emulate_time.h"
#include "sim/fabric/failures.h"
#include "sim/routing/next_link.h"
#include "sim/base/text.h"

namespace ecmpsim {
namespace {

using json = nlohmann::ordered_json;

bool is_linux(const std::string& algo) {
  const hashing::Algorithm* a = hashing::find(algo);
  return a != nullptr && (a->layout == hashing::KeyLayout::LinuxL3 || a->layout == hashing::KeyLayout::LinuxL4);
}

// The scenario named, ECMP or static; by default the first ECMP one.
const ScenarioSpec& pick_scenario(const Spec& spec, const std::string& name, const char* flag) {
  for (const ScenarioSpec& s : spec.scenarios) {
    const RoutingMode& mode = routing_mode(s.routing);
    const bool plain_ecmp = mode.hashes && s.sports == SportPlan::Workload;
    if (name.empty() ? !plain_ecmp : s.name != name) continue;
    if (!mode.emulated)
      throw InputError({{}, 0, 0, flag}, "scenario '" + name + "' is " + std::string(mode.name) +
                                             "; emulate needs an ECMP or static scenario");
    if (plans_ports(s))
      throw InputError({{}, 0, 0, flag}, "scenario '" + name +
                                             "' plans its source ports, which emulate does not replay; pick an "
                                             "ECMP scenario with the workload's ports");
    return s;
  }
  throw InputError({{}, 0, 0, flag}, name.empty() ? spec.source + " has no ECMP scenario"
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

std::string seeds_text(const std::vector<KernelHash>& k) {
  bool same = true;
  for (const auto& h : k) same = same && h.seed == k.front().seed;
  if (k.empty() || same) return "seed " + std::to_string(k.empty() ? 0 : k.front().seed) + " on every switch";
  return "per-switch seeds";
}

json path_json(const Fabric& f, std::span<const LinkId> p) {
  json out = json::array();
  if (p.empty()) return out;
  out.push_back(f.node(f.link(p.front()).from).name);
  for (LinkId l : p) out.push_back(f.node(f.link(l).to).name);
  return out;
}

// "host0 > leaf0 >#1 spine0 > leaf1 > host2": the nodes, and which of several parallel cables.
std::string path_text(const Fabric& f, std::span<const LinkId> p) {
  if (p.empty()) return "(none)";
  std::string out = f.node(f.link(p.front()).from).name;
  for (LinkId l : p) out += " >" + f.cable_suffix(l) + " " + f.node(f.link(l).to).name;
  return out;
}

bool same_path(const Trace& a, const Trace& b, std::size_t i) {
  const auto x = a.path(i), y = b.path(i);
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
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

std::string result_text(const EmulateReport& r) {
  bool paths = !r.comparisons.empty();
  for (const auto& c : r.comparisons) paths = paths && c.agree();
  std::string out = paths ? "AGREE: the kernel forwarded every flow as predicted"
                          : "DISAGREE: the kernel and the prediction differ";
  if (!r.time) return out;
  const TimeReport& t = *r.time;
  if (!t.ran()) return out + "; nothing was timed";
  if (t.agree())
    return out + (paths ? "; " : "; but ") + "the measured slowdown is within " + fixed(100 * t.tolerance, 0) +
           "% of the predicted one";
  if (t.finished < t.bytes.size()) return out + "; " + std::to_string(t.bytes.size() - t.finished) + " flows did not finish";
  if (t.tcp_paths_checked && t.tcp_paths_agree < t.bytes.size()) return out + "; TCP left the measured paths";
  return out + (paths ? "; but " : "; and ") + "the measured slowdown is off by " + fixed(100 * t.relative_error, 1) +
         "% (tolerance " + fixed(100 * t.tolerance, 0) + "%)";
}

}  // namespace

EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt) {
  const Spec& spec = sim.spec();
  const Fabric& fabric = sim.fabric();
  if (opt.hash && !is_linux(*opt.hash))
    throw InputError({{}, 0, 0, "--hash"}, "expected linux-l3 or linux-l4, got '" + *opt.hash + "'");
  if (opt.seed && *opt.seed == 0) throw InputError({{}, 0, 0, "--seed"}, "the kernel treats seed 0 as random; use 1..2^32-1");
  EmulateReport r;
  const ScenarioSpec kernel_sc = as_linux(pick_scenario(spec, opt.scenario, "--scenario"), opt, &r.note);
  ScenarioSpec predict_sc =
      opt.predict_scenario ? as_linux(pick_scenario(spec, *opt.predict_scenario, "--predict-scenario"), opt, nullptr)
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

std::string emulate_table(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  std::string out;
  out += "config    " + sim.spec().source + ", scenario '" + r.scenario + "'\n";
  if (!r.note.empty()) out += "note      " + r.note + "\n";
  if (r.is_static)
    out += "kernel    the static table as one /32 route per switch and destination endpoint (no multipath route)\n";
  else
    out += "kernel    " + r.kernel_hash.algo + " (fib_multipath_hash_policy " + std::to_string(r.kernel.front().policy) +
           "), " + seeds_text(r.kernel) + ", hash-threshold\n";
  if (!r.weights.empty()) {
    out += "weights  ";
    for (std::size_t i = 0; i < r.weights.size(); ++i)
      out += std::string(i == 0 ? " " : ", ") + r.weights[i].first + " = " + std::to_string(r.weights[i].second);
    out += " (next-hop weights, hash-threshold)\n";
  }
  if (!r.down.empty()) {
    std::size_t cables = 0;
    for (LinkId l = 0; l < r.link_down.size(); l += 2) cables += r.link_down[l];
    out += "down     ";
    for (std::size_t i = 0; i < r.down.size(); ++i) out += std::string(i == 0 ? " " : ", ") + r.down[i];
    out += " (" + std::to_string(cables) + (cables == 1 ? " cable" : " cables") +
           " not built; routes use the failure-aware equal-cost sets)\n";
  }
  if (r.predict_scenario != r.scenario)
    out += "predicted as scenario '" + r.predict_scenario + "' (not the emulated one: a negative control)\n";
  if (r.predict_hash.seed != r.kernel_hash.seed)
    out += "predicted with seed " + std::to_string(r.predict_hash.seed) + " (not the kernel's: a negative control)\n";
  out += "fabric    " + std::to_string(r.namespaces) + " namespaces (" + r.prefix + "*), " +
         std::to_string(r.veth_pairs) + " veth pairs, built in " + fixed(r.build_seconds, 2) + " s\n";
  out += "flows     " + std::to_string(sim.flows().size()) + "\n\n";

  constexpr std::size_t kLabel = 24, kCol = 12;
  std::string head = pad_right("", kLabel) + pad_left("predicted", kCol);
  for (const auto& m : r.measurements) head += pad_left(std::string(method_name(m.method)), kCol);
  out += head + "\n" + std::string(head.size(), '-') + "\n";
  auto row = [&](const std::string& label, const std::string& predicted, auto cell) {
    std::string line = pad_right(label, kLabel) + pad_left(predicted, kCol);
    for (std::size_t i = 0; i < r.comparisons.size(); ++i) line += pad_left(cell(r.comparisons[i], r.measurements[i]), kCol);
    out += line + "\n";
  };
  const std::string nf = std::to_string(sim.flows().size());
  row("paths agreeing", "", [&](const Comparison& c, const auto&) { return std::to_string(c.paths_agree) + "/" + nf; });
  row("links agreeing", "", [&](const Comparison& c, const auto&) {
    return std::to_string(c.links_agree) + "/" + std::to_string(c.links);
  });
  row("flows delivered", "", [&](const Comparison& c, const auto&) {
    return std::to_string(c.flows - c.undelivered) + "/" + nf;
  });
  row("stray packets", "", [](const Comparison& c, const auto& m) {
    return m.method == EmulateMethod::Packets ? std::to_string(c.stray_packets) : std::string("-");
  });
  row("FIM (flows)", fixed(r.predicted_imbalance.fim, 4), [](const Comparison& c, const auto&) { return fixed(c.measured.fim, 4); });
  row("max flows on a link", fixed(r.predicted_imbalance.max, 0), [](const Comparison& c, const auto&) {
    return fixed(c.measured.max, 0);
  });
  row("seconds", "", [](const Comparison&, const auto& m) { return fixed(m.seconds, 2); });

  out += "\nflows per switch-to-switch link\n" + head + "\n" + std::string(head.size(), '-') + "\n";
  for (LinkId l : sim.metric_links()) {
    const bool down = !r.link_down.empty() && r.link_down[l];
    std::string line = pad_right(f.link_name(l) + (down ? " (down)" : ""), kLabel) +
                       pad_left(std::to_string(r.predicted.link_flows[l]), kCol);
    for (const auto& m : r.measurements) {
      const bool same = m.trace.link_flows[l] == r.predicted.link_flows[l];
      line += pad_left(std::to_string(m.trace.link_flows[l]) + (same ? "" : " *"), kCol);
    }
    out += line + "\n";
  }
  std::size_t shown = 0, differ = 0;
  for (std::size_t i = 0; i < sim.flows().size(); ++i) {
    bool same = true;
    for (const auto& m : r.measurements) same = same && same_path(r.predicted, m.trace, i);
    if (same) continue;
    ++differ;
    if (shown++ == 0) out += "\nflows whose measured path differs from the prediction\n";
    if (shown > 10) continue;
    const auto flow = sim.flows()[i];
    out += "  " + hashing::format_ip(flow.src_ip) + ":" + std::to_string(flow.sport) + " -> " + hashing::format_ip(flow.dst_ip) +
           ":" + std::to_string(flow.dport) + "\n";
    out += "      " + pad_right("predicted", 9) + " " + path_text(f, r.predicted.path(i)) + "\n";
    for (const auto& m : r.measurements)
      out += "      " + pad_right(std::string(method_name(m.method)), 9) + " " + path_text(f, m.trace.path(i)) + "\n";
  }
  if (differ > 10) out += "  ... and " + std::to_string(differ - 10) + " more\n";
  if (r.time) out += time_table(sim, *r.time);
  out += "\nresult    " + result_text(r) + "\n";
  return out;
}

std::string emulate_json(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  json doc;
  doc["config"] = sim.spec().source;
  doc["scenario"] = r.scenario;
  if (!r.note.empty()) doc["note"] = r.note;
  json seeds = json::object();
  for (std::uint32_t s = 0; s < r.kernel.size(); ++s) seeds[f.node(f.switches()[s]).name] = r.kernel[s].seed;
  doc["routing"] = r.is_static ? "static" : "ecmp";
  doc["kernel"] = {{"algo", r.kernel_hash.algo},
                   {"fib_multipath_hash_policy", r.kernel.front().policy},
                   {"fib_multipath_hash_seed", seeds}};
  doc["predicted_seed"] = r.predict_hash.seed;
  doc["predicted_scenario"] = r.predict_scenario;
  doc["down"] = r.down;
  json weights = json::object();
  for (const auto& [cable, w] : r.weights) weights[cable] = w;
  doc["weights"] = std::move(weights);
  doc["namespaces"] = r.namespaces;
  doc["veth_pairs"] = r.veth_pairs;
  doc["build_seconds"] = r.build_seconds;
  doc["flows"] = sim.flows().size();
  // Headline numbers: the strictest over the methods run.
  std::size_t paths = sim.flows().size(), links = r.predicted.link_flows.size();
  for (const auto& c : r.comparisons) {
    paths = std::min(paths, c.paths_agree);
    links = std::min(links, c.links_agree);
  }
  doc["paths_agree"] = paths;
  doc["links"] = r.predicted.link_flows.size();
  doc["links_agree"] = links;
  doc["fim_measured"] = r.comparisons.empty() ? 0.0 : r.comparisons.front().measured.fim;
  doc["fim_predicted"] = r.predicted_imbalance.fim;
  doc["agree"] = r.agree();
  if (r.time) add_time_json(*r.time, doc);
  json methods = json::array();
  for (std::size_t i = 0; i < r.measurements.size(); ++i) {
    const auto& c = r.comparisons[i];
    const auto& m = r.measurements[i];
    methods.push_back({{"method", method_name(m.method)},
                       {"paths_agree", c.paths_agree},
                       {"links_agree", c.links_agree},
                       {"delivered", c.flows - c.undelivered},
                       {"stray_packets", c.stray_packets},
                       {"fim_measured", c.measured.fim},
                       {"max_flows", c.measured.max},
                       {"seconds", m.seconds},
                       {"agree", c.agree()}});
  }
  doc["method"] = std::move(methods);
  json links_out = json::array();
  for (LinkId l : sim.metric_links()) {
    json row = {{"from", f.node(f.link(l).from).name}, {"to", f.node(f.link(l).to).name},
                {"predicted", r.predicted.link_flows[l]}};
    if (!r.link_down.empty() && r.link_down[l]) row["down"] = true;
    for (const auto& m : r.measurements) row[std::string(method_name(m.method))] = m.trace.link_flows[l];
    links_out.push_back(std::move(row));
  }
  doc["link_flows"] = std::move(links_out);
  json flows_out = json::array();
  const auto& flows = sim.flows();
  for (std::size_t i = 0; i < flows.size(); ++i) {
    json row = {{"src_ip", hashing::format_ip(flows.src_ip[i])}, {"dst_ip", hashing::format_ip(flows.dst_ip[i])},
                {"proto", flows.proto[i]},               {"sport", flows.sport[i]},
                {"dport", flows.dport[i]},               {"predicted", path_json(f, r.predicted.path(i))}};
    if (f.family() == hashing::Family::V6) row["flow_label"] = flows.flow_label[i];
    bool agree = true;
    for (const auto& m : r.measurements) {
      row[std::string(method_name(m.method))] = path_json(f, m.trace.path(i));
      agree = agree && same_path(r.predicted, m.trace, i) && m.delivered[i];
    }
    // Per link, so it tells parallel cables apart where the node lists cannot.
    row["agree"] = agree;
    if (r.time) row.update(flow_time_json(*r.time, i));
    flows_out.push_back(std::move(row));
  }
  doc["flow_paths"] = std::move(flows_out);
  return doc.dump(2) + "\n";
}

std::string emulate_observations_csv(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  const workloads::Flows& flows = sim.flows();
  // The IPv6 policy 0 hashes the flow label, so an IPv6 fit needs it; IPv4 packets have none.
  const bool label = flows.size() > 0 && !flows.src_ip[0].is_v4();
  std::string out = label ? "src,dst,proto,sport,dport,flow_label,switch,member\n"
                          : "src,dst,proto,sport,dport,switch,member\n";
  for (const ObservedHop& h : r.observed) {
    out += hashing::format_ip(flows.src_ip[h.flow]) + "," + hashing::format_ip(flows.dst_ip[h.flow]) + "," +
           std::to_string(flows.proto[h.flow]) + "," + std::to_string(flows.sport[h.flow]) + "," +
           std::to_string(flows.dport[h.flow]) + "," +
           (label ? std::to_string(flows.flow_label[h.flow]) + "," : std::string()) +
           f.node(f.switches()[h.switch_index]).name + "," + std::to_string(h.member) + "\n";
  }
  return out;
}

}  // namespace ecmpsim
