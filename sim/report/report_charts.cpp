#include "sim/base/text.h"
#include "sim/report/report_charts.h"
#include "sim/report/chart_frame.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

namespace ecmpsim::report {
namespace {

using html::escape;
using html::css_colour;

using html::line;
using html::num;
using html::svg_open;
using html::text;
using html::text_width;

// A link's flow count as drawn: whole flows, or shares to two decimals when spraying splits them.
std::string count_text(const Trace& trace, LinkId l) {
  return trace.split() ? fixed(trace.flows_on(l), 2) : std::to_string(trace.link_flows[l]);
}

std::string flows_text(double flows) {
  const auto n = static_cast<std::uint64_t>(flows);
  if (static_cast<double>(n) != flows) return fixed(flows, 2) + " flows";  // shares of sprayed flows
  return html::grouped(n) + (n == 1 ? " flow" : " flows");
}

struct Point {
  double x = 0, y = 0;
};

struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

constexpr std::array<const char*, 4> kTierRows{"hosts", "leaves", "spines", "cores"};

}  // namespace

html::Rgb LoadScale::colour(double flows) const {
  if (flows <= 0) return html::kIdle;
  return html::load_colour(mean > 0 ? flows / mean : 1.0, top);
}

double load_top(std::span<const double> max_over_mean) {
  double top = 2;
  for (double r : max_over_mean)
    if (std::isfinite(r)) top = std::max(top, r);
  return top;
}

std::string fabric_svg(const Fabric& fabric, const Trace& trace, const LoadScale& scale,
                       const std::function<bool(LinkId)>& down) {
  constexpr double kWidth = 1180, kLeft = 78, kRight = 16, kBoxH = 24;
  constexpr std::size_t kMaxHostBoxes = 64;
  const auto nodes = fabric.nodes();
  std::array<std::vector<NodeId>, 4> tiers;
  for (NodeId n = 0; n < nodes.size(); ++n) tiers[static_cast<std::size_t>(nodes[n].tier)].push_back(n);
  // Many hosts are drawn as one box per ToR, carrying the count.
  const bool group_hosts = tiers[0].size() > kMaxHostBoxes;
  std::vector<std::uint32_t> host_box(nodes.size(), kNone);
  std::vector<std::pair<std::string, std::string>> host_rows;  // label, tooltip
  if (group_hosts) {
    std::vector<std::uint32_t> per_tor(fabric.tors().size());
    for (std::uint32_t e = 0; e < fabric.endpoints().size(); ++e) {
      host_box[fabric.endpoint_node(e)] = fabric.tor_of(e);
      ++per_tor[fabric.tor_of(e)];
    }
    for (std::size_t t = 0; t < per_tor.size(); ++t)
      host_rows.emplace_back(std::to_string(per_tor[t]),
                             std::to_string(per_tor[t]) + " hosts under " + nodes[fabric.tors()[t]].name);
  }

  std::vector<Point> pos(nodes.size());
  std::vector<double> box_w(nodes.size());
  std::vector<Point> group_pos(host_rows.size());
  double group_w = 0;
  std::string rows;
  double y = 28, last_y = y;
  const double usable = kWidth - kLeft - kRight;
  for (int tier = 3; tier >= 0; --tier) {
    const auto& members = tiers[static_cast<std::size_t>(tier)];
    if (members.empty()) continue;
    const std::size_t count = (tier == 0 && group_hosts) ? host_rows.size() : members.size();
    const double spacing = usable / static_cast<double>(count);
    const double w = std::max(2.0, std::min(84.0, spacing - 6));
    rows += text(8, y + 4, kTierRows[static_cast<std::size_t>(tier)], "class=\"tier\"");
    if (tier == 0 && group_hosts) {
      group_w = w;
      for (std::size_t i = 0; i < count; ++i) group_pos[i] = {kLeft + (static_cast<double>(i) + 0.5) * spacing, y};
      for (NodeId n : members) pos[n] = group_pos[host_box[n]];
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        pos[members[i]] = {kLeft + (static_cast<double>(i) + 0.5) * spacing, y};
        box_w[members[i]] = w;
      }
    }
    last_y = y;
    y += tier == 1 ? 96 : 170;
  }
  const double height = last_y + kBoxH / 2 + 6;

