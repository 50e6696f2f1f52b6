// Writers of plan's result: one table, one JSON document, one CSV.
#include "sim/output/plan_output.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {
namespace {

// "busbw_at >= 300 GB/s at 16.00 GiB", "fim <= 1.5".
std::string target_phrase(const PlanReport& r) {
  std::string out = target_text(r.target);
  if (per_size(r.target.metric)) out += " GB/s";
  if (r.target.metric == SweepMetric::BusbwAt && r.busbw_at) out += " at " + human_bytes(static_cast<double>(*r.busbw_at));
  return out;
}

int decimals(const PlanReport& r) { return per_size(r.target.metric) ? 2 : 4; }

std::string text(const PlanReport& r) {
  const std::string axis(name_of(kSweepAxes, r.axis));
  std::string out = "plan: the first " + axis + " in the order given whose variants meet " + target_phrase(r) +
                    " in at least " + format_percent(r.confidence) + " of cases\n";
  char buf[200];
  std::snprintf(buf, sizeof buf, "# %16s  %9s  %9s  %8s  %10s  %10s  %10s\n", axis.c_str(), "variants", "meeting",
                "fraction", "p10", "p50", "p90");
  out += buf;
  for (const PlanRow& row : r.rows) {
    std::snprintf(buf, sizeof buf, "  %16s  %9llu  %9llu  %8s  %10s  %10s  %10s\n", escape_text(row.value).c_str(),
                  static_cast<unsigned long long>(row.variants), static_cast<unsigned long long>(row.meeting),
                  format_percent(row.fraction).c_str(), fixed(row.p10, decimals(r)).c_str(),
                  fixed(row.p50, decimals(r)).c_str(), fixed(row.p90, decimals(r)).c_str());
    out += buf;
  }
  if (r.interrupted)
    out += "interrupted: the first " + grouped(r.done) + " of " + grouped(r.total) + " variants\n";
  return out + "decision: " + escape_text(plan_decision(r)) + "\n";
}

Json value_json(const PlanReport& r, const std::string& v) {
  return r.axis == SweepAxis::Qps ? Json(std::stoull(v)) : Json(v);
}

Json json_of(const PlanReport& r) {
  Json rows = Json::array();
  for (const PlanRow& row : r.rows)
    rows.push_back({{"value", value_json(r, row.value)},
                    {"variants", row.variants},
                    {"meeting", row.meeting},
                    {"fraction", row.fraction},
                    {"p10", row.p10},
                    {"p50", row.p50},
                    {"p90", row.p90},
                    {"meets", row.meets}});
  return {{"axis", name_of(kSweepAxes, r.axis)},
          {"target", {{"metric", sweep_metric_name(r.target.metric)},
                      {"op", name_of(kTargetOps, r.target.op)},
                      {"value", r.target.value}}},
          {"busbw_at", r.busbw_at ? Json(*r.busbw_at) : Json(nullptr)},
          {"confidence", r.confidence},
          {"variants", r.total},
          {"done", r.done},
          {"interrupted", r.interrupted},
          {"rows", std::move(rows)},
          {"choice", r.choice ? value_json(r, r.rows[*r.choice].value) : Json(nullptr)},
          {"decision", plan_decision(r)}};
}

void csv_of(const PlanReport& r, Csv& csv) {
  csv.cells({name_of(kSweepAxes, r.axis), "variants", "meeting", "fraction", "p10", "p50", "p90", "meets", "chosen"})
      .end_row();
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const PlanRow& row = r.rows[i];
    csv.cell(row.value).cell(row.variants).cell(row.meeting).cell(format_number(row.fraction));
    csv.cell(format_number(row.p10)).cell(format_number(row.p50)).cell(format_number(row.p90));
    csv.cell(row.meets ? "1" : "0").cell(r.choice == i ? "1" : "0").end_row();
  }
}

}  // namespace

std::string plan_decision(const PlanReport& r) {
  const std::string axis(name_of(kSweepAxes, r.axis));
  if (r.rows.empty()) return "no choice was evaluated";
  const auto of = [&](const PlanRow& row) {
    return axis + " = " + row.value + ": " + format_percent(row.fraction) + " of " + grouped(row.variants) + " variants";
  };
  if (r.choice) return of(r.rows[*r.choice]) + " meet " + target_phrase(r) + " (asked: " + format_percent(r.confidence) + ")";
  return "no choice meets " + target_phrase(r) + " in " + format_percent(r.confidence) + " of variants: best is " +
         of(r.rows[r.best]);
}

Result plan_result(const PlanReport& r) {
  Result out;
  out.text = [&r] { return text(r); };
  out.json = [&r](JsonWriter& w) { w.value(json_of(r)); };
  out.csv = [&r](Csv& csv) { csv_of(r, csv); };
  return out;
}

}  // namespace ecmpsim
