#include "sim/sweep/sweep_stats.h"

#include <algorithm>
#include <cmath>

namespace ecmpsim {

double nearest_rank(std::span<const double> sorted, unsigned p) {
  // Integer ceil(p * n / 100): no floating-point rounding at exact ranks.
  const std::uint64_t rank = (std::uint64_t{p} * sorted.size() + 99) / 100;
  return sorted[rank == 0 ? 0 : std::min<std::uint64_t>(rank, sorted.size()) - 1];
}

SweepSummary summarize(ValueView values, unsigned bins, std::optional<double> threshold,
                       SweepMetric metric) {
  SweepSummary s;
  s.metric = metric;
  s.samples = values.size();
  s.threshold = threshold;
  s.metrics.resize(values.width);
  if (values.empty()) return s;
  bins = std::max(1u, bins);
  std::vector<double> column(values.size());
  for (std::size_t m = 0; m < values.width; ++m) {
    double sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      column[i] = values[i][m];
      sum += column[i];
    }
    MetricSummary& out = s.metrics[m];
    out.mean = sum / static_cast<double>(values.size());
    std::sort(column.begin(), column.end());
    out.min = column.front();
    out.max = column.back();
    out.p10 = nearest_rank(column, 10);
    out.p50 = nearest_rank(column, 50);
    out.p90 = nearest_rank(column, 90);
    out.p99 = nearest_rank(column, 99);
    Histogram& h = out.histogram;
    h.lo = out.min;
    h.hi = out.max;
    const unsigned nb = out.max > out.min ? bins : 1;
    h.counts.assign(nb, 0);
    for (double x : column) {
      const double pos = nb == 1 ? 0 : (x - h.lo) / (h.hi - h.lo) * nb;
      ++h.counts[std::min<std::size_t>(nb - 1, static_cast<std::size_t>(pos))];
    }
  }
  const auto m = static_cast<std::size_t>(metric);
  std::uint64_t lo = 0, hi = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i][m] < values[lo][m]) lo = i;
    if (values[i][m] > values[hi][m]) hi = i;
  }
  s.best = higher_is_better(metric) ? hi : lo;
  s.worst = higher_is_better(metric) ? lo : hi;
  if (threshold)
    for (std::uint64_t i = 0; i < values.size(); ++i) s.above += values[i][m] > *threshold ? 1 : 0;
  return s;
}

}  // namespace ecmpsim
