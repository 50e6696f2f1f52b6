#include "sim/output/sweep_output.h"

#include <cstdio>

#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/output/metrics_json.h"
#include "sim/routing/seeds.h"

namespace ecmpsim {
namespace {

using json = Json;

constexpr const char* kLabels[kSweepMetrics] = {"FIM (flows)",  "max/mean (flows)",    "CoV (flows)",
                                                "Jain (flows)", "max flows on a link", "predicted slowdown"};

// The metrics the sweep computed, in SweepMetric order: all but the slowdown
// when the flow model was off.
std::vector<std::size_t> shown(const SweepReport& r) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < kSweepMetrics; ++k)
    if (k != static_cast<std::size_t>(SweepMetric::Slowdown) || r.sweep.space().axes().slowdown) out.push_back(k);
  return out;
}

json axes_json(const VariantSpace& space) {
  const SweepSpec& a = space.axes();
  json j;
  j["scenarios"] = std::vector<std::string>(space.scenarios().begin(), space.scenarios().end());
  if (!a.algos.empty()) j["algos"] = a.algos;
  if (a.placement_seeds) j["placement_seeds"] = format_range(*a.placement_seeds);
  if (!a.qps.empty()) j["qps"] = a.qps;
  if (a.qpn_base) j["qpn_base"] = format_range(*a.qpn_base);
  if (a.sport_base) j["sport_base"] = format_range(*a.sport_base);
  if (a.seeds) {
    j["seeds"] = format_range(*a.seeds);
    j["seed_mode"] = name_of(kSeedModes, a.seed_mode);
  }
  return j;
}

json values_json(const Overrides& o) {
  json j;
  if (o.scenario) j["scenario"] = *o.scenario;
  if (o.algo) j["algo"] = *o.algo;
  if (o.placement_seed) j["placement_seed"] = *o.placement_seed;
  if (o.qps) j["qps"] = *o.qps;
  if (o.qpn_base) j["qpn_base"] = *o.qpn_base;
  if (o.sport_base) j["sport_base"] = *o.sport_base;
  if (o.seed) j["seed"] = *o.seed;
  if (o.seed_mode) j["seed_mode"] = name_of(kSeedModes, *o.seed_mode);
  return j;
}

json variant_json(const SweepReport& r, std::uint64_t offset) {
  const std::uint64_t index = r.run.begin + offset;
  const Overrides o = r.sweep.space().at(index);
  json m;
  for (std::size_t k : shown(r)) m[std::string(sweep_metric_name(k))] = r.run.values[offset][k];
  return {{"index", index}, {"values", values_json(o)}, {"metrics", m}, {"args", override_args(o)}};
}

std::string join_args(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += " " + a;
  return s;
}

}  // namespace

std::string sweep_json(const SweepReport& r) {
  const VariantSpace& space = r.sweep.space();
  json doc;
  doc["config"] = r.sweep.base().spec().source;
  doc["axes"] = axes_json(space);
  doc["variants"] = space.size();
  doc["samples"] = r.summary.samples;
  doc["interrupted"] = r.run.interrupted;
  doc["percentiles"] = "nearest-rank";
  doc["ranked_by"] = sweep_metric_name(r.summary.metric);
  doc["notes"] = std::vector<std::string>(r.notes.begin(), r.notes.end());
  json metrics;
  for (std::size_t k : shown(r)) {
    if (r.summary.samples == 0) break;
    const MetricSummary& m = r.summary.metrics[k];
    Json one = summary_json(m);
    one["histogram"] = {{"lo", m.histogram.lo}, {"hi", m.histogram.hi}, {"counts", m.histogram.counts}};
    metrics[std::string(sweep_metric_name(k))] = std::move(one);
  }
  doc["metrics"] = std::move(metrics);
  if (r.summary.threshold)
    doc["threshold"] = {{"metric", sweep_metric_name(r.summary.metric)},
                        {"value", *r.summary.threshold},
                        {"above", r.summary.above},
                        {"fraction_above", r.summary.samples ? static_cast<double>(r.summary.above) /
                                                                   static_cast<double>(r.summary.samples)
                                                             : 0.0}};
  if (r.summary.samples > 0) {
    doc["best"] = variant_json(r, r.summary.best);
    doc["worst"] = variant_json(r, r.summary.worst);
  }
  return doc.dump(2) + "\n";
}

