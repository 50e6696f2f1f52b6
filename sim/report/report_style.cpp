#include "sim/report/report_style.h"

#include "sim/report/html.h"

namespace ecmpsim::report {

std::string stylesheet() {
  using html::css_colour;
  std::string css = ":root{--ink:" + css_colour(html::kInk) + ";--muted:" + css_colour(html::kMuted) + ";--grid:" +
                    css_colour(html::kGrid) + ";--bar:" + css_colour(html::kBar) + ";--switch:" + css_colour(html::kSwitch) +
                    ";--host:" + css_colour(html::kHost) + ";--best:" + css_colour(html::kBest) + ";--worst:" +
                    css_colour(html::kWorst) + "}\n";
  css += R"css(*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:var(--ink);font:14px/1.5 "DejaVu Sans",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1240px;margin:0 auto;padding:0 20px 40px}
header.page{background:var(--ink);color:#fff;padding:22px 0 18px;margin-bottom:8px}
header.page .inner{max-width:1240px;margin:0 auto;padding:0 20px}
header.page h1{margin:0 0 4px;font-size:24px;font-weight:700;letter-spacing:-.01em}
header.page p{margin:2px 0;color:#d1d5db}
header.page code{color:#fff;background:rgba(255,255,255,.08);padding:1px 6px;border-radius:4px}
nav{max-width:1240px;margin:0 auto;padding:6px 20px 0;font-size:13px}
nav a{color:var(--bar);text-decoration:none;margin-right:16px}
section{background:#fff;border:1px solid var(--grid);border-radius:10px;padding:20px 24px 22px;margin:16px 0}
h2{margin:0 0 2px;font-size:18px}
h3{margin:14px 0 6px;font-size:15px}
h3 .sub{font-weight:400;color:var(--muted);font-size:13px;margin-left:6px}
p.lede{margin:0 0 14px;color:var(--muted)}
p.note{margin:6px 0 0;color:var(--muted);font-size:12.5px}
code{font-family:"DejaVu Sans Mono",ui-monospace,monospace;font-size:12.5px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(210px,1fr));gap:12px}
.card{border:1px solid var(--grid);border-radius:8px;padding:10px 14px;border-top:4px solid var(--bar)}
.card .k{color:var(--muted);font-size:12.5px}
.card .v{font-size:26px;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.25}
.card .s{color:var(--muted);font-size:12.5px}
.grid2{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:18px 28px}
figure{margin:0 0 8px;break-inside:avoid}
figcaption{font-weight:600;margin:0 0 6px}
figcaption span{font-weight:400;color:var(--muted)}
svg{display:block;width:100%;height:auto}
svg text{font-size:11px;fill:var(--ink)}
svg .tier{fill:var(--muted);font-size:11px;letter-spacing:.08em;text-transform:uppercase}
svg .switch rect{fill:var(--switch)}
svg .switch text{fill:#fff;text-anchor:middle;font-weight:600}
svg .host rect{fill:#e5e9f0;stroke:var(--host)}
svg .host text{text-anchor:middle;font-size:10px}
svg line.access{stroke:#cfd5dd;stroke-width:1}
svg line.link{stroke-width:3;stroke-linecap:round}
svg line.link.down{stroke-dasharray:6 4}
svg line.link.idle{stroke-dasharray:2 3}
svg .hm-frame{fill:#f8fafc;stroke:var(--grid)}
svg .hm-cell rect{stroke:#fff;stroke-width:1}
svg .hm-count{fill:#fff;font-weight:700}
svg .hm-count.on-light{fill:var(--ink)}
svg .count rect{fill:#fff;stroke-width:1.5}
svg .count text{text-anchor:middle;font-weight:700;font-size:10.5px}
svg .grid{stroke:var(--grid)}
svg .axis,svg .tick{stroke:#9ca3af}
svg .tick-label{fill:var(--muted);font-size:10.5px}
svg .axis-label{fill:var(--muted);font-size:11.5px}
svg .bar-label{font-size:10.5px}
svg .bar-value{font-size:10.5px;fill:var(--muted)}
svg .mean{stroke:var(--ink);stroke-dasharray:4 3}
svg .mean-label{font-size:10.5px}
svg .cdf-line{stroke-width:2}
svg .marker-label{font-size:11px;font-weight:700}
svg.legend{max-width:540px;margin:2px 0 10px}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:13px}
th,td{padding:5px 10px;border-bottom:1px solid #eef0f3;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
thead th{border-bottom:2px solid var(--grid);color:var(--muted);font-weight:600}
thead th .sub{display:block;font-weight:400;font-size:11.5px}
tr.group td{color:var(--muted);font-size:11.5px;text-transform:uppercase;letter-spacing:.06em;padding-top:12px}
td.best{font-weight:700;color:#065f46;background:#ecfdf5}
td.path{text-align:left;font-size:12px;color:var(--muted)}
td.mono,th.mono{font-family:"DejaVu Sans Mono",ui-monospace,monospace;font-size:12px}
table.kv td:first-child{width:180px;color:var(--muted)}
table.kv td{text-align:left}
.swatch{margin-right:6px}
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:20px}
@media (max-width:900px){.grid2{grid-template-columns:minmax(0,1fr)}}
@media print{
  body{background:#fff;font-size:10pt}
  header.page{background:#fff;color:var(--ink);border-bottom:2px solid var(--ink)}
  header.page p{color:var(--muted)}
  header.page code{color:var(--ink);background:none}
  nav{display:none}
  main{max-width:none;padding:0}
  section{border:none;border-radius:0;padding:0;margin:0 0 10pt}
  section+section{break-before:page}
  tr,figure,.card{break-inside:avoid}
  .table-wrap{overflow:visible}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
)css";
  return css;
}

}  // namespace ecmpsim::report
