// Running a catalogue row: the cases of its unknown axes, the metric per
// case, the distribution, the axes' effects and the verdict.
#include "sim/report/published.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/config/config.h"
#include "sim/base/text.h"
#include "sim/config/routing_kind.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/report/unknown_values.h"
#include "sim/sweep/sweep_stats.h"
#include "workloads/generators/placement.h"

namespace ecmpsim {
namespace {

constexpr std::uint32_t kCatalogueQpnBases = 4;
constexpr std::uint64_t kPlacementSeeds = 4;

struct PlacementValue {
  std::string label;
  std::optional<workloads::Placement> kind;  // nullopt: the config's own
  std::uint64_t seed = 0;
};

// Every declared axis's values, the config's first; an undeclared axis has
// only the config's value.
struct AxisValues {
  std::vector<PlacementValue> placements;
  std::vector<std::uint32_t> qpns, channels;
  std::vector<SeedMode> modes;
  std::vector<std::string> algos;
  std::vector<std::uint32_t> seeds;
};

std::string placement_label(workloads::Placement p, std::uint64_t seed) {
  std::string label(workloads::placement_name(p));
  return p == workloads::Placement::Random ? label + ":" + std::to_string(seed) : label;
}

AxisValues axis_values(const PublishedExperiment& e, const Spec& spec, const ScenarioSpec& baseline) {
  const JobSpec& job = spec.jobs.front();
  auto on = [&](UnknownAxis a) { return (e.axes & axis_bit(a)) != 0; };
  AxisValues v;
  v.placements.push_back({placement_label(job.placement, job.seed), std::nullopt, 0});
  for (std::uint64_t s = 0; on(UnknownAxis::Placement) && s < kPlacementSeeds; ++s) {
    const std::string label = placement_label(workloads::Placement::Random, s);
    if (label != v.placements.front().label) v.placements.push_back({label, workloads::Placement::Random, s});
  }
  v.qpns = qpn_bases(job.roce.qpn_base, on(UnknownAxis::QpnBase) ? kCatalogueQpnBases : 1);
  v.channels = on(UnknownAxis::Channels) ? channel_counts(job.channels) : std::vector<std::uint32_t>{job.channels};
  v.modes.push_back(baseline.hash.seed_mode);
  for (const auto& m : kSeedModes)
    if (on(UnknownAxis::SeedMode)) add_unique(v.modes, m.value);
  v.algos.push_back(baseline.hash.algo);
  for (std::string_view a : kUnknownAlgos)
    if (on(UnknownAxis::HashAlgo)) add_unique(v.algos, std::string(a));
  v.seeds.push_back(baseline.hash.seed);
  for (std::uint32_t s = 0; on(UnknownAxis::HashSeed) && v.seeds.size() < e.seeds; ++s) add_unique(v.seeds, s);
  return v;
}

const ScenarioSpec& scenario_named(const Spec& spec, std::string_view name, std::string_view row) {
  for (const ScenarioSpec& s : spec.scenarios)
    if (s.name == name) return s;
  throw InputError({spec.source, 0, 0, {}}, "the config has no scenario '" + std::string(name) +
                                                "', which the catalogue's '" + std::string(row) + "' compares");
}

// The spec of one workload case: every job placed, channelled, numbered and
// sized alike.
Spec workload_spec(const Spec& spec, const PublishedExperiment& e, const AxisValues& v, const PlacementValue& p,
                   std::uint32_t qpn, std::uint32_t channels, std::uint32_t qps) {
  Spec s = spec;
  for (JobSpec& j : s.jobs) {
    if (p.kind) {
      j.placement = *p.kind;
      j.seed = p.seed;
    }
    if (e.axes & axis_bit(UnknownAxis::QpnBase)) j.roce.qpn_base = qpn;
    if (channels != v.channels.front()) {
      j.channels = channels;
      j.search_channels = 0;
    }
    if (qps != 0) j.qps_per_connection = qps;
    if (e.nodes != 0) j.nodes = e.nodes;
  }
  return s;
}

ScenarioSpec hashed(const ScenarioSpec& s, SeedMode mode, const std::string& algo, std::uint32_t seed) {
  ScenarioSpec out = s;
  if (routing_mode(s.routing).hashes) {
    out.hash.seed_mode = mode;
    out.hash.algo = algo;
    out.hash.seed = seed;
  }
  return out;
}

// nccl-tests' busbw of the first job: the mean over its size table, or the row of `at_size`.
double table_busbw(const Simulation& sim, const ScenarioResult& r, const PublishedExperiment& e) {
  const std::vector<SizeRow> rows = size_table(sim, r);
  double sum = 0;
  std::size_t n = 0;
  for (const SizeRow& row : rows) {
    if (row.job != 0 || (e.at_size != 0 && row.size.value != e.at_size)) continue;
    sum += row.busbw_gbs;
    ++n;
  }
  if (n == 0)
    throw InputError({sim.spec().source, 0, 0, {}},
                     "the catalogue's '" + std::string(e.name) + "' needs the first job's size table" +
                         (e.at_size ? " with the size " + std::to_string(e.at_size) : std::string()) +
                         " ([workload] sizes)");
  return sum / static_cast<double>(n);
}

// The metric of one case, unscaled; NaN when undefined.
double metric_value(const PublishedExperiment& e, const Simulation& sb, const ScenarioResult& b,
                    const Simulation* st, const ScenarioResult* t) {
  const JobPrediction& pb = b.predicted.all;
  switch (e.metric) {
    case PublishedMetric::FimReduction:
      return b.flows.fim > 0 ? 1 - t->flows.fim / b.flows.fim : std::nan("");
    case PublishedMetric::BusbwGain:
      return table_busbw(*st, *t, e) / table_busbw(sb, b, e) - 1;
    case PublishedMetric::Busbw:
      return table_busbw(sb, b, e);
    case PublishedMetric::EffectiveGbps:
      return pb.slowdown > 0 ? sb.spec().fabric.leaf_spine.host_speed.value / pb.slowdown : std::nan("");
    case PublishedMetric::CompletionGain:
      return t->predicted.all.completion.value > 0
                 ? pb.completion.value / t->predicted.all.completion.value - 1
                 : std::nan("");
    case PublishedMetric::IdealGap:
      return pb.slowdown > 0 ? 1 - 1 / pb.slowdown : std::nan("");
  }
  return std::nan("");
}

std::vector<AxisEffect> effects_of(const PublishedResult& r) {
  std::vector<AxisEffect> out;
  for (std::size_t k = 0; k < r.axes.size(); ++k) {
    AxisEffect a{r.axes[k], {}, {}, 0};
    for (const PublishedCase& c : r.cases) add_unique(a.values, c.values[k]);
    for (const std::string& value : a.values) {
      std::vector<double> xs;
      for (const PublishedCase& c : r.cases)
        if (c.values[k] == value) xs.push_back(c.value);
      const Distribution d = distribution_of(std::move(xs));
      a.medians.push_back(d.cases ? d.p50 : std::nan(""));
    }
    std::vector<double> defined;
    for (double m : a.medians)
      if (!std::isnan(m)) defined.push_back(m);
    const auto [lo, hi] = std::minmax_element(defined.begin(), defined.end());
    a.spread = defined.empty() ? 0 : *hi - *lo;
    out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const AxisEffect& x, const AxisEffect& y) { return x.spread > y.spread; });
  return out;
}

std::string reason_of(const PublishedResult& r) {
  const PublishedExperiment& e = *r.experiment;
  const auto v = [&](double x) { return published_value(e.metric, x); };
  const std::string published = "the published " + v(e.published);
  const std::string most = r.effects.empty() || r.effects.front().spread == 0
                               ? std::string()
                               : "; " + std::string(name_of(kUnknownAxes, r.effects.front().axis)) +
                                     " moves it most (medians " + v(r.effects.front().spread) + " apart)";
  switch (r.verdict) {
    case Verdict::Reproduced:
      return published + " lies within p10-p90 (" + v(r.dist.p10) + " to " + v(r.dist.p90) + ")" + most;
    case Verdict::Consistent:
      return published + " lies within min-max (" + v(r.dist.min) + " to " + v(r.dist.max) +
             ") but outside p10-p90 (" + v(r.dist.p10) + " to " + v(r.dist.p90) + "): only some of the open cases give it" +
             most;
    case Verdict::NotReproduced:
      if (r.dist.cases == 0) return "no case defines the metric";
      return published + " lies " + (e.published > r.dist.max ? "above" : "below") + " every case (" + v(r.dist.min) +
             " to " + v(r.dist.max) + "); the model lacks " + std::string(e.lacks);
  }
  return {};
}

}  // namespace

