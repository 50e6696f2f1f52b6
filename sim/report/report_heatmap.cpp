// The switch x switch load heatmap: the fabric drawing of a large fabric
// (more than kHeatmapSwitches switches) has rows of boxes too narrow for
// their names and links that cross in a tangle, while a matrix keeps a
// labelled row and column per switch at any size, legible in a screenshot or
// a printed page. Rows send, columns receive; both run tier by tier from the
// top so a leaf-spine fabric shows as two off-diagonal blocks.
#include <algorithm>
#include <map>
#include <utility>

#include "sim/base/text.h"
#include "sim/report/report_charts.h"

namespace ecmpsim::report {
namespace {

using html::css_colour;
using html::escape;
using html::num;
using html::svg_open;
using html::text;
using html::text_width;

// The switches by tier, top first, then by id.
std::vector<NodeId> matrix_order(const Fabric& fabric) {
  std::vector<NodeId> order(fabric.switches().begin(), fabric.switches().end());
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    const auto ta = fabric.node(a).tier, tb = fabric.node(b).tier;
    return ta != tb ? ta > tb : a < b;
  });
  return order;
}

// Whole flows, or (spraying splits flows into shares) two decimals.
std::string count_text(double flows) {
  return flows == static_cast<double>(static_cast<std::uint64_t>(flows)) ? fixed(flows, 0) : fixed(flows, 2);
}

std::string cell_tip(const Fabric& fabric, const Trace& trace, const std::vector<LinkId>& links,
                     const std::function<bool(LinkId)>& down) {
  std::string tip;
  for (LinkId l : links) {
    const double n = trace.flows_on(l);
    tip += (tip.empty() ? "" : "\n") + fabric.link_name(l) + ": " +
           (down(l) ? std::string("down") : count_text(n) + (n == 1 ? " flow" : " flows"));
  }
  return tip;
}

}  // namespace

std::string heatmap_svg(const Fabric& fabric, const Trace& trace, const LoadScale& scale,
                        const std::function<bool(LinkId)>& down) {
  const std::vector<NodeId> order = matrix_order(fabric);
  const std::size_t n = order.size();
  std::vector<std::size_t> index(fabric.nodes().size(), n);
  for (std::size_t i = 0; i < n; ++i) index[order[i]] = i;
  std::map<std::pair<std::size_t, std::size_t>, std::vector<LinkId>> cells;
  for (LinkId l = 0; l < fabric.links().size(); ++l) {
    const Link& link = fabric.link(l);
    if (fabric.is_switch(link.from) && fabric.is_switch(link.to)) cells[{index[link.from], index[link.to]}].push_back(l);
  }
  std::size_t longest = 4;
  for (NodeId s : order) longest = std::max(longest, fabric.node(s).name.size());
  // 11 px names while they fit; 9 px (still legible at 1280 px) on the largest fabrics.
  constexpr double kWidth = 1180;
  const double font = n <= 48 ? 11 : 9;
  const double label_w = text_width(longest, font) + 10;
  const double cell = std::clamp((kWidth - label_w - 24) / static_cast<double>(n), 8.0, 32.0);
  const double left = label_w + 18, top = label_w + 22;
  const double width = left + cell * static_cast<double>(n) + 6, height = top + cell * static_cast<double>(n) + 8;
  const std::string fs = "style=\"font-size:" + num(font) + "px\"";

  std::string out = svg_open(width, height, "switch by switch load heatmap", "heatmap");
  out += text(left, 12, "to (receiving switch) \u2192", "class=\"axis-label\"");
  out += text(12, top, "from (sending switch) \u2192", "class=\"axis-label\" transform=\"rotate(90 12 " + num(top) + ")\"");
  out += "<g class=\"hm-labels\">\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& name = fabric.node(order[i]).name;
    const double c = static_cast<double>(i) * cell + cell / 2 + font / 3;
    out += text(left - 4, top + c, name, "text-anchor=\"end\" class=\"hm-row\" " + fs);
    const double x = left + c - 2 * font / 3, y = top - 4;
    out += text(x, y, name, "class=\"hm-col\" " + fs + " transform=\"rotate(-90 " + num(x) + " " + num(y) + ")\"");
  }
  out += "</g>\n<rect class=\"hm-frame\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" +
         num(cell * static_cast<double>(n)) + "\" height=\"" + num(cell * static_cast<double>(n)) + "\"/>\n";
  out += "<g class=\"hm-cells\">\n";
  for (const auto& [at, links] : cells) {
    double flows = -1;
    for (LinkId l : links)
      if (!down(l)) flows = std::max(flows, trace.flows_on(l));
    const double x = left + static_cast<double>(at.second) * cell, y = top + static_cast<double>(at.first) * cell;
    const std::string from = fabric.node(order[at.first]).name, to = fabric.node(order[at.second]).name;
    const html::Rgb fill = scale.colour(std::max(0.0, flows));
    out += "<g class=\"hm-cell" + std::string(flows < 0 ? " down" : "") + "\" data-from=\"" + escape(from) +
           "\" data-to=\"" + escape(to) + "\" data-flows=\"" + (flows < 0 ? "down" : count_text(flows)) + "\"><rect x=\"" +
           num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(cell) + "\" height=\"" + num(cell) + "\" fill=\"" +
           css_colour(fill) + "\"/>";
    const std::string count = flows < 0 ? "\u00d7" : count_text(flows);
    // White on the dark colours, ink on the light ones (Rec. 601 luma).
    const bool dark = 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b < 140;
    if (cell >= 14 && text_width(count.size(), font) + 4 <= cell)
      out += text(x + cell / 2, y + cell / 2 + font / 3, count,
                  "text-anchor=\"middle\" class=\"hm-count" + std::string(dark ? "" : " on-light") + "\" " + fs);
    out += "<title>" + escape(from + " \u2192 " + to + "\n" + cell_tip(fabric, trace, links, down)) + "</title></g>\n";
  }
  out += "</g>\n</svg>\n";
  return out;
}

}  // namespace ecmpsim::report
