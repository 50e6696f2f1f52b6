#include "sim/output/sweep_output.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/output/busbw_figures.h"
#include "sim/output/metrics_json.h"
#include "sim/output/rank_output.h"
#include "sim/routing/seeds.h"

namespace ecmpsim {
namespace {

using json = Json;

// The per-size metrics are nccl-tests' busbw; each job's busbw column is the fabric-bound one (busbw_figures.h).
std::string metric_label(std::size_t k) {
  static constexpr const char* kLabels[kSweepMetrics] = {
      "FIM (flows)",  "max/mean (flows)",    "CoV (flows)",        "Jain (flows)",
      "max flows on a link", "predicted slowdown", "@size (GB/s)", " avg (GB/s)"};
  return per_size(static_cast<SweepMetric>(k)) ? std::string(busbw_label(BusbwFigure::NcclTests)) + kLabels[k]
                                                : std::string(kLabels[k]);
}
// nccl-tests prints bus bandwidth in GB/s (10^9 bytes); the flow model's unit is Gb/s.
constexpr double kGBperGb = 1.0 / 8;

bool predicted(const SweepReport& r) { return r.sweep.space().axes().slowdown; }

// The jobs whose busbw the sweep computed: all of them under the flow model, else none.
std::size_t busbw_jobs(const SweepReport& r) { return predicted(r) ? r.sweep.base().jobs().size() : 0; }
const std::string& job_name(const SweepReport& r, std::size_t j) { return r.sweep.base().jobs()[j].name; }

// Whether the variants were priced per message size (busbw_at, busbw_avg).
bool sized(const SweepReport& r) { return r.sweep.space().combos() > 0 && !r.sweep.plan(0).sized().empty(); }

// The metrics the sweep computed, in SweepMetric order: all but the slowdown
// when the flow model was off, and the per-size ones only with a size table.
std::vector<std::size_t> shown(const SweepReport& r) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < kSweepMetrics; ++k) {
    const auto m = static_cast<SweepMetric>(k);
    if ((m != SweepMetric::Slowdown || predicted(r)) && (!per_size(m) || sized(r))) out.push_back(k);
  }
  return out;
}

// The sized jobs' sizes: what busbw_at and busbw_avg were priced at.
json sized_json(const SweepReport& r) {
  json out = json::array();
  for (const SweepPlan::SizedJob& s : r.sweep.plan(0).sized()) {
    std::vector<std::uint64_t> sizes;
    for (const Bytes b : s.sizes) sizes.push_back(b.value);
    out.push_back({{"job", job_name(r, s.job)},
                   {"busbw_at", s.at.value},
                   {"sizes", sizes},
                   {"coupling", name_of(workloads::kChannelCouplings, s.how.coupling)}});
  }
  return out;
}

// "fabric-bound busbw" for the only job, "fabric-bound busbw NAME" among several.
std::string job_busbw(const SweepReport& r, std::size_t j) {
  return std::string(busbw_label(BusbwFigure::FabricBound)) + (busbw_jobs(r) > 1 ? " " + job_name(r, j) : "");
}
std::string job_busbw(const SweepReport& r, std::size_t j, const char* unit) {
  return job_busbw(r, j) + " (" + unit + ")";
}

MetricSummary scaled(MetricSummary m, double factor) {
  for (double* v : {&m.min, &m.mean, &m.p10, &m.p50, &m.p90, &m.p99, &m.max, &m.histogram.lo, &m.histogram.hi}) *v *= factor;
  return m;
}

// "scenario 'ecmp', algorithm xxh3" for combination c.
std::string combo_name(const SweepReport& r, std::uint64_t c) {
  const VariantSpace& space = r.sweep.space();
  const Overrides o = space.at(space.first_of_combo(c));
  return "scenario '" + *o.scenario + "'" + (o.algo ? ", algorithm " + *o.algo : std::string());
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
  const auto row = r.run.values[offset];
  json m;
  for (std::size_t k : shown(r)) m[std::string(sweep_metric_name(k))] = row[k];
  json v = {{"index", index}, {"values", values_json(o)}, {"metrics", m}};
  if (busbw_jobs(r) > 0) {
    json bw = json::array();
    for (std::size_t j = 0; j < busbw_jobs(r); ++j)
      bw.push_back({{"job", job_name(r, j)},
                    {"gbps", row[busbw_column(j)]},
                    {"GBps", row[busbw_column(j)] * kGBperGb}});
    v["busbw"] = std::move(bw);
  }
  v["args"] = override_args(o);
  return v;
}