  // Directed switch-to-switch links, grouped by cable end points.
  std::map<std::pair<NodeId, NodeId>, std::vector<LinkId>> pairs;
  std::string host_lines;
  for (LinkId l = 0; l < fabric.links().size(); ++l) {
    const Link& link = fabric.link(l);
    if (fabric.is_switch(link.from) && fabric.is_switch(link.to)) {
      pairs[std::minmax(link.from, link.to)].push_back(l);
    } else if (!fabric.is_switch(link.from)) {  // one line per access cable
      const Point a = pos[link.from], b = pos[link.to];
      host_lines += line(a.x, a.y - kBoxH / 2, b.x, b.y + kBoxH / 2, "class=\"access\"");
    }
  }
  struct Drawn {
    double flows;
    std::string svg;
  };
  std::vector<Drawn> drawn;
  std::vector<std::pair<Box, std::string>> labels;
  constexpr double kGap = 4.0;
  for (const auto& [ends, links] : pairs) {
    const double g = static_cast<double>(links.size());
    std::map<NodeId, int> dir_index;
    for (std::size_t k = 0; k < links.size(); ++k) {
      const Link& link = fabric.link(links[k]);
      const bool from_upper = nodes[link.from].tier > nodes[link.to].tier ||
                              (nodes[link.from].tier == nodes[link.to].tier && link.from < link.to);
      const NodeId upper = from_upper ? link.from : link.to, lower = from_upper ? link.to : link.from;
      const Point pu{pos[upper].x, pos[upper].y + kBoxH / 2}, pl{pos[lower].x, pos[lower].y - kBoxH / 2};
      const double dx = pl.x - pu.x, dy = pl.y - pu.y, len = std::max(1e-9, std::hypot(dx, dy));
      const double off = (static_cast<double>(k) - (g - 1) / 2) * kGap;
      const Point a{pu.x + dy / len * off, pu.y - dx / len * off}, b{pl.x + dy / len * off, pl.y - dx / len * off};
      const double flows = trace.flows_on(links[k]);
      const std::string name = fabric.link_name(links[k]);
      const bool up = !down(links[k]);
      const std::string tip = up ? name + ": " + flows_text(flows) + ", " +
                                       human_bytes(trace.bytes_on(links[k]))
                                 : name + ": down";
      std::string svg = "<line class=\"link" + std::string(!up ? " down" : flows > 0 ? "" : " idle") + "\" x1=\"" + num(a.x) + "\" y1=\"" +
                        num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" + num(b.y) + "\" stroke=\"" +
                        css_colour(scale.colour(up ? flows : 0)) + "\" data-link=\"" +
                        escape(name) + "\" data-flows=\"" + count_text(trace, links[k]) + "\"><title>" + escape(tip) +
                        "</title></line>\n";
      drawn.push_back({up ? flows : -1, std::move(svg)});
      if (!up) continue;
      // The count sits near the sending end, so the two directions of a cable never share a spot.
      const double frac = 0.2 + 0.12 * dir_index[link.from]++;
      const Point src = from_upper ? a : b, dst = from_upper ? b : a;
      const Point at{src.x + (dst.x - src.x) * frac, src.y + (dst.y - src.y) * frac};
      const std::string t = count_text(trace, links[k]);
      const double w = text_width(t.size(), 11) + 8;
      const Box box{at.x - w / 2, at.y - 8, at.x + w / 2, at.y + 8};
      labels.emplace_back(box, "<g class=\"count\"><rect x=\"" + num(box.x0) + "\" y=\"" + num(box.y0) +
                                   "\" width=\"" + num(w) + "\" height=\"16\" rx=\"3\" stroke=\"" +
                                   css_colour(scale.colour(flows)) + "\"/>" +
                                   text(at.x, at.y + 4, t) +
                                   "<title>" + escape(tip) + "</title></g>\n");
    }
  }
  std::stable_sort(drawn.begin(), drawn.end(), [](const Drawn& a, const Drawn& b) { return a.flows < b.flows; });
  bool show_labels = labels.size() <= 600;
  for (std::size_t i = 0; show_labels && i < labels.size(); ++i)
    for (std::size_t j = i + 1; show_labels && j < labels.size(); ++j)
      show_labels = !labels[i].first.overlaps(labels[j].first);

