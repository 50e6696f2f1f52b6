// `plan`: the cheapest of candidate settings that meets a target with a
// given confidence over the unknowns. One sweep whose variants include the
// choice axis (`choose` = "qps=1,2,4": the axis and its values, cheapest
// first) and the unknowns (every other swept axis, as `sweep` takes them);
// its rows grouped per choice give the fraction meeting `target` and the
// metric's spread, and the decision is the first choice whose fraction
// reaches `confidence`. The sweep is app::SweepJob's, so checkpoints, shards
// and MPI ranks work as for `sweep` (docs/planning.md).
#pragma once

#include <string>
#include <vector>

#include "sim/app/sweep.h"
#include "sim/output/plan_output.h"

namespace ecmpsim::app {

struct PlanRequest {
  std::string choose;       // "AXIS=v1,v2,...": a choosable axis (sweep_axis.h) and its values
  std::string target;       // "METRIC>=X" (sweep_metric.h)
  double confidence = 0.9;  // in (0, 1]
};

struct Plan {
  SweepAxis axis = SweepAxis::Qps;
  std::vector<std::string> values;  // as given
  SweepTarget target;
  double confidence = 0.9;
};

// The checked plan; InputError naming choose, target or confidence, or the
// sweep option the plan sets itself (the choice's axis, metric, threshold,
// rank_by, over) when `sweep` gives it too.
Plan parse_plan(const PlanRequest& p, const SweepRequest& sweep);
// `sweep` with the choice as its axis and the target's metric as its metric.
SweepRequest plan_sweep(const Plan& plan, SweepRequest sweep);
// The plan's report over the run's rows (its finished prefix, if interrupted).
PlanReport plan_report(const Plan& plan, const Sweep& sweep, const SweepRun& run);

}  // namespace ecmpsim::app