json metric_json(const MetricSummary& m) {
  Json one = summary_json(m);
  one["histogram"] = {{"lo", m.histogram.lo}, {"hi", m.histogram.hi}, {"counts", m.histogram.counts}};
  return one;
}

// The keys one summary adds to `out`: metrics, busbw, threshold, best, worst.
void add_summary(json& out, const SweepReport& r, const SweepSummary& s) {
  if (s.samples == 0) return;
  json metrics;
  for (std::size_t k : shown(r)) metrics[std::string(sweep_metric_name(k))] = metric_json(s.metrics[k]);
  out["metrics"] = std::move(metrics);
  if (busbw_jobs(r) > 0) {
    json bw = json::array();
    for (std::size_t j = 0; j < busbw_jobs(r); ++j) {
      const MetricSummary& m = s.metrics[busbw_column(j)];
      bw.push_back({{"job", job_name(r, j)}, {"gbps", metric_json(m)}, {"GBps", metric_json(scaled(m, kGBperGb))}});
    }
    out["busbw"] = std::move(bw);
  }
  if (s.threshold)
    out["threshold"] = {{"metric", sweep_metric_name(s.metric)},
                        {"value", *s.threshold},
                        {"above", s.above},
                        {"fraction_above", static_cast<double>(s.above) / static_cast<double>(s.samples)}};
  out["best"] = variant_json(r, s.best);
  out["worst"] = variant_json(r, s.worst);
}

std::string stats_rows(const SweepReport& r, const SweepSummary& s) {
  std::size_t width = 22;
  for (std::size_t k : shown(r)) width = std::max(width, metric_label(k).size() + 2);
  for (std::size_t j = 0; j < busbw_jobs(r); ++j) width = std::max(width, job_busbw(r, j, "Gb/s").size() + 2);
  std::string out = "\n" + pad_right("metric", width);
  for (const char* h : {"min", "mean", "p10", "p50", "p90", "p99", "max"}) out += pad_left(h, 10);
  out += "\n" + std::string(width + 70, '-') + "\n";
  auto row = [&](const std::string& label, const MetricSummary& m) {
    out += pad_right(label, width);
    for (double v : {m.min, m.mean, m.p10, m.p50, m.p90, m.p99, m.max}) out += pad_left(fixed(v, 4), 10);
    out += "\n";
  };
  for (std::size_t k : shown(r)) row(metric_label(k), s.metrics[k]);
  for (std::size_t j = 0; j < busbw_jobs(r); ++j) {
    row(job_busbw(r, j, "Gb/s"), s.metrics[busbw_column(j)]);
    row(job_busbw(r, j, "GB/s"), scaled(s.metrics[busbw_column(j)], kGBperGb));
  }
  out += "(percentiles: nearest rank)\n";
  if (sized(r)) out += "(" + busbw_legend(BusbwFigure::NcclTests) + ")\n";
  if (busbw_jobs(r) > 0) out += "(" + busbw_legend(BusbwFigure::FabricBound) + ")\n";
  return out;
}

// The best and worst variants, each with the `ecmpsim run` that reproduces it.
std::string extremes(const SweepReport& r, const SweepSummary& s) {
  std::string out;
  for (const auto& [label, off] : {std::pair{"best ", s.best}, std::pair{"worst", s.worst}}) {
    const std::uint64_t index = r.run.begin + off;
    const auto v = r.run.values[off];
    out += "\n" + std::string(label) + "  #" + std::to_string(index);
    for (std::size_t k : shown(r))
      if (k != static_cast<std::size_t>(SweepMetric::Cov))
        out += "  " + std::string(sweep_metric_name(k)) + " " +
               fixed(v[k], k == static_cast<std::size_t>(SweepMetric::MaxFlows) ? 0 : 4);
    for (std::size_t j = 0; j < busbw_jobs(r); ++j)
      out += "  " + job_busbw(r, j) + " " + fixed(v[busbw_column(j)], 2) + " Gb/s (" +
             fixed(v[busbw_column(j)] * kGBperGb, 2) + " GB/s)";
    std::vector<std::string> command{"ecmpsim", "run", r.sweep.base().spec().source};
    for (std::string& arg : override_args(r.sweep.space().at(index))) command.push_back(std::move(arg));
    out += "\n       " + shell_command(command) + "\n";
  }
  return out;
}

