// The writers of `ecmpsim emulate`: the table, the JSON document and the
// observed hops as CSV (emulate_time_output.cpp adds the timed section).
#include "sim/emulate/emulate_output.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/emulate/emulate_time.h"

namespace ecmpsim {
namespace {

using json = Json;

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

std::string emulate_table(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  std::string out;
  out += "config    " + escape_text(sim.spec().source) + ", scenario '" + r.scenario + "'\n";
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

Json emulate_json(const Simulation& sim, const EmulateReport& r) {
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
  return doc;
}

Result emulate_result(const Simulation& sim, const EmulateReport& r) {
  Result out;
  out.text = [s = &sim, p = &r] { return emulate_table(*s, *p); };
  out.json = [s = &sim, p = &r](JsonWriter& w) { w.value(emulate_json(*s, *p)); };
  return out;
}

std::string emulate_observations_csv(const Simulation& sim, const EmulateReport& r) {
  const Fabric& f = sim.fabric();
  const workloads::Flows& flows = sim.flows();
  // The IPv6 policy 0 hashes the flow label, so an IPv6 fit needs it; IPv4 packets have none.
  const bool label = flows.size() > 0 && !flows.src_ip[0].is_v4();
  Csv csv;
  csv.cells({"src", "dst", "proto", "sport", "dport"});
  if (label) csv.cell("flow_label");
  csv.cells({"switch", "member"}).end_row();
  for (const ObservedHop& h : r.observed) {
    csv.cells({hashing::format_ip(flows.src_ip[h.flow]), hashing::format_ip(flows.dst_ip[h.flow])})
        .cell(flows.proto[h.flow])
        .cell(flows.sport[h.flow])
        .cell(flows.dport[h.flow]);
    if (label) csv.cell(flows.flow_label[h.flow]);
    csv.cell(f.node(f.switches()[h.switch_index]).name).cell(h.member).end_row();
  }
  return std::move(csv).take();
}
}  // namespace ecmpsim
