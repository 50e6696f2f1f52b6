// Building blocks for the HTML report: escaping, grouped counts, the sequential
// colour scale and chart axes. Everything returns text; nothing here reads
// simulation state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ecmpsim::html {

// Escapes & < > " ' so `s` is safe as element text and as an attribute value.
std::string escape(std::string_view s);

// A count with thin-space thousands separators, e.g. "12 345".
std::string grouped(std::uint64_t v);

// <section id=ID> with an <h2> title (escaped), an optional lede paragraph
// (HTML, not escaped) and the body (HTML).
std::string section(std::string_view id, std::string_view title, std::string_view lede, const std::string& body);

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(Rgb, Rgb) = default;
};
std::string css_colour(Rgb c);  // "#rrggbb"

// The load scale, diverging about the mean: `ratio` is a link's load over the
// mean load, `top` (> 1) the ratio at the dark-red end. Ratio 1 is kNeutral,
// so a perfectly balanced table is neutral throughout; below it the ramp runs
// to ColorBrewer RdBu's blue at 0, above it through RdBu's reds to its
// darkest at `top` (and beyond: clamped). Stops are interpolated linearly in sRGB.
Rgb load_colour(double ratio, double top);
inline constexpr Rgb kNeutral{0x8a, 0x93, 0x9f};
// Colour of a link with no flow at all, kept apart from the ramp on purpose.
inline constexpr Rgb kIdle{0xd6, 0xda, 0xe0};

// Fixed chart colours, shared by the CSS and the SVG so the page is consistent.
inline constexpr Rgb kInk{0x1f, 0x29, 0x37};      // text, axes
inline constexpr Rgb kMuted{0x6b, 0x72, 0x80};    // secondary text, grid labels
inline constexpr Rgb kGrid{0xe5, 0xe7, 0xeb};     // grid lines
inline constexpr Rgb kBar{0x3b, 0x6e, 0xa8};      // histogram bars and the CDF
inline constexpr Rgb kBest{0x1a, 0x93, 0x6f};     // best variant marker
inline constexpr Rgb kWorst{0xc0, 0x39, 0x2b};    // worst variant marker
inline constexpr Rgb kRef{0x7c, 0x3a, 0xed};      // reference value (e.g. static routing)
inline constexpr Rgb kSwitch{0x33, 0x41, 0x55};   // switch boxes
inline constexpr Rgb kHost{0x94, 0xa3, 0xb8};     // host boxes

// SVG text shared by the charts: coordinates to one decimal, the root
// element, a text element (escaped) and a line.
std::string num(double v);
std::string svg_open(double w, double h, std::string_view label, std::string_view cls);
std::string text(double x, double y, std::string_view s, std::string_view attrs = {});
std::string line(double x1, double y1, double x2, double y2, std::string_view attrs);
// Estimated width of `chars` characters of the page's sans-serif at `size` px.
inline double text_width(std::size_t chars, double size) { return static_cast<double>(chars) * size * 0.6; }

// "Nice" axis ticks covering [lo, hi]: about `target` steps of 1, 2 or 5 x 10^k.
// Returns at least two values; the first is <= lo and the last >= hi.
std::vector<double> nice_ticks(double lo, double hi, int target);
// Decimals needed to print ticks spaced `step` apart without losing a digit.
int tick_digits(double step);

}  // namespace ecmpsim::html
