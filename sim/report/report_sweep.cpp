#include "sim/report/report_sweep.h"

#include <cmath>
#include <tuple>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/output/busbw_figures.h"
#include "sim/report/html.h"
#include "sim/report/report_charts.h"

namespace ecmpsim::report {
namespace {

using html::escape;

// nccl-tests prints bus bandwidth in GB/s (10^9 bytes); the flow model's unit is Gb/s.
constexpr double kGBperGb = 1.0 / 8;

bool has_slowdown(const SeedSweep& d) {
  return !d.values.empty() && std::isfinite(d.values[0][static_cast<std::size_t>(SweepMetric::Slowdown)]);
}

// Jobs whose busbw the sweep predicted (none without the flow model).
std::size_t busbw_jobs(const ReportInput& in, const SeedSweep& d) {
  return has_slowdown(d) ? std::min(in.sim->jobs().size(), d.values.jobs()) : 0;
}

// Each job's busbw here is the flow model's, the fabric-bound figure (sim/output/busbw_figures.h).
std::string job_busbw(const ReportInput& in, std::size_t j, const char* unit) {
  return std::string(busbw_label(BusbwFigure::FabricBound)) + " " +
         (in.sim->jobs().size() > 1 ? in.sim->jobs()[j].name + " " : std::string()) + "(" + unit + ")";
}

std::string stats_table(const ReportInput& in, const SeedSweep& d, std::size_t i) {
  std::string t = "<div class=\"table-wrap\"><table id=\"" + sweep_id(i) +
                  "-table\"><thead><tr><th>metric</th><th>min</th>"
                  "<th>mean</th><th>p10</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>\n";
  auto row = [&](std::string_view name, std::size_t column, double factor) {
    const MetricSummary& s = d.summary.metrics[column];
    t += "<tr><td>" + escape(name) + "</td>";
    for (double x : {s.min, s.mean, s.p10, s.p50, s.p90, s.p99, s.max}) t += "<td>" + fixed(x * factor, 4) + "</td>";
    t += "</tr>\n";
  };
  row("FIM (flows)", static_cast<std::size_t>(SweepMetric::Fim), 1);
  row("max / mean (flows)", static_cast<std::size_t>(SweepMetric::MaxMean), 1);
  if (has_slowdown(d)) row("predicted slowdown", static_cast<std::size_t>(SweepMetric::Slowdown), 1);
  for (std::size_t j = 0; j < busbw_jobs(in, d); ++j) {
    row(job_busbw(in, j, "Gb/s"), busbw_column(j), 1);
    row(job_busbw(in, j, "GB/s"), busbw_column(j), kGBperGb);
  }
  return t + "</tbody></table></div>\n";
}

std::string charts(const ReportInput& in, const SeedSweep& d) {
  const ScenarioResult* static_r = nullptr;
  const ScenarioResult* swept = nullptr;
  for (const auto& r : *in.results) {
    if (!static_r && routing_mode(r.spec->routing).tables) static_r = &r;
    if (!swept && r.spec->name == d.scenario) swept = &r;
  }
  const std::uint64_t best = d.summary.best, worst = d.summary.worst;
  // The static scenario's and the config seed's markers: on the FIM charts the
  // axis widens to show them; the slowdown charts keep the ECMP range and
  // draw the static slowdown at the edge when it lies off it.
  auto markers = [&](const std::vector<double>& v, double static_value, double config_value, bool clamp) {
    std::vector<Marker> m{
        {v[best], "best: seed " + std::to_string(d.seed(best)) + ", " + fixed(v[best], 4), html::kBest, false},
        {v[worst], "worst: seed " + std::to_string(d.seed(worst)) + ", " + fixed(v[worst], 4), html::kWorst, false}};
    if (static_r) m.push_back({static_value, "static: " + fixed(static_value, 4), html::kRef, clamp});
    if (swept) m.push_back({config_value, "config seed " + std::to_string(swept->spec->hash.seed), html::kMuted, clamp});
    return m;
  };
  auto charts_or_note = [](std::span<const double> v, std::string_view label, std::span<const Marker> m) {
    const std::string note = single_value_note(v, label, m);
    if (!note.empty()) return note;
    return "<div class=\"grid2\">\n<figure>" + histogram_svg(v, label, m) + "</figure>\n<figure>" + cdf_svg(v, label, m) +
           "</figure>\n</div>\n";
  };
  const std::vector<double> fim = d.column(SweepMetric::Fim);
  const auto fim_markers = markers(fim, static_r ? static_r->flows.fim : 0, swept ? swept->flows.fim : 0, false);
  std::string body = "<h3>Flow imbalance metric (FIM)</h3>\n" + charts_or_note(fim, "FIM (flows)", fim_markers);
  if (has_slowdown(d)) {
    const std::vector<double> slowdown = d.column(SweepMetric::Slowdown);
    const auto sd_markers = markers(slowdown, static_r ? static_r->predicted.all.slowdown : std::nan(""),
                                    swept ? swept->predicted.all.slowdown : std::nan(""), true);
    body += "<h3>Predicted slowdown (completion / ideal)</h3>\n" +
            charts_or_note(slowdown, "predicted slowdown", sd_markers);
  }
  return body;
}

std::string extremes_table(const ReportInput& in, const SeedSweep& d, std::size_t i) {
  const std::size_t jobs = busbw_jobs(in, d);
  std::string t = "<div class=\"table-wrap\"><table id=\"" + sweep_id(i) +
                  "-extremes\"><thead><tr><th>variant</th><th>seed</th><th>FIM</th><th>max / mean</th>" +
                  std::string(has_slowdown(d) ? "<th>slowdown</th>" : "");
  for (std::size_t j = 0; j < jobs; ++j) t += "<th>" + escape(job_busbw(in, j, "GB/s")) + "</th>";
  t += "</tr></thead><tbody>\n";
  for (auto [name, v, colour] : {std::tuple{"best", d.summary.best, html::kBest},
                                 std::tuple{"worst", d.summary.worst, html::kWorst}}) {
    const auto row = d.values[v];
    t += "<tr><td><span class=\"swatch\" style=\"color:" + html::css_colour(colour) + "\">\u25a0</span>" + name +
         "</td><td>" + std::to_string(d.seed(v)) + "</td><td>" +
         fixed(row[static_cast<std::size_t>(SweepMetric::Fim)], 4) + "</td><td>" +
         fixed(row[static_cast<std::size_t>(SweepMetric::MaxMean)], 4) + "</td>" +
         (has_slowdown(d) ? "<td>" + fixed(row[static_cast<std::size_t>(SweepMetric::Slowdown)], 4) + "</td>" : "");
    for (std::size_t j = 0; j < jobs; ++j) t += "<td>" + fixed(row[busbw_column(j)] * kGBperGb, 2) + "</td>";
    t += "</tr>\n";
  }
  return t + "</tbody></table></div>\n";
}

Json busbw_json(const ReportInput& in, std::size_t j, std::span<const double> row) {
  return {{"job", in.sim->jobs()[j].name}, {"gbps", row[busbw_column(j)]}, {"GBps", row[busbw_column(j)] * kGBperGb}};
}

}  // namespace

std::string sweep_id(std::size_t i) { return i == 0 ? "sweep" : "sweep-" + std::to_string(i + 1); }

std::string sweep_section(const ReportInput& in, std::size_t i) {
  const SeedSweep& d = in.sweeps[i];
  std::string body = stats_table(in, d, i);
  for (const std::string& note : d.notes) body += "<p class=\"note\">" + escape(note) + "</p>\n";
  body += charts(in, d);
  body += "<h3>Best and worst variants</h3>\n" + extremes_table(in, d, i);
  return html::section(sweep_id(i), "Scenario " + d.scenario + " over " + html::grouped(d.seeds.size()) + " hash seeds",
                       "Scenario <code>" + escape(d.scenario) +
                           "</code> evaluated with every switch's ECMP seed set to " + escape(format_range(d.seeds)) +
                           " (half-open) in " + escape(in.sim->spec().source) + "; best and worst by FIM.",
                       body);
}

Json sweep_data_json(const ReportInput& in, std::size_t i) {
  const SeedSweep& d = in.sweeps[i];
  auto metric = [&](SweepMetric m) { return summary_json(d.summary.metrics[static_cast<std::size_t>(m)]); };
  Json metrics{{"fim", metric(SweepMetric::Fim)}, {"max_mean", metric(SweepMetric::MaxMean)}};
  if (has_slowdown(d)) metrics["slowdown"] = metric(SweepMetric::Slowdown);
  Json busbw = Json::array();
  for (std::size_t j = 0; j < busbw_jobs(in, d); ++j) {
    MetricSummary gb = d.summary.metrics[busbw_column(j)];
    for (double* v : {&gb.min, &gb.mean, &gb.p10, &gb.p50, &gb.p90, &gb.p99, &gb.max}) *v *= kGBperGb;
    busbw.push_back({{"job", in.sim->jobs()[j].name},
                     {"gbps", summary_json(d.summary.metrics[busbw_column(j)])},
                     {"GBps", summary_json(gb)}});
  }
  auto variant = [&](std::uint64_t v) {
    const auto row = d.values[v];
    Json one{{"seed", d.seed(v)},
             {"fim", row[static_cast<std::size_t>(SweepMetric::Fim)]},
             {"max_mean", row[static_cast<std::size_t>(SweepMetric::MaxMean)]},
             {"slowdown", row[static_cast<std::size_t>(SweepMetric::Slowdown)]}};
    Json bw = Json::array();
    for (std::size_t j = 0; j < busbw_jobs(in, d); ++j) bw.push_back(busbw_json(in, j, row));
    one["busbw"] = std::move(bw);
    return one;
  };
  return {{"scenario", d.scenario},         {"seeds", format_range(d.seeds)}, {"samples", d.summary.samples},
          {"metrics", std::move(metrics)},  {"busbw", std::move(busbw)},     {"notes", d.notes},
          {"best", variant(d.summary.best)}, {"worst", variant(d.summary.worst)}};
}

}  // namespace ecmpsim::report