  std::string out = svg_open(kWidth, height, "fabric drawing with per-link flow counts", "fabric");
  out += rows + "<g class=\"access-links\">\n" + host_lines + "</g>\n<g class=\"links\">\n";
  for (const auto& d : drawn) out += d.svg;
  out += "</g>\n";
  if (show_labels) {
    out += "<g class=\"counts\">\n";
    for (const auto& [box, svg] : labels) out += svg;
    out += "</g>\n";
  }
  out += "<g class=\"nodes\">\n";
  auto node_box = [&](Point p, double w, std::string_view cls, std::string_view label, std::string_view tip) {
    std::string s = "<g class=\"" + std::string(cls) + "\"><rect x=\"" + num(p.x - w / 2) + "\" y=\"" +
                    num(p.y - kBoxH / 2) + "\" width=\"" + num(w) + "\" height=\"" + num(kBoxH) + "\" rx=\"4\"/>";
    if (!label.empty() && text_width(label.size(), 11) + 6 <= w) s += text(p.x, p.y + 4, label);
    return s + "<title>" + escape(tip) + "</title></g>\n";
  };
  for (NodeId n = 0; n < nodes.size(); ++n) {
    if (nodes[n].tier == Tier::Host && group_hosts) continue;
    const bool sw = fabric.is_switch(n);
    std::string label = nodes[n].name;
    // A host's box shows its number when the whole name does not fit (and nothing when it has none).
    const std::size_t digit = label.find_first_of("0123456789");
    if (!sw && text_width(label.size(), 11) + 6 > box_w[n]) label = digit == std::string::npos ? "" : label.substr(digit);
    out += node_box(pos[n], box_w[n], sw ? "switch" : "host", label, nodes[n].name);
  }
  for (std::size_t i = 0; i < host_rows.size(); ++i)
    out += node_box(group_pos[i], group_w, "host", host_rows[i].first, host_rows[i].second);
  out += "</g>\n</svg>\n";
  if (!show_labels && !labels.empty())
    out += "<p class=\"note\">Too many links to label legibly at this width: hover a link for its flow count, "
           "or read the bar chart below.</p>\n";
  return out;
}

std::string legend_svg(double top) {
  constexpr double kW = 560, kBarX = 90, kBarW = 250, kH = 44;
  std::string out = svg_open(kW, kH, "colour scale: flows per link over the scenario's mean", "legend");
  out += "<defs><linearGradient id=\"load-ramp\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">";
  for (int i = 0; i <= 20; ++i) {
    const double r = top * i / 20.0;
    out += "<stop offset=\"" + fixed(i / 20.0, 2) + "\" stop-color=\"" + css_colour(html::load_colour(r, top)) + "\"/>";
  }
  out += "</linearGradient></defs>\n";
  out += text(0, 19, "flows / mean", "class=\"axis-label\"");
  out += "<rect x=\"" + num(kBarX) + "\" y=\"8\" width=\"" + num(kBarW) + "\" height=\"14\" fill=\"url(#load-ramp)\"/>\n";
  const auto ticks = html::nice_ticks(0, top, 4);
  const int digits = html::tick_digits(ticks[1] - ticks[0]);
  for (double t : ticks) {
    if (t > top + 1e-9) continue;
    const double x = kBarX + kBarW * t / top;
    out += line(x, 22, x, 26, "class=\"tick\"");
    out += text(x, 38, fixed(t, digits) + "\u00d7", "text-anchor=\"middle\" class=\"tick-label\"");
  }
  out += "<rect x=\"" + num(kBarX + kBarW + 28) + "\" y=\"8\" width=\"22\" height=\"14\" fill=\"" + css_colour(html::kIdle) +
         "\"/>\n";
  out += text(kBarX + kBarW + 56, 19, "idle (0 flows)", "class=\"tick-label\"");
  out += text(kBarX + kBarW + 28, 38, "1\u00d7 = the mean: balanced", "class=\"tick-label\"");
  return out + "</svg>\n";
}

