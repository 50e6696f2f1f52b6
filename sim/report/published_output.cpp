// The catalogue's outputs: `reproduce --list`, one experiment's table, JSON
// and CSV, and docs/published.md, all from the tables of published.h.
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/report/published.h"

namespace ecmpsim {
namespace {

Json number(double v) { return std::isnan(v) ? Json(nullptr) : Json(v); }

Interval interval_of(const PublishedExperiment& e) { return published_interval(e.published, e.precision, e.decimals); }

std::string axes_text(const PublishedExperiment& e) {
  std::string out;
  for (const auto& a : kUnknownAxes)
    if (e.axes & axis_bit(a.value)) out += (out.empty() ? "" : ", ") + std::string(a.name);
  if (e.axes & axis_bit(UnknownAxis::HashSeed)) out += " (" + std::to_string(e.seeds) + " seeds)";
  return out;
}

// What is compared, in words: "'ecmp' vs 'static'", with the QPs and nodes the row sets.
std::string runs_text(const PublishedExperiment& e) {
  std::string out = "'" + std::string(e.baseline) + "'";
  if (e.qps) out += " with " + std::to_string(e.qps) + " QPs per connection";
  if (published_metric(e.metric).treatment) {
    out += " vs '" + std::string(e.treatment) + "'";
    if (e.treatment_qps) out += " with " + std::to_string(e.treatment_qps) + " QPs per connection";
  }
  if (e.nodes) out += "; " + std::to_string(e.nodes) + " nodes";
  if (e.at_size) out += "; at " + human_bytes(static_cast<double>(e.at_size));
  return out;
}

std::string list_text() {
  std::string out = pad_right("name", 13) + pad_left("published", 12) + "  " + pad_right("metric", 16) + "config\n";
  for (const PublishedExperiment& e : published_experiments())
    out += pad_right(std::string(e.name), 13) + pad_left(published_value(e.metric, e.published), 12) + "  " +
           pad_right(std::string(published_metric(e.metric).name), 16) + std::string(e.config) + "\n    " +
           std::string(e.figure) + "\n    source: " + std::string(e.source) + "\n";
  return out;
}

Json experiment_json(const PublishedExperiment& e) {
  Json axes = Json::array();
  for (const auto& a : kUnknownAxes)
    if (e.axes & axis_bit(a.value)) axes.push_back(a.name);
  return {{"name", e.name},
          {"source", e.source},
          {"figure", e.figure},
          {"published", e.published},
          {"precision", name_of(kPrecisions, e.precision)},
          {"interval", {{"lo", interval_of(e).lo}, {"hi", interval_of(e).hi}}},
          {"unit", published_metric(e.metric).unit},
          {"metric", published_metric(e.metric).name},
          {"config", e.config},
          {"runs", runs_text(e)},
          {"axes", std::move(axes)}};
}

std::string result_text(const PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  const auto v = [&](double x) { return pad_left(published_value(e.metric, x), 12); };
  std::string out = std::string(e.name) + ": " + std::string(e.source) + "\n";
  out += "published: " + std::string(e.figure) + "\n";
  out += "config:    " + r.config + " (" + runs_text(e) + ")\n";
  out += "metric:    " + std::string(published_metric(e.metric).name) + ", " +
         std::string(published_metric(e.metric).doc) + "\n";
  out += "unknown:   " + axes_text(e) + "; " + std::to_string(r.cases.size()) + " cases\n\n";
  out += pad_right("at the config's assumptions", 30) + v(r.at_config) + "\n";
  out += pad_right("min", 30) + v(r.dist.min) + "\n" + pad_right("p10", 30) + v(r.dist.p10) + "\n";
  out += pad_right("median", 30) + v(r.dist.p50) + "\n" + pad_right("p90", 30) + v(r.dist.p90) + "\n";
  out += pad_right("max", 30) + v(r.dist.max) + "\n" + pad_right("published", 30) + v(e.published) + "\n";
  out += pad_right("published interval", 30) + published_range(e, r.figure) + "\n";
  if (!r.effects.empty()) out += "\nwhat moves it most (median over the cases with each value):\n";
  for (const AxisEffect& a : r.effects) {
    out += "  " + pad_right(std::string(name_of(kUnknownAxes, a.axis)), 11) + pad_left(published_value(e.metric, a.spread), 9) +
           " apart:";
    for (std::size_t i = 0; i < a.values.size(); ++i)
      out += (i ? ", " : " ") + a.values[i] + " " + published_value(e.metric, a.medians[i]);
    out += "\n";
  }
  return out + "\nverdict: " + std::string(name_of(kVerdicts, r.verdict)) + ": " + r.reason + "\n";
}

Json result_json(const PublishedResult& r) {
  Json j = experiment_json(*r.experiment);
  j["config"] = r.config;
  j["cases"] = r.cases.size();
  j["at_config"] = number(r.at_config);
  j["distribution"] = {{"cases", r.dist.cases}, {"min", r.dist.min}, {"p10", r.dist.p10}, {"p50", r.dist.p50},
                       {"p90", r.dist.p90},     {"max", r.dist.max}};
  Json effects = Json::array();
  for (const AxisEffect& a : r.effects) {
    Json values = Json::array();
    for (std::size_t i = 0; i < a.values.size(); ++i) values.push_back({{"value", a.values[i]}, {"median", number(a.medians[i])}});
    effects.push_back({{"axis", name_of(kUnknownAxes, a.axis)}, {"spread", a.spread}, {"values", std::move(values)}});
  }
  j["effects"] = std::move(effects);
  j["verdict"] = name_of(kVerdicts, r.verdict);
  j["reason"] = r.reason;
  return j;
}

void result_csv(const PublishedResult& r, Csv& csv) {
  for (UnknownAxis a : r.axes) csv.cell(name_of(kUnknownAxes, a));
  csv.cell(std::string(published_metric(r.experiment->metric).name) + "_" +
           (published_metric(r.experiment->metric).unit == "%" ? std::string("pct")
                                                               : std::string(published_metric(r.experiment->metric).unit)));
  csv.end_row();
  for (const PublishedCase& c : r.cases) {
    for (const std::string& v : c.values) csv.cell(v);
    csv.cell(std::isnan(c.value) ? std::string() : fixed(c.value, 4));
    csv.end_row();
  }
}

}  // namespace

Result published_list_result() {
  Result r;
  r.text = [] { return list_text(); };
  r.json = [](JsonWriter& w) {
    w.begin_array();
    for (const PublishedExperiment& e : published_experiments()) w.value(experiment_json(e));
    w.end();
  };
  r.csv = [](Csv& csv) {
    csv.cells({"name", "published", "precision", "lo", "hi", "unit", "metric", "config"}).end_row();
    for (const PublishedExperiment& e : published_experiments()) {
      const Interval i = interval_of(e);
      csv.cells({e.name, fixed(e.published, 3), name_of(kPrecisions, e.precision), fixed(i.lo, 4), fixed(i.hi, 4),
                 published_metric(e.metric).unit, published_metric(e.metric).name, e.config});
      csv.end_row();
    }
  };
  return r;
}

Result published_result(const PublishedResult& pr) {
  Result r;
  r.text = [p = &pr] { return result_text(*p); };
  r.json = [p = &pr](JsonWriter& w) { w.value(result_json(*p)); };
  r.csv = [p = &pr](Csv& csv) { result_csv(*p, csv); };
  return r;
}

std::string published_page(std::span<const PublishedResult> results) {
  std::string out =
      "# Published results\n\n"
      "<!-- Generated by ecmpsim_docgen from sim/report/published*.cpp and the configs under configs/published/; "
      "tests/report/published_docs_test.cpp fails when this page differs. -->\n\n"
      "`ecmpsim reproduce --list` names every experiment below; `ecmpsim reproduce NAME` runs one (`--format json` "
      "or `csv` for every case). Each experiment is a config under `configs/published/` whose comments quote every "
      "input its source gives and justify every assumption the source leaves open, written before ecmpsim's "
      "outcome was known. ecmpsim evaluates the metric at every combination of the values of the axes the source "
      "leaves open (the *cases*) and compares the published figure with that distribution. The cases are "
      "evaluated by the sweep engine, the code of `ecmpsim sweep` (sim/sweep): the hash algorithm, QPN base and "
      "hash seed are its axes, and the busbw metrics are its `busbw_avg` and `busbw_at`; placement, channels and "
      "seed mode, which `sweep` does not vary, are one engine run each. "
      "`ecmpsim report --published [-o FILE]` writes the same catalogue as one HTML document: an index, then each "
      "experiment's histogram and CDF with the published figure marked.\n\n"
      "Outputs of `reproduce NAME`: the table below; `--format json`, an object with `name`, `source`, `figure`, "
      "`published`, `precision`, `interval` (`lo`, `hi`), `unit`, `metric`, `config`, `runs`, `axes`, `cases`, `at_config`, `distribution` (`cases`, "
      "`min`, `p10`, `p50`, `p90`, `max`), `effects` (per axis `axis`, `spread` and `values` of `value` and "
      "`median`), `verdict` and `reason`; `--format csv`, one row per case: a column per unknown axis and the "
      "metric named with its unit (`busbw_GB/s`, `fim-reduction_pct`). `reproduce --list` prints the table, a "
      "JSON array of the experiments (the same keys as above, `name` to `axes`) or CSV (`name`, `published`, "
      "`precision`, `lo`, `hi`, `unit`, `metric`, `config`).\n\n"
      "## The verdict rule\n\n"
      "Each published figure carries the precision its source states it with, and stands for an interval:\n\n";
  for (const auto& p : kPrecisions) out += "- **" + std::string(p.name) + "**: " + std::string(p.doc) + ".\n";
  out += "\nThe verdict compares that interval with ecmpsim's distribution over the cases; the *published "
         "magnitude* is the figure's absolute value:\n\n";
  for (const auto& v : kVerdicts) out += "- **" + std::string(v.name) + "**: " + std::string(v.doc) + ".\n";
  out += "\nThe intervals are closed; p10, median and p90 are nearest-rank percentiles over the cases where the "
         "metric is defined. The rule is decided in that order from the bottom: outside min-max, then a wide "
         "p10-p90, then whether the narrow p10-p90 meets the figure. A narrow p10-p90 that misses a figure inside "
         "min-max is \"not reproduced\": the inputs the source gives pin a result (80% of the cases lie in a "
         "range half the figure wide) and only the outer cases give the published one. \"reproduced\" therefore "
         "says both that the model gives the figure and that the source's inputs leave it little room to give "
         "anything else; \"undetermined by the published inputs\" says the source leaves open what decides it, "
         "and names the measurement that would pin the unknown moving it most. A \"not reproduced\" is a "
         "result: the reason names what the model lacks.\n\n"
         "## Metrics\n\n| metric | unit | what ecmpsim computes |\n|---|---|---|\n";
  for (const auto& m : kPublishedMetrics)
    out += "| `" + std::string(m.name) + "` | " + std::string(m.unit) + " | " + std::string(m.doc) + " |\n";
  out += "\n## Unknown axes\n\n| axis | values | the measurement that pins it |\n|---|---|---|\n";
  for (const auto& a : kUnknownAxes)
    out += "| `" + std::string(a.name) + "` | " + std::string(a.doc) + " | " + std::string(a.pin) + " |\n";
  out += "\n## The catalogue, measured\n\n"
         "| experiment | published (interval) | ecmpsim at the config | p10 - p90 | min - max | verdict |\n"
         "|---|---|---|---|---|---|\n";
  for (const PublishedResult& r : results) {
    const auto v = [&](double x) { return published_value(r.experiment->metric, x); };
    out += "| [" + std::string(r.experiment->name) + "](#" + std::string(r.experiment->name) + ") | " +
           v(r.experiment->published) + " (" + fixed(r.figure.lo, r.experiment->decimals + 1) + " - " +
           fixed(r.figure.hi, r.experiment->decimals + 1) + ") | " + v(r.at_config) + " | " + v(r.dist.p10) + " - " + v(r.dist.p90) +
           " | " + v(r.dist.min) + " - " + v(r.dist.max) + " | " + std::string(name_of(kVerdicts, r.verdict)) +
           " |\n";
  }
  for (const PublishedResult& r : results) out += "\n## " + std::string(r.experiment->name) + "\n\n```\n" + result_text(r) + "```\n";
  return out;
}

}  // namespace ecmpsim
