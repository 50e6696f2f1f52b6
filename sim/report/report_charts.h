// The report's pictures as inline SVG text: the fabric drawn tier by tier with
// every switch-to-switch link coloured by its load, a per-link bar chart, and
// the histogram and CDF of a metric over sweep variants.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/report/html.h"
#include "sim/model/trace.h"

namespace ecmpsim::report {

// Flows per link mapped onto the colour ramp: the least loaded busy link of
// any scenario at one end, the most loaded at the other, so drawings of
// several scenarios compare directly and small differences stay visible.
// Idle links have their own colour.
struct LoadScale {
  double lo = 0, hi = 1;
  html::Rgb colour(double flows) const;
};

// The fabric with the per-link flow counts of one scenario.
std::string fabric_svg(const Fabric& fabric, const Trace& trace, const LoadScale& scale);

// The colour legend of fabric_svg and link_bars_svg.
std::string legend_svg(const LoadScale& scale);

// `links` sorted by flows (then bytes) descending, one bar each, at most
// `max_bars` of them (the note under the chart says how many were left out).
std::string link_bars_svg(const Fabric& fabric, std::span<const LinkId> links, const Trace& trace,
                          const LoadScale& scale, double axis_max, std::size_t max_bars);

// A vertical line drawn over a distribution chart.
struct Marker {
  double x = 0;
  std::string label;
  html::Rgb colour;
};

// Histogram of `values`: one bar per distinct value when there are few,
// otherwise equal-width bins on round boundaries.
std::string histogram_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers);
// Empirical CDF of `values`: the fraction of variants with a value <= x.
std::string cdf_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers);

}  // namespace ecmpsim::report
