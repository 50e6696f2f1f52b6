// The size table and the busbw-vs-size chart of the report.
#include "sim/report/report_sizes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "sim/base/text.h"
#include "sim/model/size_table.h"
#include "sim/report/chart_frame.h"
#include "sim/output/busbw_figures.h"
#include "sim/report/html.h"

namespace ecmpsim::report {
namespace {

using html::css_colour;
using html::escape;
using html::num;

// One line of the chart: busbw (GB/s) at log2(size).
struct Series {
  std::string name;
  html::Rgb colour;
  bool dashed = false;
  std::vector<std::pair<double, double>> points;
};

constexpr std::array<html::Rgb, 5> kPalette{html::kBar, html::kWorst, html::kBest, html::kRef, html::kSwitch};

// nccl-tests' size spelling for 2^e bytes: 8, 1K, 16M, 1G.
std::string size_label(int e) {
  static constexpr std::array<const char*, 5> units{"", "K", "M", "G", "T"};
  const int u = std::min(e / 10, 4);
  return std::to_string(1ULL << (e - 10 * u)) + units[static_cast<std::size_t>(u)];
}

std::string chart_svg(const std::vector<Series>& series, const std::string& title) {
  double lo = INFINITY, hi = -INFINITY, top = 0;
  for (const Series& s : series)
    for (const auto& [x, y] : s.points) lo = std::min(lo, x), hi = std::max(hi, x), top = std::max(top, y);
  Frame f;
  f.lo = std::floor(lo);
  f.hi = std::max(std::ceil(hi), f.lo + 1);
  const auto yticks = html::nice_ticks(0, top > 0 ? top : 1, 5);
  f.ymax = yticks.back();
  // Powers of two, at most about nine of them: every 1, 2, 5 or 10 doublings.
  const int span = static_cast<int>(f.hi - f.lo);
  const int step = span <= 9 ? 1 : span <= 18 ? 2 : span <= 45 ? 5 : 10;
  std::vector<Tick> xticks;
  for (int e = static_cast<int>(f.lo); e <= static_cast<int>(f.hi); ++e)
    if (e % step == 0 && e >= 0) xticks.push_back({static_cast<double>(e), size_label(e)});
  std::string out = html::svg_open(Frame::kW, Frame::kH, title, "busbw-size");
  out += axes(f, yticks, html::tick_digits(yticks[1] - yticks[0]), xticks, "message size (bytes, log scale)",
              std::string(busbw_label(BusbwFigure::NcclTests)) + " (GB/s)");
  double ly = Frame::kT - 36;
  for (const Series& s : series) {
    std::string d;
    for (const auto& [x, y] : s.points) d += (d.empty() ? "M" : " L") + num(f.x(x)) + " " + num(f.y(y));
    const std::string c = css_colour(s.colour);
    out += "<g class=\"busbw-series\" data-series=\"" + escape(s.name) + "\"><title>" + escape(s.name) +
           "</title><path d=\"" + d + "\" fill=\"none\" stroke=\"" + c + "\" stroke-width=\"2\"" +
           (s.dashed ? " stroke-dasharray=\"5 4\"" : "") + "/></g>\n";
    out += html::line(Frame::kL + 8, ly - 4, Frame::kL + 26, ly - 4,
                      "stroke=\"" + c + "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"5 4\"" : ""));
    out += html::text(Frame::kL + 30, ly, s.name, "class=\"tick-label\"");
    ly += 12;
  }
  return out + "</svg>\n";
}

std::string table_html(const ReportInput& in, const std::string& scenario, const std::vector<SizeRow>& rows) {
  std::string t = "<div class=\"table-wrap\"><table class=\"sizes\"><thead><tr><th>job</th><th>size (B)</th>"
                  "<th>count</th><th>type</th><th>time (us)</th><th>algbw (GB/s)</th><th>" +
                  std::string(busbw_label(BusbwFigure::NcclTests)) + " (GB/s)</th>"
                  "<th>algo</th><th>proto</th><th>slowdown vs ideal</th></tr></thead><tbody>\n";
  for (const SizeRow& r : rows)
    t += "<tr><td>" + escape(in.sim->jobs()[r.job].name) + "</td><td>" + std::to_string(r.size.value) + "</td><td>" +
         std::to_string(r.count) + "</td><td>" + kElementType + "</td><td>" + fixed(r.time_us, 2) + "</td><td>" +
         fixed(r.algbw_gbs, 2) + "</td><td>" + fixed(r.busbw_gbs, 2) + "</td><td>" +
         std::string(size_algo_name(r)) + "</td><td>" +
         std::string(name_of(workloads::kNcclProtos, r.proto)) + "</td><td>" + fixed(r.slowdown, 4) + "</td></tr>\n";
  return t + "</tbody></table></div>\n<p class=\"note\">Scenario " + escape(scenario) + ".</p>\n";
}

}  // namespace

bool has_sizes(const ReportInput& in) { return wants_sizes(in.sim->spec()); }

std::string sizes_section(const ReportInput& in) {
  // Per job: one series per scenario, and the ideal fabric's (busbw x slowdown: the same size's ideal time).
  std::map<std::uint32_t, std::vector<Series>> charts;
  std::string tables;
  for (std::size_t i = 0; i < in.results->size(); ++i) {
    const ScenarioResult& r = (*in.results)[i];
    const std::vector<SizeRow>& rows = in.sizes[i];
    tables += "<h3>" + escape(r.spec->name) + "</h3>\n" + table_html(in, r.spec->name, rows);
    for (const SizeRow& row : rows) {
      auto& series = charts[row.job];
      if (series.empty()) series.push_back({"ideal fabric", html::kMuted, true, {}});
      if (series.size() < i + 2) series.push_back({r.spec->name, kPalette[i % kPalette.size()], false, {}});
      const double x = std::log2(static_cast<double>(row.size.value));
      if (i == 0) series.front().points.emplace_back(x, row.busbw_gbs * row.slowdown);
      series.back().points.emplace_back(x, row.busbw_gbs);
    }
  }
  std::string figures;
  for (auto& [job, series] : charts) {
    std::rotate(series.begin(), series.begin() + 1, series.end());  // the ideal drawn last, over the others
    const std::string title =
        std::string(busbw_label(BusbwFigure::NcclTests)) + " against message size, " + in.sim->jobs()[job].name;
    figures += "<figure class=\"busbw-figure\"><figcaption>" + escape(title) + "</figcaption>\n" +
               chart_svg(series, title) + "</figure>\n";
  }
  return html::section(
      "sizes", "Time per message size",
      "nccl-tests' table for every scenario: the cost model of each job's NCCL release (latency + size / bandwidth, algorithm and "
      "protocol chosen per size) on the bandwidth each job's channels get on the scenario's routed paths. A hash "
      "collision costs bandwidth at large sizes and nothing where latency rules. Its busbw is the " +
          busbw_legend(BusbwFigure::NcclTests) + ".",
      figures + tables);
}

}  // namespace ecmpsim::report
