// `plan` (see plan.h): the choice and the target read and checked, the
// sweep they make, and the per-choice fractions and spread of its rows.
#include "sim/app/plan.h"

#include <algorithm>
#include <cmath>

#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim::app {
namespace {

// The option key of an axis: its name with '_' for '-' (qpn-base: qpn_base).
std::string axis_key(SweepAxis a) {
  std::string key(name_of(kSweepAxes, a));
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

std::string& axis_text(SweepRequest& q, SweepAxis a) {
  return a == SweepAxis::Qps ? q.qps : a == SweepAxis::Algos ? q.algos : q.scenario;
}

std::string choosable_names() {
  std::string out;
  for (const auto& row : kSweepAxes)
    if (choosable(row.value)) out += (out.empty() ? "" : ", ") + std::string(row.name);
  return out;
}

// "AXIS=v1,v2,...": the axis and its values, each once.
void parse_choice(const std::string& text, Plan& plan) {
  const SourcePos at = option_at("choose");
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos)
    throw InputError(at, "'" + printable(text) + "' is not AXIS=V1,V2,... (e.g. qps=1,2,4); the axes are " +
                             choosable_names());
  const std::string name = text.substr(0, eq);
  const auto axis = parse_name(kSweepAxes, name);
  if (!axis) throw InputError(at, "unknown axis '" + printable(name) + "'; one of " + choosable_names());
  if (!choosable(*axis))
    throw InputError(at, "'" + name + "' is an unknown to sweep over, not a choice; choose among " + choosable_names());
  plan.axis = *axis;
  plan.values = parse_name_list(text.substr(eq + 1), at);
  if (plan.axis == SweepAxis::Qps) parse_uint_list(text.substr(eq + 1), 1, 128, at);
  for (std::size_t i = 0; i < plan.values.size(); ++i)
    if (std::find(plan.values.begin(), plan.values.begin() + static_cast<std::ptrdiff_t>(i), plan.values[i]) !=
        plan.values.begin() + static_cast<std::ptrdiff_t>(i))
      throw InputError(at, "'" + printable(plan.values[i]) + "' is given twice");
}

}  // namespace

Plan parse_plan(const PlanRequest& p, const SweepRequest& sweep) {
  if (p.choose.empty()) throw InputError(option_at("choose"), "give the choices, AXIS=V1,V2,... (e.g. qps=1,2,4)");
  if (p.target.empty()) throw InputError(option_at("target"), "give the target, METRIC>=X (e.g. busbw_at>=300)");
  Plan plan;
  parse_choice(p.choose, plan);
  plan.target = parse_sweep_target(p.target, option_at("target"));
  if (!(p.confidence > 0 && p.confidence <= 1))
    throw InputError(option_at("confidence"), "expected a fraction in (0, 1], got " + format_number(p.confidence));
  plan.confidence = p.confidence;
  SweepRequest q = sweep;
  if (!axis_text(q, plan.axis).empty())
    throw InputError(option_at(axis_key(plan.axis)), "the axis " + option_ref("choose") + " sweeps: give its values there");
  for (const auto& [key, given] : {std::pair<const char*, bool>{"metric", !q.metric.empty()},
                                   {"threshold", q.threshold.has_value()},
                                   {"rank_by", !q.rank_by.empty()},
                                   {"over", !q.over.empty()}})
    if (given) throw InputError(option_at(key), "a plan's metric and bound are its " + option_ref("target"));
  return plan;
}

SweepRequest plan_sweep(const Plan& plan, SweepRequest sweep) {
  std::string values;
  for (const std::string& v : plan.values) values += (values.empty() ? "" : ",") + v;
  axis_text(sweep, plan.axis) = values;
  sweep.metric = std::string(sweep_metric_name(plan.target.metric));
  sweep.metric_key = "target";
  return sweep;
}

PlanReport plan_report(const Plan& plan, const Sweep& sweep, const SweepRun& run) {
  const VariantSpace& space = sweep.space();
  PlanReport r;
  r.axis = plan.axis;
  r.target = plan.target;
  r.confidence = plan.confidence;
  if (space.combos() > 0 && !sweep.plan(0).sized().empty()) r.busbw_at = sweep.plan(0).sized()[0].at.value;
  r.total = space.size();
  r.done = run.values.size();
  r.interrupted = run.interrupted;
  std::vector<std::vector<double>> per(plan.values.size());
  const auto m = static_cast<std::size_t>(plan.target.metric);
  for (std::uint64_t i = 0; i < run.values.size(); ++i)
    per[space.axis_index(run.begin + i, plan.axis)].push_back(run.values[i][m]);
  for (std::size_t c = 0; c < per.size(); ++c) {
    PlanRow row;
    row.value = plan.values[c];
    row.variants = per[c].size();
    std::vector<double> defined;
    for (const double x : per[c]) {
      row.meeting += plan.target.met(x) ? 1 : 0;
      if (!std::isnan(x)) defined.push_back(x);
    }
    std::sort(defined.begin(), defined.end());
    const double undefined = std::nan("");
    row.p10 = defined.empty() ? undefined : nearest_rank(defined, 10);
    row.p50 = defined.empty() ? undefined : nearest_rank(defined, 50);
    row.p90 = defined.empty() ? undefined : nearest_rank(defined, 90);
    row.fraction = row.variants ? static_cast<double>(row.meeting) / static_cast<double>(row.variants) : 0;
    row.meets = row.variants > 0 && row.fraction >= plan.confidence;
    if (row.meets && !r.choice) r.choice = c;
    if (r.rows.empty() || row.fraction > r.rows[r.best].fraction) r.best = c;
    r.rows.push_back(std::move(row));
  }
  return r;
}

}  // namespace ecmpsim::app
