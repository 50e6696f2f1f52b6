#include "sim/report/report.h"


#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "sim/output/metrics_json.h"
#include "sim/model/replay.h"
#include "sim/output/sizes_output.h"
#include "sim/report/assumptions.h"
#include "sim/output/busbw_figures.h"
#include "sim/report/html.h"
#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/report/report_charts.h"
#include "sim/report/report_sizes.h"
#include "sim/report/report_style.h"
#include "sim/report/report_sweep.h"

namespace ecmpsim {
namespace {

using html::escape;
using html::section;
using json = Json;

// A row of the scenario comparison: `better` is -1 when lower is better, +1
// when higher is, 0 when neither.
struct MetricRow {
  const char* group;
  std::string label;
  std::function<double(const ScenarioResult&)> get;
  int digits;
  int better;
};

std::vector<MetricRow> metric_rows() {
  return {
      {"by flow count", "FIM", [](const ScenarioResult& r) { return r.flows.fim; }, 4, -1},
      {"by flow count", "max / mean", [](const ScenarioResult& r) { return r.flows.max_mean; }, 4, -1},
      {"by flow count", "CoV", [](const ScenarioResult& r) { return r.flows.cov; }, 4, -1},
      {"by flow count", "Jain fairness", [](const ScenarioResult& r) { return r.flows.jain; }, 4, +1},
      {"by flow count", "max flows on a link", [](const ScenarioResult& r) { return r.flows.max; }, 0, -1},
      {"by flow count", "mean flows per link", [](const ScenarioResult& r) { return r.flows.mean; }, 3, 0},
      {"by bytes", "FIM", [](const ScenarioResult& r) { return r.bytes.fim; }, 4, -1},
      {"by bytes", "max / mean", [](const ScenarioResult& r) { return r.bytes.max_mean; }, 4, -1},
      {"by bytes", "CoV", [](const ScenarioResult& r) { return r.bytes.cov; }, 4, -1},
      {"by bytes", "Jain fairness", [](const ScenarioResult& r) { return r.bytes.jain; }, 4, +1},
      {"collisions", "colliding flow pairs", [](const ScenarioResult& r) { return double(r.collisions); }, 0, -1},
      {"predicted (max-min fair flow model)", "completion (ms)",
       [](const ScenarioResult& r) { return r.predicted.all.completion.value * 1e3; }, 3, -1},
      {"predicted (max-min fair flow model)", "ideal (ms)",
       [](const ScenarioResult& r) { return r.predicted.all.ideal.value * 1e3; }, 3, 0},
      {"predicted (max-min fair flow model)", "slowdown",
       [](const ScenarioResult& r) { return r.predicted.all.slowdown; }, 4, -1},
      {"predicted (max-min fair flow model)", std::string(busbw_label(BusbwFigure::FabricBound)) + " (Gb/s)",
       [](const ScenarioResult& r) { return r.predicted.all.busbw.value; }, 1, +1},
  };
}

std::string node_name(const Fabric& f, NodeId n) { return f.node(n).name; }

// One scale per page (sim/report/report_charts.h): each scenario's colours
// relative to its own mean, up to the largest max/mean of any scenario.
double load_top(const ReportInput& in) {
  std::vector<double> max_mean;
  for (const auto& r : *in.results) max_mean.push_back(r.flows.max_mean);
  return report::load_top(max_mean);
}

report::LoadScale load_scale(const ScenarioResult& r, double top) { return {r.flows.mean, top}; }

std::string card(std::string_view key, std::string_view value, std::string_view sub, html::Rgb accent) {
  return "<div class=\"card\" style=\"border-top-color:" + html::css_colour(accent) + "\"><div class=\"k\">" + escape(key) +
         "</div><div class=\"v\">" + escape(value) + "</div><div class=\"s\">" + escape(sub) + "</div></div>\n";
}

std::string summary_section(const ReportInput& in) {
  std::string body = "<div class=\"cards\">\n";
  for (const auto& r : *in.results)
    body += card("FIM \u00b7 " + r.spec->name, fixed(r.flows.fim, 4),
                 routing_summary(*r.spec) + "; max/mean " + fixed(r.flows.max_mean, 3) + "; predicted slowdown " +
                     fixed(r.predicted.all.slowdown, 3),
                 html::kSwitch);
  for (const SeedSweep& d : in.sweeps) {
    const MetricSummary& s = d.summary.metrics[static_cast<std::size_t>(SweepMetric::Fim)];
    body += card("FIM \u00b7 " + d.scenario + " over " + html::grouped(d.summary.samples) + " seeds",
                 fixed(s.p50, 4) + " p50", "p90 " + fixed(s.p90, 4) + ", range " + fixed(s.min, 4) + "\u2013" +
                                               fixed(s.max, 4),
                 html::kBar);
  }
  if (in.flowtracer)
    body += card("static vs mean ECMP FIM", fixed(100 * in.flowtracer->reduction_vs_mean, 1) + " %",
                 "reduction; the paper reports " + fixed(100 * kPaperReduction, 0) + " %", html::kBest);
  return section("summary", "At a glance", {}, body + "</div>\n");
}

std::string comparison_section(const ReportInput& in) {
  const auto& results = *in.results;
  std::string t = "<div class=\"table-wrap\"><table id=\"scenario-table\">\n<thead><tr><th>metric</th>";
  for (const auto& r : results)
    t += "<th>" + escape(r.spec->name) + "<span class=\"sub\">" + escape(routing_summary(*r.spec)) + "</span></th>";
  t += "</tr></thead>\n<tbody>\n";
  std::string group;
  for (const MetricRow& row : metric_rows()) {
    if (group != row.group) {
      group = row.group;
      t += "<tr class=\"group\"><td colspan=\"" + std::to_string(results.size() + 1) + "\">" + escape(group) +
           "</td></tr>\n";
    }
    std::vector<double> v;
    for (const auto& r : results) v.push_back(row.get(r));
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const bool differ = !v.empty() && *lo != *hi;
    t += "<tr><td>" + escape(row.label) + "</td>";
    for (std::size_t i = 0; i < v.size(); ++i) {
      const bool best = differ && row.better != 0 && v[i] == (row.better < 0 ? *lo : *hi);
      t += "<td" + std::string(best ? " class=\"best\"" : "") + " data-scenario=\"" + escape(results[i].spec->name) +
           "\" data-metric=\"" + escape(std::string(row.group) + "/" + row.label) + "\" data-value=\"" +
           format_number(v[i]) + "\">" + fixed(v[i], row.digits) + "</td>";
    }
    t += "</tr>\n";
  }
  t += "</tbody></table></div>\n";
  return section("scenarios", "Scenarios side by side",
                 "Imbalance over every working switch-to-switch link in both directions, idle links included. "
                 "The best value of each row is highlighted.",
                 t);
}

std::string flowtracer_section(const FlowTracerComparison& c) {
  std::string t = "<div class=\"table-wrap\"><table id=\"flowtracer-table\">\n<thead><tr><th></th><th>FIM</th>"
                  "<th>note</th></tr></thead>\n<tbody>\n";
  auto row = [&](std::string label, std::string value, std::string note, bool strong = false) {
    t += "<tr><td>" + escape(label) + "</td><td" + (strong ? " class=\"best\"" : "") + ">" + escape(value) +
         "</td><td style=\"text-align:left\">" + escape(note) + "</td></tr>\n";
  };
  const std::string e = "ECMP '" + c.ecmp_scenario + "'";
  row(e + " min / mean", fixed(c.ecmp_fim.min, 4) + " / " + fixed(c.ecmp_fim.mean, 4),
      "over seeds " + format_range(c.seeds));
  row(e + " p50 / p90 / max", fixed(c.ecmp_fim.p50, 4) + " / " + fixed(c.ecmp_fim.p90, 4) + " / " +
                                  fixed(c.ecmp_fim.max, 4), "");
  row(e + " at the config's seed", fixed(c.ecmp_config_fim, 4), "");
  row("static '" + c.static_scenario + "'", fixed(c.static_fim, 4), "");
  row("reduction vs ECMP mean", fixed(100 * c.reduction_vs_mean, 1) + " %", "1 \u2212 FIM_static / mean FIM_ecmp", true);
  row("reduction vs ECMP median", fixed(100 * c.reduction_vs_median, 1) + " %", "1 \u2212 FIM_static / p50 FIM_ecmp");
  row("FlowTracer (paper)", fixed(100 * kPaperReduction, 0) + " %", "arXiv 2410.17078, as reported");
  row("seeds where static is better", fixed(100 * c.static_better, 1) + " %", "ECMP FIM > static FIM");
  row(e + " predicted slowdown, mean / p90", fixed(c.ecmp_slowdown.mean, 4) + " / " + fixed(c.ecmp_slowdown.p90, 4),
      "completion / ideal, max-min fair flow model");
  row("static '" + c.static_scenario + "' predicted slowdown", fixed(c.static_slowdown, 4), "");
  for (const Alternative& a : c.alternatives)
    row(a.label, fixed(a.fim, 4), a.why.empty() ? "predicted slowdown " + fixed(a.slowdown, 4) : a.why);
  t += "</tbody></table></div>\n";
  if (!c.verdict.empty())
    t += "<p class=\"note\" id=\"flowtracer-verdict\"><strong>Verdict</strong>, with placement, hash, channels "
         "and QP numbering varied (<code>ecmpsim reproduce</code> prints the ranges): " + escape(c.verdict) + "</p>\n";
  return section("flowtracer", "FlowTracer comparison",
                 "ECMP's flow imbalance metric over many hash seeds against the static table's, next to the "
                 "reduction the paper reports. The assumptions behind these numbers are listed at the end.",
                 t);
}

std::string fabric_section(const ReportInput& in, double top) {
  const Fabric& fabric = in.sim->fabric();
  const bool heatmap = fabric.switches().size() > report::kHeatmapSwitches;
  std::string body = report::legend_svg(top);
  for (const auto& r : *in.results) {
    const auto down = [&r](LinkId l) { return r.is_down(l); };
    body += "<figure class=\"fabric-figure\"><figcaption>" + escape(r.spec->name) + " <span>\u2014 " +
            escape(routing_summary(*r.spec)) + ", FIM " + fixed(r.flows.fim, 4) + "</span></figcaption>\n" +
            (heatmap ? report::heatmap_svg(fabric, r.trace, load_scale(r, top), down)
                     : report::fabric_svg(fabric, r.trace, load_scale(r, top), down)) +
            "</figure>\n";
  }
  const std::string colours =
      "coloured by the flows it carries over its scenario's mean flows per link: the neutral grey is the mean "
      "(a perfectly balanced table is grey throughout), blue less, red more";
  if (heatmap)
    return section("fabric", "The fabric, switch by switch",
                   "With more than " + std::to_string(report::kHeatmapSwitches) +
                       " switches the fabric is a matrix: a row per sending switch, a column per receiving one, "
                       "tiers from the top; each cell is the most loaded cable between the two, " + colours +
                       "; hover a cell for each cable.",
                   body);
  return section("fabric", "The fabric, link by link",
                 "Tiers top to bottom. Each cable is drawn as its two directions side by side, " + colours +
                     "; the count sits next to the sending switch.",
                 body);
}

std::string bars_section(const ReportInput& in, double top) {
  std::string body = "<div class=\"grid2\">\n";
  const auto& links = in.sim->metric_links();
  double axis_max = 0;  // one axis for every scenario's chart
  for (const auto& r : *in.results) axis_max = std::max(axis_max, r.flows.max);
  for (const auto& r : *in.results) {
    const report::LoadScale scale = load_scale(r, top);
    body += "<figure class=\"bars-figure\"><figcaption>" + escape(r.spec->name) + " <span>\u2014 " +
            std::to_string(links.size()) + " links, most loaded first</span></figcaption>\n" +
            report::link_bars_svg(in.sim->fabric(), links, r.trace, scale, axis_max, in.max_bars);
    if (links.size() > in.max_bars)
      body += "<p class=\"note\">" + std::to_string(links.size() - in.max_bars) +
              " less loaded links not shown.</p>\n";
    body += "</figure>\n";
  }
  return section("links", "Load per link", "Flows on every switch-to-switch link; the dashed line is the mean.",
                 body + "</div>\n");
}

std::vector<std::size_t> flows_on(const Trace& trace, std::size_t flows, LinkId link) {
  std::vector<std::size_t> out;
  for (std::size_t f = 0; f < flows; ++f)
    for (LinkId l : trace.path(f))
      if (l == link) {
        out.push_back(f);
        break;
      }
  return out;
}

std::string path_text(const Fabric& fabric, const Trace& trace, std::size_t f) {
  const auto p = trace.path(f);
  std::string out = node_name(fabric, fabric.link(p.front()).from);
  for (LinkId l : p) out += " \u2192 " + node_name(fabric, fabric.link(l).to);
  return out;
}

std::string hottest_section(const ReportInput& in) {
  const Fabric& fabric = in.sim->fabric();
  const auto& flows = in.sim->flows();
  std::string body;
  for (const auto& r : *in.results) {
    const LinkId hot = hottest_link(*in.sim, r);
    if (hot == kNone) continue;
    const auto on = flows_on(r.trace, flows.size(), hot);
    body += "<h3>" + escape(r.spec->name) + ": <code>" + escape(fabric.link_name(hot)) + "</code> <span class=\"sub\">" +
            html::grouped(on.size()) + " flows, " + human_bytes(r.trace.bytes_on(hot)) +
            "</span></h3>\n";
    body += "<div class=\"table-wrap\"><table class=\"hot-flows\"><thead><tr><th>#</th><th class=\"mono\">src ip</th>"
            "<th class=\"mono\">sport</th><th class=\"mono\">dst ip</th><th class=\"mono\">dport</th><th>proto</th>"
            "<th>QPN pair</th><th>channel</th><th>bytes</th><th style=\"text-align:left\">path</th></tr></thead>"
            "<tbody>\n";
    for (std::size_t i = 0; i < on.size() && i < in.max_hot_flows; ++i) {
      const std::size_t f = on[i];
      body += "<tr><td>" + std::to_string(f) + "</td><td class=\"mono\">" + hashing::format_ip(flows.src_ip[f]) +
              "</td><td class=\"mono\">" + std::to_string(r.sport(flows, f)) + "</td><td class=\"mono\">" +
              hashing::format_ip(flows.dst_ip[f]) + "</td><td class=\"mono\">" + std::to_string(flows.dport[f]) +
              "</td><td>" + std::to_string(flows.proto[f]) + "</td><td>" + std::to_string(flows.lqpn[f]) + " \u2192 " +
              std::to_string(flows.rqpn[f]) + "</td><td>" + std::to_string(flows.channel[f]) + "</td><td>" +
              human_bytes(static_cast<double>(flows.bytes[f])) + "</td><td class=\"path\">" +
              escape(path_text(fabric, r.trace, f)) + "</td></tr>\n";
    }
    body += "</tbody></table></div>\n";
    if (on.size() > in.max_hot_flows)
      body += "<p class=\"note\">" + std::to_string(on.size() - in.max_hot_flows) + " more flows not shown.</p>\n";
  }
  return section("hottest", "Flows on the hottest link",
                 "Per scenario, the link with the most flows (then the most bytes), and the five-tuple of every flow "
                 "on it.",
                 body);
}

std::string assumptions_section(const Spec& spec) {
  std::string t = "<table class=\"kv\" id=\"assumption-table\"><tbody>\n";
  for (const Assumption& a : assumptions(spec))
    t += "<tr><td>" + escape(a.topic) + "</td><td>" + escape(a.text) + "</td></tr>\n";
  return section("assumptions", "What the config assumes",
                 "Generated from <code>" + escape(spec.source) + "</code>; every number above follows from these.",
                 t + "</tbody></table>\n");
}

std::string jobs_text(const Spec& spec) {
  std::string out;
  for (std::size_t i = 0; i < spec.jobs.size(); ++i) {
    const JobSpec& j = spec.jobs[i];
    if (j.kind == workloads::JobKind::Training) {
      out += (i ? "; " : "") + training_text(j.training);
      continue;
    }
    out += (i ? "; " : "") + std::string(workloads::collective_name(j.collective)) + " of " +
           human_bytes(static_cast<double>(j.message.value)) + ", " + std::to_string(j.channels) +
           " channels \u00d7 " + std::to_string(j.qps_per_connection) + " QP";
  }
  return out;
}

}  // namespace

LinkId hottest_link(const Simulation& sim, const ScenarioResult& r) {
  LinkId best = kNone;
  for (LinkId l : sim.metric_links()) {
    if (best == kNone) {
      best = l;
      continue;
    }
    const double fl = r.trace.flows_on(l), fb = r.trace.flows_on(best);
    if (fl > fb || (fl == fb && r.trace.bytes_on(l) > r.trace.bytes_on(best))) best = l;
  }
  return best;
}

void report_data_json(const ReportInput& in, JsonWriter& w) {
  const Simulation& sim = *in.sim;
  const Fabric& fabric = sim.fabric();
  const auto& flows = sim.flows();
  w.begin_object();
  w.key("config").value(sim.spec().source);
  w.key("fabric").value(fabric_json(sim));
  std::uint64_t total = 0;
  for (auto b : flows.bytes) total += b;
  w.key("workload").value({{"flows", flows.size()}, {"bytes", total}});
  w.key("scenarios").begin_array();
  for (std::size_t i = 0; i < in.results->size(); ++i) {
    const ScenarioResult& r = (*in.results)[i];
    json s{{"name", r.spec->name}};
    s["metrics"] = imbalance_json(r.flows, r.bytes);
    s["collisions"] = r.collisions;
    s["predicted"] = prediction_json(r.predicted.all);
    w.begin_object().members(s);
    w.key("links").begin_array();  // link by link: the page never holds the whole document
    for (LinkId l : sim.metric_links()) w.value(link_json(sim, r, l));
    w.end();
    s = json::object();
    if (report::has_sizes(in)) s["sizes"] = sizes_json(sim, in.sizes[i]);
    const LinkId hot = hottest_link(sim, r);
    if (hot != kNone) {
      json tuples = json::array();
      for (std::size_t f : flows_on(r.trace, flows.size(), hot))
        tuples.push_back({{"src_ip", hashing::format_ip(flows.src_ip[f])},
                          {"dst_ip", hashing::format_ip(flows.dst_ip[f])},
                          {"proto", flows.proto[f]},
                          {"sport", r.sport(flows, f)},
                          {"dport", flows.dport[f]}});
      s["hottest"] = {{"id", fabric.link_name(hot)},
                      {"from", node_name(fabric, fabric.link(hot).from)},
                      {"to", node_name(fabric, fabric.link(hot).to)},
                      {"flows", r.trace.split() ? json(r.trace.link_share[hot]) : json(r.trace.link_flows[hot])},
                      {"five_tuples", std::move(tuples)}};
    }
    w.members(s).end();
  }
  w.end();
  json doc;
  if (!in.sweeps.empty()) {
    json sweeps = json::array();
    for (std::size_t i = 0; i < in.sweeps.size(); ++i) sweeps.push_back(report::sweep_data_json(in, i));
    doc["sweeps"] = std::move(sweeps);
  }
  if (in.flowtracer) {
    const FlowTracerComparison& c = *in.flowtracer;
    doc["flowtracer"] = {{"ecmp", c.ecmp_scenario},
                         {"static", c.static_scenario},
                         {"ecmp_fim", summary_json(c.ecmp_fim)},
                         {"static_fim", c.static_fim},
                         {"reduction_vs_mean", c.reduction_vs_mean},
                         {"reduction_vs_median", c.reduction_vs_median},
                         {"paper_reduction", kPaperReduction},
                         {"ecmp_slowdown", summary_json(c.ecmp_slowdown)},
                         {"static_slowdown", c.static_slowdown}};
    Json alternatives = Json::array();
    for (const Alternative& a : c.alternatives)
      alternatives.push_back({{"label", a.label}, {"fim", a.fim}, {"slowdown", a.slowdown}});
    doc["flowtracer"]["alternatives"] = std::move(alternatives);
    if (!c.verdict.empty()) doc["flowtracer"]["verdict"] = c.verdict;
  }
  if (in.emulation) doc["emulation"] = emulation_json(*in.emulation);
  w.members(doc).end();
}

void report_html(const ReportInput& in, const Sink& page) {
  const Simulation& sim = *in.sim;
  const Spec& spec = sim.spec();
  const Fabric& fabric = sim.fabric();
  const double top = load_top(in);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>ecmpsim report: " + escape(spec.source) + "</title>\n<style>\n" +
                    report::stylesheet() + "</style>\n</head>\n<body>\n";
  out += "<header class=\"page\"><div class=\"inner\">\n<h1>ecmpsim report: " + escape(spec.source) + "</h1>\n";
  out += "<p>" + std::to_string(fabric.switches().size()) + " switches, " +
         std::to_string(fabric.endpoints().size()) + " endpoints, " + std::to_string(sim.metric_links().size()) +
         " switch-to-switch links \u00b7 " + jobs_text(spec) + ": " + html::grouped(sim.flows().size()) + " flows \u00b7 " +
         std::to_string(in.results->size()) + " scenarios</p>\n";
  if (!in.command.empty()) out += "<p><code>" + escape(in.command) + "</code></p>\n";
  out += "</div></header>\n<nav><a href=\"#summary\">At a glance</a><a href=\"#fabric\">Fabric</a>"
         "<a href=\"#links\">Links</a><a href=\"#scenarios\">Scenarios</a>";
  if (in.flowtracer) out += "<a href=\"#flowtracer\">FlowTracer</a>";
  for (std::size_t i = 0; i < in.sweeps.size(); ++i)
    out += "<a href=\"#" + report::sweep_id(i) + "\">Seeds" +
           (in.sweeps.size() > 1 ? " \u00b7 " + escape(in.sweeps[i].scenario) : std::string()) + "</a>";
  if (in.emulation) out += "<a href=\"#emulation\">Measured</a>";
  if (report::has_sizes(in)) out += "<a href=\"#sizes\">Sizes</a>";
  out += "<a href=\"#hottest\">Hottest link</a><a href=\"#assumptions\">Assumptions</a></nav>\n<main>\n";
  out += summary_section(in) + fabric_section(in, top) + bars_section(in, top) + comparison_section(in);
  if (in.flowtracer) out += flowtracer_section(*in.flowtracer);
  for (std::size_t i = 0; i < in.sweeps.size(); ++i)
    if (!in.sweeps[i].values.empty()) out += report::sweep_section(in, i);
  if (in.emulation) out += emulation_section(*in.emulation, *in.results);
  if (report::has_sizes(in)) out += report::sizes_section(in);
  out += hottest_section(in) + assumptions_section(spec);
  out += "<footer>Made by ecmpsim; a self-contained page (no scripts, no network).</footer>\n</main>\n";
  out += "<script type=\"application/json\" id=\"ecmpsim-data\">\n";
  page(out);
  // '<' only occurs inside JSON strings, where \u003c means the same; the
  // script element then cannot be closed early by any name in the config.
  JsonWriter data(
      [&](std::string_view piece) {
        std::string escaped;
        for (const char c : piece) escaped += c == '<' ? std::string_view("\\u003c") : std::string_view(&c, 1);
        page(escaped);
      },
      1);
  report_data_json(in, data);
  data.flush();
  page("\n</script>\n</body>\n</html>\n");
}

std::string report_html(const ReportInput& in) {
  std::string page;
  report_html(in, [&](std::string_view piece) { page += piece; });
  return page;
}

}  // namespace ecmpsim
