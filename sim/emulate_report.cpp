// The `emulate` driver (scenario and hash resolution, build, measure,
// compare) and its table and JSON writers.
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "hashing/hasher.h"
#include "sim/emulate.h"
#include "sim/parse.h"

namespace ecmpsim {
namespace {

using json = nlohmann::ordered_json;

bool is_linux(const std::string& algo) {
  const hashing::Algorithm* a = hashing::find(algo);
  return a != nullptr && (a->layout == hashing::KeyLayout::LinuxL3 || a->layout == hashing::KeyLayout::LinuxL4);
}

const ScenarioSpec& pick_scenario(const Spec& spec, const std::string& name) {
  for (const ScenarioSpec& s : spec.scenarios) {
    if (name.empty() ? s.routing != RoutingKind::Ecmp : s.name != name) continue;
    if (s.routing != RoutingKind::Ecmp)
      throw InputError({{}, 0, 0, "--scenario"}, "scenario '" + name + "' is static; emulate needs an ECMP scenario");
    return s;
  }
  throw InputError({{}, 0, 0, "--scenario"}, name.empty() ? spec.source + " has no ECMP scenario"
                                                          : "no scenario named '" + name + "' in " + spec.source);
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

}  // namespace

EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt) {
  const Spec& spec = sim.spec();
  const Fabric& fabric = sim.fabric();
  EmulateReport r;
  ScenarioSpec kernel_sc = pick_scenario(spec, opt.scenario);
  r.scenario = kernel_sc.name;
  HashSpec& h = kernel_sc.hash;
  const bool was_linux = is_linux(h.algo);
  if (opt.hash && !is_linux(*opt.hash))
    throw InputError({{}, 0, 0, "--hash"}, "expected linux-l3 or linux-l4, got '" + *opt.hash + "'");
  if (opt.hash || !was_linux) {
    const std::string algo = opt.hash.value_or("linux-l4");
    if (!was_linux)
      r.note = "the scenario hashes with " + h.algo + ", which Linux cannot; emulated and predicted as " + algo +
               " with hash-threshold selection";
    h.algo = algo;
    h.select = hashing::Selection::Threshold;
    h.offset = 0;
    if (!opt.seed && h.seed == 0) h.seed = 1;
  }
  if (opt.seed) h.seed = *opt.seed;
  if (opt.seed && *opt.seed == 0) throw InputError({{}, 0, 0, "--seed"}, "the kernel treats seed 0 as random; use 1..2^32-1");
  ScenarioSpec predict_sc = kernel_sc;
  if (opt.predict_seed) predict_sc.hash.seed = *opt.predict_seed;
  r.kernel_hash = kernel_sc.hash;
  r.predict_hash = predict_sc.hash;

  const Forwarding kernel_fwd(fabric, sim.sets(), kernel_sc, spec.source);
  r.kernel = kernel_hashes(fabric, kernel_fwd, spec.source);
  const Forwarding predict_fwd(fabric, sim.sets(), predict_sc, spec.source);
  trace(fabric, predict_fwd, sim.flows(), r.predicted);
  std::vector<double> load;
  for (LinkId l : sim.metric_links()) load.push_back(r.predicted.link_flows[l]);
  r.predicted_imbalance = imbalance(load);

  NetnsPlan plan = plan_netns(fabric, sim.sets(), r.kernel, namespace_prefix(::getpid()));
  r.prefix = plan.prefix;
  r.namespaces = plan.ns.size();
  for (char c : plan.links_batch) r.veth_pairs += c == '\n';
  const auto start = std::chrono::steady_clock::now();
  EmulatedFabric emu(fabric, std::move(plan), opt.stop);
  r.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (EmulateMethod m : opt.methods) {
    r.measurements.push_back(m == EmulateMethod::Packets ? emu.measure_packets(sim.flows(), opt.packets_per_flow)
                                                         : emu.measure_route_get(sim.flows()));
    r.comparisons.push_back(compare(sim, r.predicted, r.measurements.back()));
  }
  return r;
}

std::string emulate_table(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  std::string out;
  out += "config    " + sim.spec().source + ", scenario '" + r.scenario + "'\n";
  if (!r.note.empty()) out += "note      " + r.note + "\n";
  out += "kernel    " + r.kernel_hash.algo + " (fib_multipath_hash_policy " + std::to_string(r.kernel.front().policy) +
         "), " + seeds_text(r.kernel) + ", hash-threshold\n";
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
    std::string line = pad_right(f.link_name(l), kLabel) + pad_left(std::to_string(r.predicted.link_flows[l]), kCol);
    for (const auto& m : r.measurements) {
      const bool same = m.trace.link_flows[l] == r.predicted.link_flows[l];
      line += pad_left(std::to_string(m.trace.link_flows[l]) + (same ? "" : " *"), kCol);
    }
    out += line + "\n";
  }
  std::size_t shown = 0, differ = 0;
  for (std::size_t i = 0; i < sim.flows().size(); ++i) {
    bool same = true;
    for (const auto& m : r.measurements) {
      const auto a = r.predicted.path(i), b = m.trace.path(i);
      same = same && std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    if (same) continue;
    ++differ;
    if (shown++ == 0) out += "\nflows whose measured path differs from the prediction\n";
    if (shown > 10) continue;
    const auto flow = sim.flows()[i];
    out += "  " + format_ipv4(flow.src_ip) + ":" + std::to_string(flow.sport) + " -> " + format_ipv4(flow.dst_ip) +
           ":" + std::to_string(flow.dport) + "  predicted " + path_json(f, r.predicted.path(i)).dump() + "\n";
    for (const auto& m : r.measurements)
      out += "      " + pad_right(std::string(method_name(m.method)), 9) + " " + path_json(f, m.trace.path(i)).dump() + "\n";
  }
  if (differ > 10) out += "  ... and " + std::to_string(differ - 10) + " more\n";
  out += std::string("\nresult    ") + (r.agree() ? "AGREE: the kernel forwarded every flow as predicted"
                                                 : "DISAGREE: the kernel and the prediction differ") + "\n";
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
  doc["kernel"] = {{"algo", r.kernel_hash.algo},
                   {"fib_multipath_hash_policy", r.kernel.front().policy},
                   {"fib_multipath_hash_seed", seeds}};
  doc["predicted_seed"] = r.predict_hash.seed;
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
    for (const auto& m : r.measurements) row[std::string(method_name(m.method))] = m.trace.link_flows[l];
    links_out.push_back(std::move(row));
  }
  doc["link_flows"] = std::move(links_out);
  json flows_out = json::array();
  const auto& flows = sim.flows();
  for (std::size_t i = 0; i < flows.size(); ++i) {
    json row = {{"src_ip", format_ipv4(flows.src_ip[i])}, {"dst_ip", format_ipv4(flows.dst_ip[i])},
                {"proto", flows.proto[i]},               {"sport", flows.sport[i]},
                {"dport", flows.dport[i]},               {"predicted", path_json(f, r.predicted.path(i))}};
    for (const auto& m : r.measurements) row[std::string(method_name(m.method))] = path_json(f, m.trace.path(i));
    flows_out.push_back(std::move(row));
  }
  doc["flow_paths"] = std::move(flows_out);
  return doc.dump(2) + "\n";
}

}  // namespace ecmpsim
