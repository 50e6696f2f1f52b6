// Summaries of a sweep's per-variant values: exact order statistics,
// histograms, best and worst. Pure functions of the value array.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/config/sweep_metric.h"
#include "sim/sweep/value_table.h"

namespace ecmpsim {

// Nearest-rank percentile of ascending `sorted` (non-empty): the value of
// rank ceil(p/100 * n), 1-based, and the smallest value for p = 0.
double nearest_rank(std::span<const double> sorted, unsigned p);

struct Histogram {
  double lo = 0, hi = 0;  // bins of equal width (hi - lo) / counts.size(); the last includes hi
  std::vector<std::uint64_t> counts;
};

struct MetricSummary {
  double min = 0, mean = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;  // nearest-rank percentiles
  Histogram histogram;
};

struct SweepSummary {
  std::uint64_t samples = 0;
  std::vector<MetricSummary> metrics;   // one per column of the values: SweepMetric order, then each job's busbw
  SweepMetric metric = SweepMetric::Fim;  // ranks best and worst; the threshold applies to it
  std::uint64_t best = 0, worst = 0;    // variant offsets of the best and worst metric value, ties to the lowest
  std::optional<double> threshold;
  std::uint64_t above = 0;              // variants whose metric is > threshold
};

// `bins` equal-width bins over [min, max] (one bin when min == max).
// The mean is summed in index order, so the result never depends on threads.
SweepSummary summarize(ValueView values, unsigned bins, std::optional<double> threshold,
                       SweepMetric metric = SweepMetric::Fim);

}  // namespace ecmpsim
