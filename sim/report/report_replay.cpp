#include "sim/report/report_replay.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/base/text.h"
#include "sim/report/html.h"
#include "sim/report/report_style.h"

namespace ecmpsim {

namespace {

using html::escape;
using html::num;

// The groups drawn: the `lanes` with the most predicted communication.
std::vector<std::uint32_t> lanes_of(const ReplayReport& r, const ReplayScenario& s, std::size_t lanes) {
  std::map<std::uint32_t, double> comm;
  for (const ReplayGroupStep& g : s.groups) comm[g.group] += g.predicted_comm_us;
  std::vector<std::uint32_t> out;
  for (const auto& [g, _] : comm) out.push_back(g);
  std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) { return comm[a] > comm[b]; });
  if (out.size() > lanes) out.resize(lanes);
  std::sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) { return r.groups[a] < r.groups[b]; });
  return out;
}

std::string timeline(const ReplayReport& r, const ReplayScenario& s, std::size_t lanes) {
  const std::vector<std::uint32_t> shown = lanes_of(r, s, lanes);
  std::map<std::uint32_t, std::size_t> lane;
  for (std::size_t i = 0; i < shown.size(); ++i) lane[shown[i]] = i;
  double end = 0;
  for (const ReplayRow& c : s.collectives)
    end = std::max({end, c.start_us + c.measured_us, c.start_us + c.predicted_us.value_or(0)});
  if (end <= 0) end = 1;
  const double left = 110, width = 1000, row = 18, top = 24;
  const double height = top + row * static_cast<double>(shown.size()) + 44;
  const auto x = [&](double us) { return left + width * us / end; };
  std::string svg = html::svg_open(left + width + 20, height, "timeline of " + s.name, "chart");
  for (std::size_t i = 0; i < shown.size(); ++i)
    svg += html::text(4, top + row * static_cast<double>(i) + 12, r.groups[shown[i]], "class=\"muted\"");
  for (const double t : html::nice_ticks(0, end, 8)) {
    if (t > end) break;
    svg += html::line(x(t), top - 4, x(t), height - 40, "stroke=\"" + html::css_colour(html::kGrid) + "\"");
    svg += html::text(x(t) - 10, height - 26, fixed(t, 0), "class=\"muted\"");
  }
  for (const ReplayRow& c : s.collectives) {
    const auto it = lane.find(c.group);
    if (it == lane.end()) continue;
    const double y = top + row * static_cast<double>(it->second);
    const auto bar = [&](double from, double us, double dy, html::Rgb colour) {
      svg += "<rect x=\"" + num(x(from)) + "\" y=\"" + num(y + dy) + "\" width=\"" +
             num(std::max(0.5, x(from + us) - x(from))) + "\" height=\"6\" fill=\"" + html::css_colour(colour) +
             "\"><title>" + escape(c.collective + " #" + std::to_string(c.seq) + ", " + human_bytes(double(c.bytes))) +
             "</title></rect>";
    };
    bar(c.start_us, c.measured_us, 2, html::kIdle);
    if (c.predicted_us) bar(c.start_us, *c.predicted_us, 9, html::kBar);
  }
  svg += html::text(left, height - 1, "time (us); grey: measured, blue: predicted", "class=\"muted\"");
  svg += "</svg>\n";
  const std::size_t hidden = r.groups.size() > shown.size() ? r.groups.size() - shown.size() : 0;
  if (hidden > 0) svg += "<p>" + plural(hidden, "more group") + " not drawn (fewest predicted microseconds).</p>\n";
  return svg;
}

std::string summary_table(const ReplayReport& r, const ReplayScenario& s) {
  std::string t = "<table><thead><tr><th>step</th><th>group</th><th>collectives</th><th>comm measured (us)</th>"
                  "<th>comm predicted (us)</th><th>exposed measured (us)</th><th>exposed predicted (us)</th></tr>"
                  "</thead><tbody>\n";
  for (const ReplayGroupStep& g : s.groups)
    t += "<tr><td>" + std::to_string(g.step) + "</td><td>" + escape(r.groups[g.group]) + "</td><td>" +
         std::to_string(g.collectives) + "</td><td>" + fixed(g.measured_comm_us, 1) + "</td><td>" +
         fixed(g.predicted_comm_us, 1) + "</td><td>" + fixed(g.measured_exposed_us, 1) + "</td><td>" +
         fixed(g.predicted_exposed_us, 1) + "</td></tr>\n";
  return t + "</tbody></table>\n";
}

}  // namespace

std::string replay_html(const ReplayReport& r, const std::string& command, std::size_t lanes) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>ecmpsim: replay</title>\n<style>\n" +
                    report::stylesheet() + "</style>\n</head>\n<body>\n";
  out += "<header class=\"page\"><div class=\"inner\">\n<h1>ecmpsim: replay</h1>\n<p><code>" + escape(command) +
         "</code></p>\n<p>" + std::to_string(r.traced) + " of " + plural(r.ranks, "rank") + " traced \u00b7 " +
         plural(r.groups.size(), "group") + " \u00b7 " + plural(r.flows, "flow") + "</p>\n</div></header>\n<main>\n";
  for (const ReplayScenario& s : r.scenarios) {
    const std::string lede = "Span measured " + fixed(s.measured_span_us, 1) + " us, predicted " +
                             fixed(s.predicted_span_us, 1) + " us.";
    out += html::section("scenario-" + s.name, "Scenario " + s.name, escape(lede),
                         timeline(r, s, lanes) + summary_table(r, s));
  }
  if (!r.notes.empty()) {
    std::string notes = "<ul>";
    for (const std::string& n : r.notes) notes += "<li>" + escape(n) + "</li>";
    out += html::section("notes", "Notes", "", notes + "</ul>\n");
  }
  out += "<footer>Made by ecmpsim; a self-contained page (no scripts, no network).</footer>\n</main>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace ecmpsim
