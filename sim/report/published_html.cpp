// `ecmpsim report --published`: the catalogue as one self-contained HTML
// document, an index of every experiment, then a section per experiment with
// its distribution drawn by the report's own charts and the published figure
// marked on it (clamped to the chart's edge, with an arrow, when it lies
// outside every case).
#include <cmath>

#include "sim/base/text.h"
#include "sim/report/html.h"
#include "sim/report/published.h"
#include "sim/report/report_charts.h"
#include "sim/report/report_style.h"

namespace ecmpsim {
namespace {

using html::escape;

std::string index_section(std::span<const PublishedResult> results) {
  std::string t = "<div class=\"table-wrap\"><table id=\"published-index\"><thead><tr><th>experiment</th>"
                  "<th>published</th><th>at the config</th><th>p10 - p90</th><th>min - max</th><th>verdict</th>"
                  "</tr></thead><tbody>\n";
  for (const PublishedResult& r : results) {
    const PublishedExperiment& e = *r.experiment;
    const auto v = [&](double x) { return escape(published_value(e.metric, x)); };
    t += "<tr><td><a href=\"#" + escape(e.name) + "\">" + escape(e.name) + "</a></td><td>" + v(e.published) +
         "</td><td>" + v(r.at_config) + "</td><td>" + v(r.dist.p10) + " - " + v(r.dist.p90) + "</td><td>" +
         v(r.dist.min) + " - " + v(r.dist.max) + "</td><td>" + escape(name_of(kVerdicts, r.verdict)) + "</td></tr>\n";
  }
  std::string rule = "<ul>";
  for (const auto& v : kVerdicts) rule += "<li><b>" + escape(v.name) + "</b>: " + escape(v.doc) + "</li>";
  return html::section("index", "Published results",
                       "Each experiment's figure against ecmpsim's distribution over what its source leaves open; "
                       "the verdict rule:",
                       rule + "</ul>\n" + t + "</tbody></table></div>\n");
}

std::string experiment_section(const PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  const std::string unit(published_metric(e.metric).unit);
  const std::string label = std::string(published_metric(e.metric).name) + " (" + unit + ")";
  std::vector<double> values;
  for (const PublishedCase& c : r.cases)
    if (!std::isnan(c.value)) values.push_back(c.value);
  const std::vector<report::Marker> markers{
      {e.published, "published: " + published_value(e.metric, e.published), html::kRef, true},
      {r.at_config, "config: " + published_value(e.metric, r.at_config), html::kMuted, true}};
  std::string body = "<p>" + escape(e.figure) + "<br>config <code>" + escape(r.config) + "</code> \u00b7 " +
                     std::to_string(r.cases.size()) + " cases</p>\n";
  const std::string note = report::single_value_note(values, label, markers);
  body += !note.empty() || values.empty()
              ? note
              : "<div class=\"grid2\">\n<figure>" + report::histogram_svg(values, label, markers) +
                    "</figure>\n<figure>" + report::cdf_svg(values, label, markers) + "</figure>\n</div>\n";
  body += "<p>min " + escape(published_value(e.metric, r.dist.min)) + " \u00b7 p10 " +
          escape(published_value(e.metric, r.dist.p10)) + " \u00b7 median " +
          escape(published_value(e.metric, r.dist.p50)) + " \u00b7 p90 " +
          escape(published_value(e.metric, r.dist.p90)) + " \u00b7 max " +
          escape(published_value(e.metric, r.dist.max)) + "</p>\n<ul>";
  for (const AxisEffect& a : r.effects)
    body += "<li>" + escape(name_of(kUnknownAxes, a.axis)) + ": medians " +
            escape(published_value(e.metric, a.spread)) + " apart</li>";
  body += "</ul>\n<p><b>" + escape(name_of(kVerdicts, r.verdict)) + "</b>: " + escape(r.reason) + "</p>\n";
  return html::section(e.name, e.name, escape(e.source), body);
}

}  // namespace

std::string published_html(std::span<const PublishedResult> results) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>ecmpsim: published results</title>\n<style>\n" +
                    report::stylesheet() + "</style>\n</head>\n<body>\n";
  out += "<header class=\"page\"><div class=\"inner\">\n<h1>ecmpsim: published results</h1>\n<p>" +
         std::to_string(results.size()) + " experiments \u00b7 <code>ecmpsim reproduce --list</code></p>\n"
         "</div></header>\n<nav><a href=\"#index\">Index</a>";
  for (const PublishedResult& r : results) out += "<a href=\"#" + escape(r.experiment->name) + "\">" + escape(r.experiment->name) + "</a>";
  out += "</nav>\n<main>\n" + index_section(results);
  for (const PublishedResult& r : results) out += experiment_section(r);
  out += "<footer>Made by ecmpsim; a self-contained page (no scripts, no network).</footer>\n</main>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace ecmpsim
