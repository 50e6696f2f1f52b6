// The result of `ecmpsim sweep` in its shapes: table, JSON and CSV (one row
// per variant), written by sim/base/format.h.
//
// A sweep over several scenarios or algorithms is summarized per (scenario,
// algorithm): one distribution pooled over different routings has a mean
// that describes none of them. The pooled summary over every variant is
// printed only when asked for (--pooled), or when the sweep has a single
// combination, where it is that combination's.
#pragma once

#include <span>
#include <string>

#include "sim/base/format.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_rank.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim {

struct SweepReport {
  const Sweep& sweep;
  const SweepRun& run;                      // run.begin is 0: the summaries' offsets index run.values
  std::span<const SweepSummary> each;       // per (scenario, algorithm): summarize_each
  const SweepSummary* pooled = nullptr;     // every variant together, or nullptr
  std::span<const std::string> notes = {};  // what the axes did not change (sim/sweep/sweep_notes.h)
  const SweepRanking* ranking = nullptr;    // --rank-by: one axis over nuisance axes, or nullptr
};

// The swept axes as the JSON's "axes" shows them (and a checkpoint's identity).
Json axes_json(const VariantSpace& space);

Json sweep_json(const SweepReport& r);
std::string sweep_table(const SweepReport& r);
// One row per variant, written to `csv` as it goes.
void sweep_csv(const SweepReport& r, Csv& csv);
// Every shape above, for write(); `r` outlives it.
Result sweep_result(const SweepReport& r);

}  // namespace ecmpsim