std::string link_bars_svg(const Fabric& fabric, std::span<const LinkId> links, const Trace& trace,
                          const LoadScale& scale, double axis_max_flows, std::size_t max_bars) {
  std::vector<LinkId> order(links.begin(), links.end());
  std::stable_sort(order.begin(), order.end(), [&](LinkId a, LinkId b) {
    if (trace.flows_on(a) != trace.flows_on(b)) return trace.flows_on(a) > trace.flows_on(b);
    return trace.bytes_on(a) > trace.bytes_on(b);
  });
  const std::size_t shown = std::min(max_bars, order.size());
  std::size_t longest = 4;
  for (std::size_t i = 0; i < shown; ++i) longest = std::max(longest, fabric.link_name(order[i]).size());
  constexpr double kW = 560, kRow = 17, kTop = 40, kRight = 36;
  const double label_w = std::clamp(text_width(longest, 11) + 12, 80.0, 220.0);
  const double plot_w = kW - label_w - kRight;
  const double height = kTop + kRow * static_cast<double>(shown) + 10;
  const auto ticks = html::nice_ticks(0, std::max(1.0, axis_max_flows), 5);
  const double axis_max = ticks.back();
  auto x_of = [&](double v) { return label_w + plot_w * v / axis_max; };
  double sum = 0;
  for (LinkId l : links) sum += trace.flows_on(l);
  const double mean = links.empty() ? 0 : sum / static_cast<double>(links.size());

  std::string out = svg_open(kW, height, "flows per link, most loaded first", "bars");
  out += text(label_w, 12, "flows on the link", "class=\"axis-label\"");
  const int digits = html::tick_digits(ticks.size() > 1 ? ticks[1] - ticks[0] : 1);
  for (double t : ticks) {
    out += line(x_of(t), kTop - 6, x_of(t), height - 8, "class=\"grid\"");
    out += text(x_of(t), kTop - 10, fixed(t, digits), "text-anchor=\"middle\" class=\"tick-label\"");
  }
  for (std::size_t i = 0; i < shown; ++i) {
    const LinkId l = order[i];
    const double f = trace.flows_on(l);
    const double yy = kTop + kRow * static_cast<double>(i);
    const std::string tip = fabric.link_name(l) + ": " + flows_text(f) + ", " +
                            human_bytes(trace.bytes_on(l));
    out += "<g class=\"bar\"><title>" + escape(tip) + "</title>";
    out += text(label_w - 6, yy + 12, fabric.link_name(l), "text-anchor=\"end\" class=\"bar-label\"");
    out += "<rect x=\"" + num(label_w) + "\" y=\"" + num(yy + 2) + "\" width=\"" + num(std::max(0.0, x_of(f) - label_w)) +
           "\" height=\"" + num(kRow - 4) + "\" fill=\"" + css_colour(scale.colour(f)) + "\"/>";
    out += text(x_of(f) + 4, yy + 12, count_text(trace, l), "class=\"bar-value\"");
    out += "</g>\n";
  }
  out += line(x_of(mean), kTop - 4, x_of(mean), height - 8, "class=\"mean\"");
  out += text(x_of(mean) + 3, height - 1, "mean " + fixed(mean, 2), "class=\"mean-label\"");
  return out + "</svg>\n";
}

namespace {

Frame make_frame(std::span<const double> sorted, std::span<const Marker> markers) {
  Frame f;
  double lo = sorted.front(), hi = sorted.back();
  for (const Marker& m : markers)
    if (std::isfinite(m.x) && !m.clamp) lo = std::min(lo, m.x), hi = std::max(hi, m.x);
  if (!(hi > lo)) {
    const double pad = std::max(std::abs(lo) * 0.05, 0.01);
    lo -= pad;
    hi += pad;
  }
  const auto ticks = html::nice_ticks(lo, hi, 6);
  f.lo = ticks.front();
  f.hi = ticks.back();
  return f;
}

std::string axes(const Frame& f, std::span<const double> yticks, int ydigits, std::string_view x_label,
                 std::string_view y_label) {
  const auto ticks = html::nice_ticks(f.lo, f.hi, 6);
  const int xdigits = html::tick_digits(ticks.size() > 1 ? ticks[1] - ticks[0] : 1);
  std::vector<Tick> xticks;
  for (double t : ticks) xticks.push_back({t, fixed(t, xdigits)});
  return axes(f, yticks, ydigits, xticks, x_label, y_label);
}

}  // namespace

