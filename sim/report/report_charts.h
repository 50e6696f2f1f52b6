// The report's pictures as inline SVG text: the fabric drawn tier by tier with
// every switch-to-switch link coloured by its load, a per-link bar chart, and
// the histogram and CDF of a metric over sweep variants.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/report/html.h"
#include "sim/model/trace.h"

namespace ecmpsim::report {

// Flows per link mapped onto the colour ramp relative to the mean: a link
// carrying its scenario's mean flows per link (over the working
// switch-to-switch links, idle ones included: the mean of max/mean) is the
// neutral colour, less is blue, more is red, darkest at `top` times the mean
// (one `top` for every scenario of a page, so drawings compare directly). A
// perfectly balanced table is thus neutral throughout, however loaded. Idle
// links have their own colour.
struct LoadScale {
  double mean = 1;  // the scenario's mean flows per link
  double top = 2;   // load / mean at the dark-red end; >= 2
  html::Rgb colour(double flows) const;
};
// `top` for a page: the largest max/mean of its scenarios, at least 2.
double load_top(std::span<const double> max_over_mean);

// The fabric with the per-link flow counts of one scenario.
std::string fabric_svg(const Fabric& fabric, const Trace& trace, const LoadScale& scale,
                       const std::function<bool(LinkId)>& down);

// The colour legend of fabric_svg, link_bars_svg and heatmap_svg: load / mean
// from 0 to `top`, the neutral colour at 1.
std::string legend_svg(double top);

// Fabrics with more switches than this are drawn as heatmap_svg: their
// switch rows no longer fit labelled boxes (a 24-switch rail fabric's 16
// leaves) and their links become a tangle.
inline constexpr std::size_t kHeatmapSwitches = 20;

// The switch x switch load matrix of one scenario: a row per sending switch,
// a column per receiving switch (both by tier, top first, then by id), each
// cell coloured by the most loaded of the cables from the row's switch to the
// column's (a tooltip lists each), every switch labelled on both axes.
std::string heatmap_svg(const Fabric& fabric, const Trace& trace, const LoadScale& scale,
                        const std::function<bool(LinkId)>& down);

// `links` sorted by flows (then bytes) descending, one bar each, at most
// `max_bars` of them (the note under the chart says how many were left out).
std::string link_bars_svg(const Fabric& fabric, std::span<const LinkId> links, const Trace& trace,
                          const LoadScale& scale, double axis_max, std::size_t max_bars);

// A vertical line drawn over a distribution chart. A marker that may clamp
// does not widen the chart: outside the values' range it is drawn at the
// nearer edge, its label saying so with an arrow toward its true place.
struct Marker {
  double x = 0;
  std::string label;
  html::Rgb colour;
  bool clamp = false;
};

// When `values` hold a single distinct value (one histogram bar, a CDF that
// is one step) the one-line note that replaces both charts, naming the value
// and the markers'; otherwise empty.
std::string single_value_note(std::span<const double> values, std::string_view x_label,
                              std::span<const Marker> markers);

// Histogram of `values`: one bar per distinct value when there are few,
// otherwise equal-width bins on round boundaries.
std::string histogram_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers);
// Empirical CDF of `values`: the fraction of variants with a value <= x.
std::string cdf_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers);

}  // namespace ecmpsim::report
