#include "sim/report/html.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "sim/base/text.h"

namespace ecmpsim::html {

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string section(std::string_view id, std::string_view title, std::string_view lede, const std::string& body) {
  return "<section id=\"" + std::string(id) + "\">\n<h2>" + escape(title) + "</h2>\n" +
         (lede.empty() ? "" : "<p class=\"lede\">" + std::string(lede) + "</p>\n") + body + "</section>\n";
}

std::string grouped(std::uint64_t v) { return ecmpsim::grouped(v, "\u2009"); }

std::string css_colour(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

namespace {

// Linear interpolation in sRGB between `stops` spread evenly over t in [0, 1].
template <std::size_t N>
Rgb ramp(const std::array<Rgb, N>& stops, double t) {
  if (!(t > 0)) return stops.front();
  if (t >= 1) return stops.back();
  const double x = t * (N - 1);
  const auto i = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(i);
  auto mix = [f](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + (static_cast<double>(b) - a) * f));
  };
  return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

}  // namespace

Rgb load_colour(double ratio, double top) {
  // ColorBrewer RdBu (Brewer, colorbrewer2.org): its two darkest blues below
  // the mean; its reds above, from the palest kept visible on a white page.
  constexpr std::array<Rgb, 3> below{{{0x21, 0x66, 0xac}, {0x67, 0xa9, 0xcf}, kNeutral}};
  constexpr std::array<Rgb, 4> above{{kNeutral, {0xef, 0x8a, 0x62}, {0xb2, 0x18, 0x2b}, {0x67, 0x00, 0x1f}}};
  if (!(ratio < 1)) return ramp(above, top > 1 ? (ratio - 1) / (top - 1) : 1.0);
  return ramp(below, ratio);
}

std::string num(double v) { return ecmpsim::fixed(v, 1); }

std::string svg_open(double w, double h, std::string_view label, std::string_view cls) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + std::string(cls) + "\" viewBox=\"0 0 " + num(w) +
         " " + num(h) + "\" role=\"img\" aria-label=\"" + escape(label) + "\">\n";
}

std::string text(double x, double y, std::string_view s, std::string_view attrs) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + (attrs.empty() ? "" : " ") + std::string(attrs) + ">" +
         escape(s) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, std::string_view attrs) {
  return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " +
         std::string(attrs) + "/>\n";
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  const double first = std::floor(lo / step + 1e-9) * step;
  for (int i = 0;; ++i) {
    const double v = first + i * step;
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    if (v >= hi - step * 1e-9 && ticks.size() >= 2) break;
  }
  return ticks;
}

int tick_digits(double step) {
  if (!(step > 0)) return 0;
  const int d = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return std::clamp(d, 0, 6);
}

}  // namespace ecmpsim::html