std::string histogram_text(const SweepSummary& s) {
  const auto ranked = static_cast<std::size_t>(s.metric);
  const Histogram& h = s.metrics[ranked].histogram;
  std::uint64_t peak = 1;
  for (auto c : h.counts) peak = std::max(peak, c);
  std::string out = "\n" + metric_label(ranked) + " histogram\n";
  const double width = (h.hi - h.lo) / static_cast<double>(h.counts.size());
  for (std::size_t b = 0; b < h.counts.size(); ++b) {
    const double lo = h.lo + width * static_cast<double>(b);
    const double hi = b + 1 == h.counts.size() ? h.hi : lo + width;
    out += "  [" + fixed(lo, 4) + ", " + fixed(hi, 4) + (b + 1 == h.counts.size() ? "]" : ")") +
           pad_left(std::to_string(h.counts[b]), 12) + "  " + std::string(h.counts[b] * 40 / peak, '#') + "\n";
  }
  return out;
}

// One summary as the table prints it: statistics, threshold, best and worst, histogram.
std::string summary_text(const SweepReport& r, const SweepSummary& s) {
  if (s.samples == 0) return "\n(no variants evaluated)\n";
  std::string out = stats_rows(r, s);
  if (s.threshold)
    out += "\n" + std::string(sweep_metric_name(s.metric)) + " > " + format_number(*s.threshold) + ": " +
           fixed(100.0 * static_cast<double>(s.above) / static_cast<double>(s.samples), 2) + "% of variants (" +
           std::to_string(s.above) + ")\n";
  return out + extremes(r, s) + histogram_text(s);
}

std::string heading(const std::string& title) { return "\n" + title + "\n" + std::string(title.size(), '=') + "\n"; }

}  // namespace

Json axes_json(const VariantSpace& space) {
  const SweepSpec& a = space.axes();
  Json j;
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
  if (const auto hashless = space.hashless(); !hashless.empty()) j["not_hashed"] = hashless;
  return j;
}

Json sweep_json(const SweepReport& r) {
  const VariantSpace& space = r.sweep.space();
  json doc;
  doc["config"] = r.sweep.base().spec().source;
  doc["axes"] = axes_json(space);
  doc["variants"] = space.size();
  doc["samples"] = r.run.values.size();
  doc["interrupted"] = r.run.interrupted;
  doc["percentiles"] = "nearest-rank";
  doc["ranked_by"] = sweep_metric_name(space.axes().metric);
  if (sized(r)) doc["sizes"] = sized_json(r);
  doc["notes"] = std::vector<std::string>(r.notes.begin(), r.notes.end());
  if (r.pooled != nullptr) add_summary(doc, r, *r.pooled);
  json each = json::array();
  for (std::uint64_t c = 0; c < r.each.size(); ++c) {
    const Overrides o = space.at(space.first_of_combo(c));
    json one = {{"scenario", *o.scenario}};
    if (o.algo) one["algo"] = *o.algo;
    one["variants"] = space.combo_size(c);
    one["samples"] = r.each[c].samples;
    add_summary(one, r, r.each[c]);
    each.push_back(std::move(one));
  }
  doc["scenarios"] = std::move(each);
  if (r.ranking != nullptr) doc["ranking"] = ranking_json(space, *r.ranking);
  return doc;
}