std::string axes(const Frame& f, std::span<const double> yticks, int ydigits, std::span<const Tick> xticks,
                 std::string_view x_label, std::string_view y_label) {
  std::string out;
  for (double t : yticks) {
    out += line(Frame::kL, f.y(t), Frame::kW - Frame::kR, f.y(t), "class=\"grid\"");
    out += text(Frame::kL - 6, f.y(t) + 4, fixed(t, ydigits), "text-anchor=\"end\" class=\"tick-label\"");
  }
  for (const Tick& t : xticks) {
    out += line(f.x(t.at), Frame::kH - Frame::kB, f.x(t.at), Frame::kH - Frame::kB + 4, "class=\"tick\"");
    out += text(f.x(t.at), Frame::kH - Frame::kB + 17, t.label, "text-anchor=\"middle\" class=\"tick-label\"");
  }
  out += line(Frame::kL, Frame::kH - Frame::kB, Frame::kW - Frame::kR, Frame::kH - Frame::kB, "class=\"axis\"");
  out += line(Frame::kL, Frame::kT - 4, Frame::kL, Frame::kH - Frame::kB, "class=\"axis\"");
  out += text((Frame::kL + Frame::kW - Frame::kR) / 2, Frame::kH - 8, x_label,
              "text-anchor=\"middle\" class=\"axis-label\"");
  const double cy = (Frame::kT + Frame::kH - Frame::kB) / 2;
  out += text(14, cy, y_label,
              "text-anchor=\"middle\" class=\"axis-label\" transform=\"rotate(-90 14 " + num(cy) + ")\"");
  return out;
}

namespace {

// Marker lines with their labels stacked in rows above the plot so none overlap.
std::string markers_svg(const Frame& f, std::span<const Marker> markers) {
  std::vector<std::size_t> order(markers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return markers[a].x < markers[b].x; });
  std::vector<std::vector<std::pair<double, double>>> rows(4);
  std::string out;
  for (std::size_t i : order) {
    const Marker& m = markers[i];
    if (!std::isfinite(m.x)) continue;
    // Off the chart's range: at the nearer edge, the label pointing the way.
    const bool below = m.clamp && m.x < f.lo, above = m.clamp && m.x > f.hi;
    const std::string label = below ? "\u25c0 " + m.label + " (off scale)" : above ? m.label + " (off scale) \u25b6" : m.label;
    const double x = f.x(below ? f.lo : above ? f.hi : m.x), w = text_width(label.size(), 11);
    const bool right = x > Frame::kW / 2;
    const double x0 = right ? x - w : x, x1 = right ? x : x + w;
    std::size_t row = 0;
    while (row + 1 < rows.size() && std::any_of(rows[row].begin(), rows[row].end(), [&](auto s) {
             return x0 < s.second + 6 && s.first < x1 + 6;
           }))
      ++row;
    rows[row].emplace_back(x0, x1);
    const double ty = Frame::kT - 8 - 12.0 * static_cast<double>(row);
    const std::string c = css_colour(m.colour);
    out += below || above ? "<g class=\"marker off-scale\">" : "<g class=\"marker\">";
    out += line(x, ty + 3, x, Frame::kH - Frame::kB, "stroke=\"" + c + "\" stroke-width=\"2\"");
    out += text(right ? x - 3 : x + 3, ty, label,
                "class=\"marker-label\" fill=\"" + c + "\"" + (right ? " text-anchor=\"end\"" : ""));
    out += "</g>\n";
  }
  return out;
}

}  // namespace

