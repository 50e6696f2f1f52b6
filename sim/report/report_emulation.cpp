// Reading an emulation run's JSON and writing it as the report's
// "Measured on Linux" table; only the keys the table shows are read.
#include "sim/report/report_emulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/report/html.h"

namespace ecmpsim {
namespace {

using json = Json;

double number_or_nan(const json& v) {
  return v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

std::string percent(double rel) {
  if (!std::isfinite(rel)) return "-";
  return (rel >= 0 ? "+" : "") + fixed(100 * rel, 1) + "%";
}

// "+0.4% / +19.0%": the median and the largest (by size) relative error of
// the flows' finish times; "-" when no flow has both.
std::string flow_errors(const EmulationRun& r) {
  std::vector<double> e;
  for (std::size_t i = 0; i < r.finish_measured_s.size(); ++i) {
    const double p = r.finish_predicted_s[i], m = r.finish_measured_s[i];
    if (std::isfinite(p) && std::isfinite(m) && p > 0) e.push_back(m / p - 1);
  }
  if (e.empty()) return "-";
  std::sort(e.begin(), e.end());
  const double worst = std::fabs(e.front()) > std::fabs(e.back()) ? e.front() : e.back();
  return percent(e[e.size() / 2]) + " / " + percent(worst);
}

}  // namespace

EmulationRun parse_emulation(const std::string& file, const std::string& text) {
  const SourcePos at = option_at("emulation", file);
  const json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(at, "not JSON (expected `ecmpsim emulate --format json`)");
  for (const char* key : {"slowdown_measured", "slowdown_predicted", "completion_measured_s", "completion_predicted_s",
                          "relative_error", "time", "flow_paths", "scenario"})
    if (!doc.contains(key))
      throw InputError(at, std::string("no \"") + key + "\": not the JSON of `ecmpsim emulate --measure-time`");
  EmulationRun r;
  r.file = file;
  r.config = doc.value("config", "");
  r.scenario = doc.value("scenario", "");
  r.predicted_scenario = doc.value("predicted_scenario", r.scenario);
  r.note = doc.value("note", "");
  r.flows = doc.value("flows", std::size_t{0});
  r.paths_agree = doc.value("paths_agree", std::size_t{0});
  r.slowdown_measured = number_or_nan(doc["slowdown_measured"]);
  r.slowdown_predicted = number_or_nan(doc["slowdown_predicted"]);
  r.completion_measured_s = number_or_nan(doc["completion_measured_s"]);
  r.completion_predicted_s = number_or_nan(doc["completion_predicted_s"]);
  r.relative_error = number_or_nan(doc["relative_error"]);
  r.time_agree = doc.value("time_agree", false);
  const json& t = doc["time"];
  r.scale = t.value("scale_text", "");
  r.queue = t.value("queue", "");
  r.congestion = t.value("congestion", "");
  r.ring_steps = t.value("ring_steps", false);
  for (const json& f : doc["flow_paths"]) {
    r.finish_predicted_s.push_back(number_or_nan(f.value("finish_predicted_s", json())));
    r.finish_measured_s.push_back(number_or_nan(f.value("finish_measured_s", json())));
  }
  return r;
}

std::string emulation_section(const std::vector<EmulationRun>& runs, const std::vector<ScenarioResult>& results) {
  using html::escape;
  std::string t =
      "<div class=\"table-wrap\"><table id=\"emulation-table\">\n<thead><tr><th>run</th><th>scenario</th>"
      "<th>paths</th><th>scale, queueing, TCP</th><th>completion predicted (ms)</th><th>completion measured (ms)</th>"
      "<th>slowdown predicted</th><th>slowdown measured</th><th>error</th><th>flow finish error (median / worst)</th>"
      "<th>this report's slowdown</th></tr></thead>"
      "\n<tbody>\n";
  for (const EmulationRun& r : runs) {
    std::string own = "-";
    for (const ScenarioResult& s : results)
      if (s.spec->name == r.predicted_scenario) own = fixed(s.predicted.all.slowdown, 4);
    std::string how = r.scale + ", " + r.queue + ", " + r.congestion + (r.ring_steps ? ", ring steps" : "");
    t += "<tr data-file=\"" + escape(r.file) + "\"><td>" + escape(r.file) + "</td><td>" + escape(r.scenario) +
         (r.predicted_scenario != r.scenario ? " (predicted as " + escape(r.predicted_scenario) + ")" : "") +
         "</td><td>" + std::to_string(r.paths_agree) + "/" + std::to_string(r.flows) + "</td><td>" + escape(how) +
         "</td><td>" + fixed(1e3 * r.completion_predicted_s, 3) + "</td><td>" + fixed(1e3 * r.completion_measured_s, 3) +
         "</td><td>" + fixed(r.slowdown_predicted, 4) + "</td><td" + (r.time_agree ? " class=\"best\"" : "") +
         " data-value=\"" + format_number(r.slowdown_measured) + "\">" + fixed(r.slowdown_measured, 4) + "</td><td>" +
         percent(r.relative_error) + "</td><td>" + flow_errors(r) + "</td><td>" + own + "</td></tr>\n";
  }
  t += "</tbody></table></div>\n";
  std::string notes;
  for (const EmulationRun& r : runs)
    if (!r.note.empty()) notes += "<p><code>" + escape(r.file) + "</code>: " + escape(r.note) + "</p>\n";
  return "<section id=\"emulation\">\n<h2>Measured on Linux</h2>\n<p class=\"lede\">Runs of <code>ecmpsim emulate "
         "--measure-time</code>: the fabric as network namespaces, links shaped to a scaled copy of their speeds, "
         "every flow a TCP connection. Measured times are in real seconds (divided by the run's stretch). A slowdown "
         "within the run's tolerance is highlighted. The predicted slowdown is the one the run compared with, under "
         "the hash the kernel ran; the last column is this report's for the scenario of that name.</p>\n" +
         t + notes + "</section>\n";
}

Json emulation_json(const std::vector<EmulationRun>& runs) {
  json out = json::array();
  for (const EmulationRun& r : runs)
    out.push_back({{"file", r.file},
                   {"scenario", r.scenario},
                   {"predicted_scenario", r.predicted_scenario},
                   {"paths_agree", r.paths_agree},
                   {"flows", r.flows},
                   {"scale", r.scale},
                   {"queue", r.queue},
                   {"congestion", r.congestion},
                   {"ring_steps", r.ring_steps},
                   {"completion_predicted_s", r.completion_predicted_s},
                   {"completion_measured_s", r.completion_measured_s},
                   {"slowdown_predicted", r.slowdown_predicted},
                   {"slowdown_measured", r.slowdown_measured},
                   {"relative_error", r.relative_error},
                   {"time_agree", r.time_agree}});
  return out;
}

}  // namespace ecmpsim
