// Ranking one sweep axis by its distribution over the axes the operator
// cannot know (`ecmpsim sweep --rank-by seeds --over qpn-base,placement-seeds`).
//
// A "best seed" found at one set of QP numbers holds only for those numbers.
// Ranked over nuisance axes, each value of the ranked axis (each seed) is
// judged by the distribution of the metric over every combination of the
// nuisance axes (QP numbering x placement): its mean, p10, p50, p90, min and max.
// Values are ranked by the mean, best first. When the gap between the best
// and the worst value's mean is no larger than the spread the nuisance axes
// cause (the mean over the ranked values of each value's p90 - p10 range),
// the ranking says more about the nuisance than about the ranked axis, and a
// note says so (unless the spread is 0: nothing moved at all). The remaining axes, scenario and algorithm, split the
// ranking into one group per (scenario, algorithm), as the summaries are; any
// other swept axis must be ranked or nuisance. Post-processing of the value
// table only: the kernel is not involved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/sweep_axis.h"
#include "sim/config/sweep_metric.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/value_table.h"

namespace ecmpsim {

struct RankSpec {
  SweepAxis axis = SweepAxis::Seeds;
  std::vector<SweepAxis> over;          // empty: every other swept axis but scenario and algorithm
  SweepMetric metric = SweepMetric::Fim;  // orders the values by its mean; the spread is of it
};

// The checked ranking of `space`: `over` filled in when empty. InputError
// (naming --rank-by or --over) when the ranked axis has fewer than two
// values, a nuisance axis is not swept or is the ranked one, or a swept axis
// other than scenario and algorithm is neither ranked nor nuisance.
RankSpec check_rank_spec(const VariantSpace& space, RankSpec spec);

struct RankStats {
  double mean = 0, p10 = 0, p50 = 0, p90 = 0, min = 0, max = 0;  // nearest-rank percentiles
};

struct RankedValue {
  std::uint64_t value = 0;      // index on the ranked axis
  std::uint64_t samples = 0;    // variants of this value (nuisance combinations evaluated)
  std::vector<RankStats> stats;  // one per SweepRanking::metrics
};

struct RankGroup {
  std::uint64_t first = 0;           // a variant of the group: its scenario and algorithm
  std::vector<RankedValue> ranked;   // best first
  double gap = 0;                    // |mean(best) - mean(worst)| of the ranking metric
  double spread = 0;                 // mean over `ranked` of p90 - p10 of the ranking metric
  bool within_spread = false;        // two values or more, spread > 0 and gap <= spread
};

struct SweepRanking {
  RankSpec spec;
  std::vector<SweepMetric> metrics;  // reported: the ranking metric first, then fim and slowdown
  std::vector<RankGroup> groups;     // per (scenario, algorithm) with variants, in variant order
};

// Ranks `values` (the variants from index 0 on: all of them, or the prefix an
// interrupted sweep finished) by `spec` (checked); `predicted`: the values
// hold the flow model's slowdown.
SweepRanking rank_sweep(const VariantSpace& space, ValueView values, const RankSpec& spec, bool predicted);

// The ranked axis's value `i` in words ("seed 17", "xxh3", "qpn-base 256").
std::string axis_value_text(const VariantSpace& space, SweepAxis axis, std::uint64_t i);

// One note per group whose gap is within the spread (the sweep's "notes").
std::vector<std::string> rank_notes(const VariantSpace& space, const SweepRanking& ranking);

}  // namespace ecmpsim