std::string single_value_note(std::span<const double> values, std::string_view x_label,
                              std::span<const Marker> markers) {
  if (values.empty()) return {};
  const double v = values.front();
  for (double x : values)
    if (x != v) return {};
  std::string others;
  for (const Marker& m : markers)
    if (std::isfinite(m.x) && m.x != v) others += (others.empty() ? "" : "; ") + m.label;
  const std::string n = values.size() == 1 ? "The one variant has" : "All " + html::grouped(values.size()) + " variants have";
  return "<p class=\"note single-value\">" + escape(n + " " + std::string(x_label) + " " + fixed(v, 4) +
                                                    ": a single value, so no histogram or CDF is drawn" +
                                                    (others.empty() ? "." : " (" + others + ").")) +
         "</p>\n";
}

std::string histogram_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers) {
  if (values.empty()) return {};
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  Frame f = make_frame(v, markers);
  // (position, count, width in data units)
  std::vector<std::pair<double, std::size_t>> bins;
  double bin_w = 0;
  std::vector<double> distinct = v;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() <= 60) {
    for (double d : distinct)
      bins.emplace_back(d, static_cast<std::size_t>(std::upper_bound(v.begin(), v.end(), d) -
                                                    std::lower_bound(v.begin(), v.end(), d)));
    double gap = f.hi - f.lo;
    for (std::size_t i = 1; i < distinct.size(); ++i) gap = std::min(gap, distinct[i] - distinct[i - 1]);
    bin_w = std::min(gap * 0.8, (f.hi - f.lo) / 40);
  } else {
    const auto edges = html::nice_ticks(v.front(), v.back(), 30);
    bin_w = edges[1] - edges[0];
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i) {
      const bool last = i + 2 == edges.size();
      std::size_t count = 0;
      while (at < v.size() && (v[at] < edges[i + 1] || last)) ++at, ++count;
      bins.emplace_back(edges[i] + bin_w / 2, count);
    }
    bin_w *= 0.92;
  }
  std::size_t top = 1;
  for (const auto& b : bins) top = std::max(top, b.second);
  const auto yticks = html::nice_ticks(0, static_cast<double>(top), 4);
  f.ymax = yticks.back();
  std::string out = svg_open(Frame::kW, Frame::kH, "histogram of " + std::string(x_label), "hist");
  out += axes(f, yticks, html::tick_digits(yticks[1] - yticks[0]), x_label, "variants");
  out += "<g class=\"hist-bars\" fill=\"" + css_colour(html::kBar) + "\">\n";
  for (const auto& [at, count] : bins) {
    if (count == 0) continue;
    const double x0 = f.x(at - bin_w / 2), x1 = f.x(at + bin_w / 2);
    const double w = std::max(1.5, x1 - x0);
    out += "<rect x=\"" + num((x0 + x1) / 2 - w / 2) + "\" y=\"" + num(f.y(static_cast<double>(count))) +
           "\" width=\"" + num(w) + "\" height=\"" + num(f.y(0) - f.y(static_cast<double>(count))) + "\"><title>" +
           escape(fixed(at, 4) + ": " + std::to_string(count) + " variants") + "</title></rect>\n";
  }
  out += "</g>\n" + markers_svg(f, markers);
  return out + "</svg>\n";
}

std::string cdf_svg(std::span<const double> values, std::string_view x_label, std::span<const Marker> markers) {
  if (values.empty()) return {};
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  Frame f = make_frame(v, markers);
  f.ymax = 1;
  const std::array<double, 5> yticks{0, 0.25, 0.5, 0.75, 1};
  std::string out = svg_open(Frame::kW, Frame::kH, "cumulative distribution of " + std::string(x_label), "cdf");
  out += axes(f, yticks, 2, x_label, "fraction of variants \u2264 x");
  const double n = static_cast<double>(v.size());
  std::string d = "M" + num(f.x(f.lo)) + " " + num(f.y(0)) + " H" + num(f.x(v.front()));
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j < v.size() && v[j] == v[i]) ++j;
    d += " V" + num(f.y(static_cast<double>(j) / n));
    if (j < v.size()) d += " H" + num(f.x(v[j]));
    i = j;
  }
  d += " H" + num(f.x(f.hi));
  out += "<path class=\"cdf-line\" d=\"" + d + "\" fill=\"none\" stroke=\"" + css_colour(html::kBar) + "\"/>\n";
  out += markers_svg(f, markers);
  return out + "</svg>\n";
}

}  // namespace ecmpsim::report