std::string sweep_table(const SweepReport& r) {
  const VariantSpace& space = r.sweep.space();
  std::string out;
  out += "config     " + escape_text(r.sweep.base().spec().source) + "\n";
  std::string axes;
  const json axes_doc = axes_json(space);
  for (auto it = axes_doc.begin(); it != axes_doc.end(); ++it)
    axes += (axes.empty() ? "" : ", ") + it.key() + " " + json_text(it.value(), -1);
  out += "axes       " + axes + "\n";
  for (const std::string& name : space.hashless())
    out += "note       '" + name + "' hashes nothing (adaptive or spray): one variant per workload, not one per "
           "seed or algorithm\n";
  if (sized(r))
    for (const SweepPlan::SizedJob& sj : r.sweep.plan(0).sized())
        out += "sizes      " + job_name(r, sj.job) + ": " + std::to_string(sj.sizes.size()) + " sizes, " +
             std::to_string(sj.sizes.front().value) + " to " + std::to_string(sj.sizes.back().value) +
             " B; busbw_at " + std::to_string(sj.at.value) + " B; " +
             std::string(name_of(workloads::kChannelCouplings, sj.how.coupling)) + " channels\n";
  out += "variants   " + std::to_string(r.run.values.size()) + " of " + std::to_string(space.size()) +
         (r.run.interrupted ? " (interrupted)" : "") + "\n";
  for (const std::string& note : r.notes) out += "note       " + wrap(note, 100, 11) + "\n";
  if (r.run.values.empty()) return out;
  const std::string ranking = r.ranking != nullptr ? ranking_text(space, *r.ranking) : std::string();
  if (r.each.size() == 1 && r.pooled != nullptr) return out + summary_text(r, *r.pooled) + ranking;
  for (std::uint64_t c = 0; c < r.each.size(); ++c)
    out += heading(combo_name(r, c) + ": " + std::to_string(r.each[c].samples) + " of " + std::to_string(space.combo_size(c)) +
                   " variants") +
           summary_text(r, r.each[c]);
  if (r.pooled != nullptr)
    out += heading("every scenario and algorithm pooled: " + std::to_string(r.pooled->samples) + " variants") +
           summary_text(r, *r.pooled);
  return out + ranking;
}

void sweep_csv(const SweepReport& r, Csv& csv) {
  const VariantSpace& space = r.sweep.space();
  const SweepSpec& a = space.axes();
  csv.cells({"index", "scenario"});
  if (!a.algos.empty()) csv.cell("algo");
  if (a.placement_seeds) csv.cell("placement_seed");
  if (!a.qps.empty()) csv.cell("qps");
  if (a.qpn_base) csv.cell("qpn_base");
  if (a.sport_base) csv.cell("sport_base");
  if (a.seeds) csv.cells({"seed", "seed_mode"});
  const std::vector<std::size_t> metrics = shown(r);
  for (std::size_t k : metrics) csv.cell(sweep_metric_name(k));
  for (std::size_t j = 0; j < busbw_jobs(r); ++j)
    csv.cells({"busbw_gbps:" + job_name(r, j), "busbw_GBps:" + job_name(r, j)});
  csv.end_row();
  for (std::uint64_t i = 0; i < r.run.values.size(); ++i) {
    const std::uint64_t index = r.run.begin + i;
    const Overrides o = space.at(index);
    csv.cell(index).cell(*o.scenario);
    if (!a.algos.empty()) csv.cell(o.algo.value_or(""));
    if (o.placement_seed) csv.cell(*o.placement_seed);
    if (o.qps) csv.cell(*o.qps);
    if (o.qpn_base) csv.cell(*o.qpn_base);
    if (o.sport_base) csv.cell(*o.sport_base);
    if (a.seeds) {
      if (o.seed)
        csv.cell(*o.seed).cell(name_of(kSeedModes, *o.seed_mode));
      else
        csv.cells({"", ""});
    }
    const auto row = r.run.values[i];
    for (std::size_t k : metrics) csv.cell(format_number(row[k]));
    for (std::size_t j = 0; j < busbw_jobs(r); ++j)
      csv.cells({format_number(row[busbw_column(j)]), format_number(row[busbw_column(j)] * kGBperGb)});
    csv.end_row();
  }
}

Result sweep_result(const SweepReport& r) {
  Result out;
  out.text = [p = &r] { return sweep_table(*p); };
  out.json = [p = &r](JsonWriter& w) { w.value(sweep_json(*p)); };
  out.csv = [p = &r](Csv& csv) { sweep_csv(*p, csv); };
  return out;
}

}  // namespace ecmpsim
