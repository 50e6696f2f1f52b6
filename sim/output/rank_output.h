// The ranking of one sweep axis over nuisance axes (sim/sweep/sweep_rank.h),
// as the sweep's table prints it and its JSON holds it ("ranking").
#pragma once

#include <string>

#include "sim/output/metrics_json.h"
#include "sim/sweep/sweep_rank.h"

namespace ecmpsim {

// {"rank_by", "over", "metric", "spread", "groups": [{scenario, algo, gap,
// spread, within_spread, "ranked": [{rank, value, samples, metrics: {NAME:
// {mean, p10, p50, p90, min, max}}}]}]}; docs/sweeps.md describes every key.
Json ranking_json(const VariantSpace& space, const SweepRanking& r);

// One section per group: the ranked values, best first (the best and worst
// ten when there are more than twenty), then the gap and the spread.
std::string ranking_text(const VariantSpace& space, const SweepRanking& r);

}  // namespace ecmpsim