std::string sweep_table(const SweepReport& r) {
  const VariantSpace& space = r.sweep.space();
  const SweepSummary& s = r.summary;
  std::string out;
  out += "config     " + r.sweep.base().spec().source + "\n";
  std::string axes;
  const json axes_doc = axes_json(space);
  for (auto it = axes_doc.begin(); it != axes_doc.end(); ++it)
    axes += (axes.empty() ? "" : ", ") + it.key() + " " + it.value().dump();
  out += "axes       " + axes + "\n";
  out += "variants   " + std::to_string(s.samples) + " of " + std::to_string(space.size()) +
         (r.run.interrupted ? " (interrupted)" : "") + "\n";
  for (const std::string& note : r.notes) out += "note       " + wrap(note, 100, 11) + "\n";
  if (s.samples == 0) return out;
  out += "\n" + pad_right("metric", 22);
  for (const char* h : {"min", "mean", "p50", "p90", "p99", "max"}) out += pad_left(h, 10);
  out += "\n" + std::string(22 + 60, '-') + "\n";
  for (std::size_t k : shown(r)) {
    const MetricSummary& m = s.metrics[k];
    out += pad_right(kLabels[k], 22);
    for (double v : {m.min, m.mean, m.p50, m.p90, m.p99, m.max}) out += pad_left(fixed(v, 4), 10);
    out += "\n";
  }
  out += "(percentiles: nearest rank)\n";
  const auto ranked = static_cast<std::size_t>(s.metric);
  if (s.threshold)
    out += "\n" + std::string(sweep_metric_name(ranked)) + " > " + format_number(*s.threshold) + ": " +
           fixed(100.0 * static_cast<double>(s.above) / static_cast<double>(s.samples), 2) + "% of variants (" +
           std::to_string(s.above) + ")\n";
  for (const auto& [label, off] : {std::pair{"best ", s.best}, std::pair{"worst", s.worst}}) {
    const std::uint64_t index = r.run.begin + off;
    const auto& v = r.run.values[off];
    out += "\n" + std::string(label) + "  #" + std::to_string(index);
    for (std::size_t k : shown(r))
      if (k != static_cast<std::size_t>(SweepMetric::Cov))
        out += "  " + std::string(sweep_metric_name(k)) + " " +
               fixed(v[k], k == static_cast<std::size_t>(SweepMetric::MaxFlows) ? 0 : 4);
    out += "\n       ecmpsim run " + r.sweep.base().spec().source + join_args(override_args(space.at(index))) + "\n";
  }
  const Histogram& h = s.metrics[ranked].histogram;
  std::uint64_t peak = 1;
  for (auto c : h.counts) peak = std::max(peak, c);
  out += "\n" + std::string(kLabels[ranked]) + " histogram\n";
  const double width = (h.hi - h.lo) / static_cast<double>(h.counts.size());
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    const double lo = h.lo + width * static_cast<double>(b);
    const double hi = b + 1 == h.counts.size() ? h.hi : lo + width;
    out += "  [" + fixed(lo, 4) + ", " + fixed(hi, 4) + (b + 1 == h.counts.size() ? "]" : ")") +
           pad_left(std::to_string(h.counts[b]), 12) + "  " + std::string(h.counts[b] * 40 / peak, '#') + "\n";
  }
  return out;
}

std::string sweep_csv(const SweepReport& r) {
  const VariantSpace& space = r.sweep.space();
  const SweepSpec& a = space.axes();
  std::string out = "index,scenario";
  if (!a.algos.empty()) out += ",algo";
  if (a.placement_seeds) out += ",placement_seed";
  if (!a.qps.empty()) out += ",qps";
  if (a.qpn_base) out += ",qpn_base";
  if (a.sport_base) out += ",sport_base";
  if (a.seeds) out += ",seed,seed_mode";
  const std::vector<std::size_t> metrics = shown(r);
  for (std::size_t k : metrics) out += "," + std::string(sweep_metric_name(k));
  out += "\n";
  for (std::uint64_t i = 0; i < r.run.values.size(); ++i) {
    const std::uint64_t index = r.run.begin + i;
    const Overrides o = space.at(index);
    out += std::to_string(index) + "," + *o.scenario;
    if (o.algo) out += "," + *o.algo;
    if (o.placement_seed) out += "," + std::to_string(*o.placement_seed);
    if (o.qps) out += "," + std::to_string(*o.qps);
    if (o.qpn_base) out += "," + std::to_string(*o.qpn_base);
    if (o.sport_base) out += "," + std::to_string(*o.sport_base);
    if (o.seed) out += "," + std::to_string(*o.seed) + "," + std::string(name_of(kSeedModes, *o.seed_mode));
    for (std::size_t k : metrics) out += "," + format_number(r.run.values[i][k]);
    out += "\n";
  }
  return out;
}

}  // namespace ecmpsim
