// The sweep's summary statistics on hand-worked arrays: nearest-rank
// percentiles, the mean, equal-width histograms and ties for best and worst.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/sweep/sweep_stats.h"

namespace sweep_stats_test {

using namespace ecmpsim;

namespace {

// A table whose column m holds v, the others 0.
ValueTable column_of(const std::vector<double>& v, SweepMetric m) {
  ValueTable out;
  out.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::fill(out[i].begin(), out[i].end(), 0.0);
    out[i][static_cast<std::size_t>(m)] = v[i];
  }
  return out;
}

}  // namespace

TEST_CASE("summary statistics: nearest-rank percentiles and the mean, worked by hand") {
  const auto s = summarize(column_of({5, 1, 4, 2, 3}, SweepMetric::Fim), 4, std::nullopt);
  const MetricSummary& f = s.metrics[0];
  CHECK(s.samples == 5);
  CHECK(f.min == 1);
  CHECK(f.max == 5);
  CHECK(f.mean == 3);
  CHECK(f.p50 == 3);  // ceil(0.5 * 5) = 3rd smallest
  CHECK(f.p90 == 5);  // ceil(4.5) = 5th
  CHECK(s.best == 1);  // the variant holding 1
  CHECK(s.worst == 0);
  // Bins of width 1 over [1, 5]: 1 | 2 | 3 | 4,5 (the last bin includes its top).
  CHECK(f.histogram.counts == std::vector<std::uint64_t>{1, 1, 1, 2});
  // 100..1: p90 is the 90th smallest, p99 the 99th.
  std::vector<double> w;
  for (int i = 100; i >= 1; --i) w.push_back(i);
  const MetricSummary t = summarize(column_of(w, SweepMetric::Fim), 10, std::nullopt).metrics[0];
  CHECK(t.p50 == 50);
  CHECK(t.p90 == 90);
  CHECK(t.p99 == 99);
  CHECK(t.mean == 50.5);
}

TEST_CASE("best and worst: ties go to the lowest variant; Jain's index is best when highest") {
  const auto fim = summarize(column_of({2, 1, 1, 3, 3}, SweepMetric::Fim), 2, 2.5, SweepMetric::Fim);
  CHECK(fim.best == 1);
  CHECK(fim.worst == 3);
  CHECK(fim.above == 2);  // 3 and 3 exceed the threshold 2.5
  const auto jain = summarize(column_of({0.5, 0.9, 0.9, 0.2}, SweepMetric::Jain), 2, std::nullopt, SweepMetric::Jain);
  CHECK(jain.best == 1);
  CHECK(jain.worst == 3);
}
}  // namespace sweep_stats_test