const PublishedMetricRow& published_metric(PublishedMetric m) noexcept {
  for (const PublishedMetricRow& row : kPublishedMetrics)
    if (row.value == m) return row;
  return kPublishedMetrics.front();
}

std::string published_value(PublishedMetric m, double value) {
  if (std::isnan(value)) return "-";
  const PublishedMetricRow& row = published_metric(m);
  return fixed(value, 1) + (row.unit == "%" ? "%" : " " + std::string(row.unit));
}

Distribution distribution_of(std::vector<double> values) {
  std::erase_if(values, [](double x) { return std::isnan(x); });
  Distribution d;
  d.cases = values.size();
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  d.min = values.front();
  d.max = values.back();
  d.p10 = nearest_rank(values, 10);
  d.p50 = nearest_rank(values, 50);
  d.p90 = nearest_rank(values, 90);
  return d;
}

Verdict verdict_of(double published, const Distribution& d) noexcept {
  if (d.cases == 0) return Verdict::NotReproduced;
  if (d.p10 <= published && published <= d.p90) return Verdict::Reproduced;
  if (d.min <= published && published <= d.max) return Verdict::Consistent;
  return Verdict::NotReproduced;
}

PublishedResult run_published(const PublishedExperiment& e, const Spec& spec) {
  const PublishedMetricRow& metric = published_metric(e.metric);
  const ScenarioSpec& base = scenario_named(spec, e.baseline, e.name);
  const ScenarioSpec* treat = metric.treatment ? &scenario_named(spec, e.treatment, e.name) : nullptr;
  if (spec.jobs.empty()) throw InputError({spec.source, 0, 0, {}}, "the config has no job");
  const AxisValues v = axis_values(e, spec, base);
  PublishedResult r;
  r.experiment = &e;
  r.config = spec.source;
  for (const auto& a : kUnknownAxes)
    if (e.axes & axis_bit(a.value)) r.axes.push_back(a.value);
  auto labels = [&](const PlacementValue& p, std::uint32_t q, std::uint32_t c, SeedMode mode,
                    const std::string& algo, std::uint32_t seed) {
    std::vector<std::string> out;
    for (UnknownAxis a : r.axes)
      out.push_back(a == UnknownAxis::Placement ? p.label
                    : a == UnknownAxis::QpnBase ? std::to_string(q)
                    : a == UnknownAxis::Channels ? std::to_string(c)
                    : a == UnknownAxis::SeedMode ? std::string(name_of(kSeedModes, mode))
                    : a == UnknownAxis::HashAlgo ? algo
                                                 : std::to_string(seed));
    return out;
  };
  for (const PlacementValue& p : v.placements)
    for (std::uint32_t q : v.qpns)
      for (std::uint32_t c : v.channels) {
        const Simulation sb(workload_spec(spec, e, v, p, q, c, e.qps));
        std::optional<Simulation> st;
        if (treat && e.treatment_qps != 0 && e.treatment_qps != e.qps)
          st.emplace(workload_spec(spec, e, v, p, q, c, e.treatment_qps));
        const Simulation& sim_t = st ? *st : sb;
        // A scenario that does not hash is the same run for every hash case.
        std::optional<ScenarioResult> fixed_t;
        if (treat && !routing_mode(treat->routing).hashes) fixed_t = sim_t.run(*treat);
        for (SeedMode mode : v.modes)
          for (const std::string& algo : v.algos)
            for (std::uint32_t seed : v.seeds) {
              const ScenarioSpec bs = hashed(base, mode, algo, seed);
              const ScenarioResult rb = sb.run(bs);
              std::optional<ScenarioSpec> ts;
              std::optional<ScenarioResult> rt;
              if (treat && !fixed_t) {
                ts = hashed(*treat, mode, algo, seed);
                rt = sim_t.run(*ts);
              }
              const ScenarioResult* t = fixed_t ? &*fixed_t : rt ? &*rt : nullptr;
              r.cases.push_back(
                  {labels(p, q, c, mode, algo, seed), metric.scale * metric_value(e, sb, rb, &sim_t, t)});
            }
      }
  std::vector<double> values;
  for (const PublishedCase& c : r.cases) values.push_back(c.value);
  r.at_config = r.cases.front().value;
  r.dist = distribution_of(std::move(values));
  r.effects = effects_of(r);
  r.verdict = verdict_of(e.published, r.dist);
  r.reason = reason_of(r);
  return r;
}

std::vector<PublishedResult> run_catalogue(const std::string& root) {
  std::vector<PublishedResult> out;
  for (const PublishedExperiment& e : published_experiments()) {
    const std::string path(e.config);
    out.push_back(run_published(e, parse_config(read_input_file(root + "/" + path, {path, 0, 0, {}}, "config",
                                                                   {Limits{}.max_config_bytes, "max_config_bytes"}),
                                                   path)));
  }
  return out;
}

}  // namespace ecmpsim
