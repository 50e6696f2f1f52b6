// What `ecmpsim plan` prints: per choice (in the order given, cheapest
// first) the variants over the unknowns, how many meet the target, and the
// metric's p10/p50/p90; then the decision, the first choice whose fraction
// meeting the target reaches the confidence, or that none does (table,
// JSON with `choice` and `rows`, CSV one row per choice; docs/planning.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/config/sweep_axis.h"
#include "sim/config/sweep_metric.h"

namespace ecmpsim {

struct PlanRow {
  std::string value;             // the choice as given ("4", "ecmp", "xxh3")
  std::uint64_t variants = 0;    // evaluated over the unknowns
  std::uint64_t meeting = 0;     // of them, meeting the target
  double fraction = 0;           // meeting / variants (0 without variants)
  double p10 = 0, p50 = 0, p90 = 0;  // nearest-rank percentiles of the target's metric
  bool meets = false;            // fraction >= confidence
};

struct PlanReport {
  SweepAxis axis = SweepAxis::Qps;
  SweepTarget target;
  double confidence = 0.9;
  std::optional<std::uint64_t> busbw_at;  // bytes: the size busbw_at was priced at
  std::vector<PlanRow> rows;              // per choice, in the order given
  std::optional<std::size_t> choice;      // the first row that meets, if any
  std::size_t best = 0;                   // the row with the highest fraction (the first of ties)
  std::uint64_t done = 0, total = 0;      // variants evaluated of the sweep's
  bool interrupted = false;
};

// The one-line decision ("qps = 4: 93% of 2,000 variants reach busbw_at >= 300 GB/s at 16.00 GiB").
std::string plan_decision(const PlanReport& r);
Result plan_result(const PlanReport& r);

}  // namespace ecmpsim
