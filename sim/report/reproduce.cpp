#include "sim/report/reproduce.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/report/assumptions.h"
#include "sim/base/error.h"
#include "sim/report/html.h"
#include "sim/config/ranges.h"

namespace ecmpsim {

const ScenarioSpec& first_scenario(const Spec& spec, bool RoutingMode::*role) {
  for (const ScenarioSpec& s : spec.scenarios)
    if (routing_mode(s.routing).*role && s.sports == SportPlan::Workload) return s;
  std::string_view label;  // the first mode with the role names it
  for (const RoutingMode& m : kRoutingKinds)
    if (label.empty() && m.*role) label = m.label;
  throw InputError({spec.source, 0, 0, {}}, "the config has no " + std::string(label) + " scenario to compare");
}

FlowTracerComparison compare_flowtracer(const SeedSweep& ecmp, const ScenarioResult& ecmp_config,
                                        const ScenarioResult& static_result) {
  FlowTracerComparison c;
  c.ecmp_scenario = ecmp.scenario;
  c.static_scenario = static_result.spec->name;
  c.seeds = ecmp.seeds;
  c.samples = ecmp.summary.samples;
  c.ecmp_fim = ecmp.summary.metrics[static_cast<std::size_t>(SweepMetric::Fim)];
  c.ecmp_config_fim = ecmp_config.flows.fim;
  c.static_fim = static_result.flows.fim;
  auto reduction = [&](double ecmp_fim) { return ecmp_fim > 0 ? 1 - c.static_fim / ecmp_fim : std::nan(""); };
  c.reduction_vs_mean = reduction(c.ecmp_fim.mean);
  c.reduction_vs_median = reduction(c.ecmp_fim.p50);
  std::size_t better = 0;
  for (std::uint64_t i = 0; i < ecmp.values.size(); ++i)
    better += ecmp.values[i][static_cast<std::size_t>(SweepMetric::Fim)] > c.static_fim;
  c.static_better = ecmp.values.empty() ? 0 : static_cast<double>(better) / static_cast<double>(ecmp.values.size());
  c.ecmp_slowdown = ecmp.summary.metrics[static_cast<std::size_t>(SweepMetric::Slowdown)];
  c.static_slowdown = static_result.predicted.all.slowdown;
  return c;
}

std::vector<Alternative> alternatives(const Simulation& sim, const ScenarioSpec& ecmp) {
  std::vector<std::pair<std::string, ScenarioSpec>> cases;
  ScenarioSpec planned = ecmp;
  planned.sports = SportPlan::Planned;
  cases.emplace_back("ECMP '" + ecmp.name + "' + planned ports", planned);
  // Every mode that needs neither a hash nor tables of its own, each adaptive
  // mode on its own.
  for (const RoutingMode& m : kRoutingKinds) {
    if (m.per_hop) continue;
    ScenarioSpec alt = ecmp;
    alt.routing = m.value;
    if (!m.load_aware) {
      cases.emplace_back(std::string(m.name), alt);
      continue;
    }
    for (const auto& adaptive : kAdaptiveModes) {
      alt.adaptive = adaptive.value;
      cases.emplace_back(std::string(m.name) + " " + std::string(adaptive.name), alt);
    }
  }
  std::vector<Alternative> out;
  for (auto& [label, s] : cases) {
    s.name = label;
    try {
      const ScenarioResult r = sim.run(s);
      out.push_back({label, r.flows.fim, r.predicted.all.slowdown, {}});
    } catch (const InputError& e) {
      out.push_back({label, std::nan(""), std::nan(""), e.what()});
    }
  }
  return out;
}

std::string flowtracer_table(const FlowTracerComparison& c, const Spec& spec) {
    auto pct = [](double v) { return std::isnan(v) ? std::string("-") : fixed(100 * v, 1) + " %"; };
  auto row = [](std::string label, std::string value, std::string note = {}) {
    label.resize(std::max<std::size_t>(label.size(), 34), ' ');
    std::string v(value);
    if (v.size() < 10) v.insert(0, 10 - v.size(), ' ');
    return label + v + (note.empty() ? "" : "   " + note) + "\n";
  };
  std::string out = "FlowTracer comparison: " + escape_text(spec.source) + "\n";
  out += "flow imbalance metric (FIM) over switch-to-switch links, by flow count\n\n";
  out += row("", "FIM", "");
  out += std::string(60, '-') + "\n";
  const std::string ecmp = "ECMP '" + c.ecmp_scenario + "'";
  const std::string seeds = "seeds " + format_range(c.seeds) + " (" + std::to_string(c.samples) + ")";
  out += row(ecmp + " min", fixed(c.ecmp_fim.min, 4), seeds);
  out += row(ecmp + " mean", fixed(c.ecmp_fim.mean, 4));
  out += row(ecmp + " p50", fixed(c.ecmp_fim.p50, 4));
  out += row(ecmp + " p90", fixed(c.ecmp_fim.p90, 4));
  out += row(ecmp + " max", fixed(c.ecmp_fim.max, 4));
  out += row(ecmp + " at the config's seed", fixed(c.ecmp_config_fim, 4));
  out += row("static '" + c.static_scenario + "'", fixed(c.static_fim, 4));
  out += std::string(60, '-') + "\n";
  out += row("reduction vs ECMP mean", pct(c.reduction_vs_mean), "1 - FIM_static / mean FIM_ecmp");
  out += row("reduction vs ECMP median", pct(c.reduction_vs_median), "1 - FIM_static / p50 FIM_ecmp");
  out += row("FlowTracer (paper)", pct(kPaperReduction), "arXiv 2410.17078, reported");
  out += row("seeds where static is better", pct(c.static_better), "ECMP FIM > static FIM");
  if (!c.alternatives.empty()) {
    out += "\nwhat other routings would have done (same fabric and flows)\n";
    for (const Alternative& a : c.alternatives)
      out += row(a.label, fixed(a.fim, 4),
                 a.why.empty() ? "reduction vs ECMP mean " + pct(c.ecmp_fim.mean > 0 ? 1 - a.fim / c.ecmp_fim.mean
                                                                                     : std::nan(""))
                               : a.why);
  }
  if (std::isfinite(c.ecmp_slowdown.mean) && std::isfinite(c.static_slowdown)) {
    out += "\npredicted slowdown (completion / ideal)\n";
    out += row(ecmp + " mean", fixed(c.ecmp_slowdown.mean, 4));
    out += row(ecmp + " p90", fixed(c.ecmp_slowdown.p90, 4));
    out += row("static '" + c.static_scenario + "'", fixed(c.static_slowdown, 4));
    for (const Alternative& a : c.alternatives) out += row(a.label, fixed(a.slowdown, 4));
  }
  out += "\nassumptions (from the config):\n";
  std::size_t w = 0;
  for (const Assumption& a : assumptions(spec)) w = std::max(w, a.topic.size());
  for (const Assumption& a : assumptions(spec)) {
    std::string topic = a.topic;
    topic.resize(w, ' ');
    out += "  " + topic + "  " + a.text + "\n";
  }
  return out;
}

Json flowtracer_json(const FlowTracerComparison& c) {
  auto number = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
  Json j{{"ecmp_scenario", c.ecmp_scenario},
         {"static_scenario", c.static_scenario},
         {"seeds", format_range(c.seeds)},
         {"samples", c.samples},
         {"ecmp_fim", summary_json(c.ecmp_fim)},
         {"ecmp_config_fim", c.ecmp_config_fim},
         {"static_fim", c.static_fim},
         {"reduction_vs_mean", number(c.reduction_vs_mean)},
         {"reduction_vs_median", number(c.reduction_vs_median)},
         {"paper_reduction", kPaperReduction},
         {"static_better", c.static_better}};
  if (std::isfinite(c.ecmp_slowdown.mean) && std::isfinite(c.static_slowdown)) {
    j["ecmp_slowdown"] = summary_json(c.ecmp_slowdown);
    j["static_slowdown"] = c.static_slowdown;
  }
  Json alternatives = Json::array();
  for (const Alternative& a : c.alternatives) {
    Json one{{"label", a.label}, {"fim", number(a.fim)}, {"slowdown", number(a.slowdown)}};
    if (!a.why.empty()) one["why"] = a.why;
    alternatives.push_back(std::move(one));
  }
  j["alternatives"] = std::move(alternatives);
  return j;
}

Result reproduce_result(const Spec& spec, const FlowTracerComparison& c, const Sensitivity& s) {
  Result r;
  r.text = [sp = &spec, cp = &c, ss = &s] { return flowtracer_table(*cp, *sp) + sensitivity_table(*ss); };
  r.json = [sp = &spec, cp = &c, ss = &s](JsonWriter& w) {
    w.value(Json{{"config", sp->source},
                 {"comparison", flowtracer_json(*cp)},
                 {"sensitivity", sensitivity_json(*ss)},
                 {"verdict", ss->verdict}});
  };
  return r;
}

}  // namespace ecmpsim
