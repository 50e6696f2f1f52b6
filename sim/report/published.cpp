// The catalogue's judgement of a run (sim/app/catalogue.cpp runs the rows on
// the sweep engine): the distribution, the axes' effects, the published
// figure's interval and the verdict with its reason.
#include "sim/report/published.h"

#include <algorithm>
#include <cmath>

#include "sim/base/text.h"
#include "sim/report/unknown_values.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim {
namespace {

std::vector<AxisEffect> effects_of(const PublishedResult& r) {
  std::vector<AxisEffect> out;
  for (std::size_t k = 0; k < r.axes.size(); ++k) {
    AxisEffect a{r.axes[k], {}, {}, 0};
    for (const PublishedCase& c : r.cases) add_unique(a.values, c.values[k]);
    for (const std::string& value : a.values) {
      std::vector<double> xs;
      for (const PublishedCase& c : r.cases)
        if (c.values[k] == value) xs.push_back(c.value);
      const Distribution d = distribution_of(std::move(xs));
      a.medians.push_back(d.cases ? d.p50 : std::nan(""));
    }
    std::vector<double> defined;
    for (double m : a.medians)
      if (!std::isnan(m)) defined.push_back(m);
    const auto [lo, hi] = std::minmax_element(defined.begin(), defined.end());
    a.spread = defined.empty() ? 0 : *hi - *lo;
    out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const AxisEffect& x, const AxisEffect& y) { return x.spread > y.spread; });
  return out;
}

// Why no single measurement is named: the axes move the metric only together.
std::string undetermined_reason(const PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  const auto v = [&](double x) { return published_value(e.metric, x); };
  std::string out = "the published " + published_range(e, r.figure) + " meets min-max (" + v(r.dist.min) +
                    " to " + v(r.dist.max) + "), but p10-p90 (" + v(r.dist.p10) + " to " + v(r.dist.p90) +
                    ") spans " + v(r.dist.p90 - r.dist.p10) + ", more than half the published " +
                    v(std::abs(e.published));
  if (r.effects.empty() || r.effects.front().spread == 0)
    return out + "; no single unknown moves its median, so only their combination decides it";
  const UnknownAxis a = r.effects.front().axis;
  for (const UnknownAxisRow& row : kUnknownAxes)
    if (row.value == a)
      return out + "; " + std::string(row.name) + " moves it most (medians " + v(r.effects.front().spread) +
             " apart); measuring " + std::string(row.pin) + " would pin it";
  return out;
}

std::string reason_of(const PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  const auto v = [&](double x) { return published_value(e.metric, x); };
  const std::string published = "the published " + published_range(e, r.figure);
  switch (r.verdict) {
    case Verdict::Reproduced:
      return published + " meets p10-p90 (" + v(r.dist.p10) + " to " + v(r.dist.p90) + "), which spans " +
             v(r.dist.p90 - r.dist.p10) + ", at most half the published " + v(std::abs(e.published));
    case Verdict::Undetermined:
      return undetermined_reason(r);
    case Verdict::NotReproduced:
      if (r.dist.cases == 0) return "no case defines the metric";
      if (r.figure.hi < r.dist.min || r.figure.lo > r.dist.max)
        return published + " lies " + (r.figure.lo > r.dist.max ? "above" : "below") + " every case (" +
               v(r.dist.min) + " to " + v(r.dist.max) + "); the model lacks " + std::string(e.lacks);
      return published + " misses p10-p90 (" + v(r.dist.p10) + " to " + v(r.dist.p90) +
             "), which the inputs pin (it spans at most half the published figure): only the outer cases give it; "
             "the model lacks " + std::string(e.lacks);
  }
  return {};
}

}  // namespace

const PublishedMetricRow& published_metric(PublishedMetric m) noexcept {
  for (const PublishedMetricRow& row : kPublishedMetrics)
    if (row.value == m) return row;
  return kPublishedMetrics.front();
}

std::string published_value(PublishedMetric m, double value) {
  if (std::isnan(value)) return "-";
  const PublishedMetricRow& row = published_metric(m);
  return fixed(value, 1) + (row.unit == "%" ? "%" : " " + std::string(row.unit));
}

Distribution distribution_of(std::vector<double> values) {
  std::erase_if(values, [](double x) { return std::isnan(x); });
  Distribution d;
  d.cases = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.min = values.front();
  d.max = values.back();
  d.p10 = nearest_rank(values, 10);
  d.p50 = nearest_rank(values, 50);
  d.p90 = nearest_rank(values, 90);
  return d;
}

Interval published_interval(double value, Precision p, unsigned decimals) noexcept {
  const double unit = std::pow(10.0, -static_cast<double>(decimals));
  if (p == Precision::Stated) return {value - unit / 2, value + unit / 2};
  // The figure in units of its last digit: a multiple of 10 was rounded to 10 units.
  const double units = std::round(std::abs(value) / unit);
  const double half = std::fmod(units, 10) == 0 ? 5 * unit : std::fmod(units, 5) == 0 ? 2.5 * unit : unit / 2;
  if (p == Precision::About) return {value - half, value + half};
  return {std::min(0.0, value - half), std::max(0.0, value + half)};
}

std::string published_range(const PublishedExperiment& e, Interval figure) {
  const int digits = e.decimals + 1;
  const PublishedMetricRow& row = published_metric(e.metric);
  const std::string unit = row.unit == "%" ? "%" : " " + std::string(row.unit);
  return published_value(e.metric, e.published) + " (" + std::string(name_of(kPrecisions, e.precision)) + ", " +
         fixed(figure.lo, digits) + " to " + fixed(figure.hi, digits) + unit + ")";
}

Verdict verdict_of(Interval figure, double magnitude, const Distribution& d) noexcept {
  if (d.cases == 0 || figure.hi < d.min || figure.lo > d.max) return Verdict::NotReproduced;
  if (d.p90 - d.p10 > kPinnedWidth * magnitude) return Verdict::Undetermined;
  return figure.hi >= d.p10 && figure.lo <= d.p90 ? Verdict::Reproduced : Verdict::NotReproduced;
}

void judge(PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  std::vector<double> values;
  for (const PublishedCase& c : r.cases) values.push_back(c.value);
  r.at_config = r.cases.empty() ? std::nan("") : r.cases.front().value;
  r.dist = distribution_of(std::move(values));
  r.effects = effects_of(r);
  r.figure = published_interval(e.published, e.precision, e.decimals);
  r.verdict = verdict_of(r.figure, std::abs(e.published), r.dist);
  r.reason = reason_of(r);
}

}  // namespace ecmpsim
