#include "sim/report/html.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

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

std::string grouped(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += "\u2009";
    out += digits[i];
  }
  return out;
}

std::string css_colour(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

Rgb load_colour(double t) {
  // ColorBrewer YlOrRd (Brewer, colorbrewer2.org), its palest stop dropped so
  // the least loaded link still shows against a white page.
  constexpr std::array<Rgb, 6> stops{{{0xfe, 0xd9, 0x76},
                                      {0xfe, 0xb2, 0x4c},
                                      {0xfd, 0x8d, 0x3c},
                                      {0xf0, 0x3b, 0x20},
                                      {0xbd, 0x00, 0x26},
                                      {0x80, 0x00, 0x26}}};
  if (!(t > 0)) return stops.front();
  if (t >= 1) return stops.back();
  const double x = t * (stops.size() - 1);
  const auto i = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(i);
  auto mix = [f](std::uint8_t a, std::uint8_t b) {
    return static_cast<std::uint8_t>(std::lround(a + (static_cast<double>(b) - a) * f));
  };
  return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
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
