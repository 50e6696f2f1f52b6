// The plot frame the report's x-y charts share (the seed histogram and CDF in
// report_charts.cpp, busbw against message size in report_sizes.cpp): one
// size, one margin, one way to draw the grid, ticks and axis labels.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ecmpsim::report {

struct Frame {
  static constexpr double kW = 560, kH = 270, kL = 56, kR = 18, kT = 52, kB = 46;
  double lo = 0, hi = 1, ymax = 1;
  double x(double v) const { return kL + (kW - kL - kR) * (v - lo) / (hi - lo); }
  double y(double v) const { return kH - kB - (kH - kB - kT) * v / ymax; }
};

// An x-axis tick at data value `at`, printed as `label`.
struct Tick {
  double at = 0;
  std::string label;
};

// Grid lines at `yticks` (printed with `ydigits` decimals), the x ticks, both
// axes and their labels.
std::string axes(const Frame& f, std::span<const double> yticks, int ydigits, std::span<const Tick> xticks,
                 std::string_view x_label, std::string_view y_label);

}  // namespace ecmpsim::report
