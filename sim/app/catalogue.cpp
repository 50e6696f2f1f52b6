// The published catalogue's runner (issue 45 item 5, issue 46 item 3): each
// row's cases evaluated by the sweep engine (sim/sweep: the hash algorithm,
// QPN base and hash seed are its axes; placement, channels and seed mode,
// which it does not sweep, are one engine run each), the metric per case read
// from the engine's rows, then judged by sim/report/published.h's rule.
#include "sim/app/catalogue.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/limits.h"
#include "sim/config/config.h"
#include "sim/config/routing_kind.h"
#include "sim/report/unknown_values.h"
#include "sim/sweep/sweep.h"
#include "workloads/generators/placement.h"

namespace ecmpsim::app {
namespace {

constexpr std::uint32_t kCatalogueQpnBases = 4;
constexpr std::uint32_t kQpnStep = 4099;  // as unknown_values.h steps QP numbers
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
  std::vector<std::string> algos;  // the hash seeds are the engine's range (engine_axes)
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
  return v;
}

const ScenarioSpec& scenario_named(const Spec& spec, std::string_view name, std::string_view row) {
  for (const ScenarioSpec& s : spec.scenarios)
    if (s.name == name) return s;
  throw InputError({spec.source, 0, 0, {}}, "the config has no scenario '" + std::string(name) +
                                                "', which the catalogue's '" + std::string(row) + "' compares");
}

// The spec of one case the engine does not sweep: every job placed,
// channelled and given `qps` alike, every hashing scenario's seed mode set.
Spec case_spec(const Spec& spec, const PublishedExperiment& e, const AxisValues& v, const PlacementValue& p,
               std::uint32_t channels, std::uint32_t qps, SeedMode mode) {
  Spec s = spec;
  for (JobSpec& j : s.jobs) {
    if (p.kind) {
      j.placement = *p.kind;
      j.seed = p.seed;
    }
    if (channels != v.channels.front()) {
      j.channels = channels;
      j.search_channels = 0;
    }
    if (qps != 0) j.qps_per_connection = qps;
    if (e.nodes != 0) j.nodes = e.nodes;
  }
  for (ScenarioSpec& sc : s.scenarios)
    if (routing_mode(sc.routing).hashes) sc.hash.seed_mode = mode;
  return s;
}

// The axes the sweep engine evaluates: hash algorithm, QPN base and hash
// seed, each only when the experiment declares it.
SweepSpec engine_axes(const PublishedExperiment& e, const AxisValues& v, const ScenarioSpec& base,
                      std::vector<std::string> scenarios, SeedMode mode) {
  SweepSpec axes;
  axes.scenarios = std::move(scenarios);
  if (e.axes & axis_bit(UnknownAxis::HashAlgo)) axes.algos = v.algos;
  if (e.axes & axis_bit(UnknownAxis::QpnBase))
    axes.qpn_base = UintRange{v.qpns.front(), v.qpns.front() + kQpnStep * v.qpns.size(), kQpnStep};
  if (e.axes & axis_bit(UnknownAxis::HashSeed)) axes.seeds = UintRange{base.hash.seed, base.hash.seed + e.seeds, 1};
  axes.seed_mode = mode;
  axes.busbw_at = Bytes{e.at_size};
  return axes;
}

// One sweep's rows by (scenario, algorithm, QPN base, seed) digits.
struct EngineRun {
  std::unique_ptr<Sweep> sweep;
  ValueTable values;
  std::map<std::array<std::uint64_t, 4>, std::uint64_t> row;

  EngineRun(const Spec& spec, const SweepSpec& axes)
      : sweep(std::make_unique<Sweep>(spec, axes)), values(run_sweep(*sweep, 0, sweep->space().size(), 1).values) {
    for (std::uint64_t i = 0; i < values.size(); ++i) row[key(i)] = i;
  }
  std::array<std::uint64_t, 4> key(std::uint64_t i) const {
    const VariantSpace& s = sweep->space();
    return {s.axis_index(i, SweepAxis::Scenario), s.axis_index(i, SweepAxis::Algos),
            s.axis_index(i, SweepAxis::QpnBase), s.axis_index(i, SweepAxis::Seeds)};
  }
  double at(std::uint64_t i, SweepMetric m) const { return values[i][static_cast<std::size_t>(m)]; }
};

// The metric of one case from the engine's rows, unscaled; NaN when undefined.
double metric_value(const PublishedExperiment& e, const EngineRun& b, std::uint64_t ib, const EngineRun* t,
                    std::uint64_t it) {
  const SweepMetric busbw = e.at_size != 0 ? SweepMetric::BusbwAt : SweepMetric::BusbwAvg;
  const double slow = b.at(ib, SweepMetric::Slowdown);
  switch (e.metric) {
    case PublishedMetric::FimReduction: {
      const double fim = b.at(ib, SweepMetric::Fim);
      return fim > 0 ? 1 - t->at(it, SweepMetric::Fim) / fim : std::nan("");
    }
    case PublishedMetric::BusbwGain:
      return t->at(it, busbw) / b.at(ib, busbw) - 1;
    case PublishedMetric::Busbw:
      return b.at(ib, busbw);
    case PublishedMetric::EffectiveGbps:
      return slow > 0 ? b.sweep->base().spec().fabric.leaf_spine.host_speed.value / slow : std::nan("");
    case PublishedMetric::CompletionGain: {
      const double tb = slow * b.sweep->base().ideal().value;
      const double tt = t->at(it, SweepMetric::Slowdown) * t->sweep->base().ideal().value;
      return tt > 0 ? tb / tt - 1 : std::nan("");
    }
    case PublishedMetric::IdealGap:
      return slow > 0 ? 1 - 1 / slow : std::nan("");
  }
  return std::nan("");
}


// The cases of one (placement, channels, seed mode): the engine's variants
// of the baseline, each paired with the treatment's variant of the same
// algorithm, QPN base and seed (of the same QPN base when the treatment
// hashes nothing).
void add_cases(PublishedResult& r, const Spec& spec, const AxisValues& v, const ScenarioSpec& base,
               const PlacementValue& p, std::uint32_t channels, SeedMode mode) {
  const PublishedExperiment& e = *r.experiment;
  const bool treatment = published_metric(e.metric).treatment;
  const bool apart = treatment && e.treatment_qps != 0 && e.treatment_qps != e.qps;
  std::vector<std::string> names{std::string(e.baseline)};
  if (treatment && !apart) add_unique(names, std::string(e.treatment));
  const EngineRun b(case_spec(spec, e, v, p, channels, e.qps, mode), engine_axes(e, v, base, names, mode));
  std::optional<EngineRun> own;
  if (apart)
    own.emplace(case_spec(spec, e, v, p, channels, e.treatment_qps, mode),
                engine_axes(e, v, base, {std::string(e.treatment)}, mode));
  const EngineRun* t = !treatment ? nullptr : apart ? &*own : &b;
  const std::uint64_t ts = apart ? 0 : names.size() - 1;
  const bool t_hashes = t != nullptr && t->sweep->space().hashes(ts);
  const SweepSpec& axes = b.sweep->space().axes();
  for (std::uint64_t i = 0; i < b.values.size(); ++i) {
    const auto k = b.key(i);
    if (k[0] != 0) continue;
    std::uint64_t it = 0;
    if (t != nullptr) it = t->row.at({ts, t_hashes ? k[1] : 0, k[2], t_hashes ? k[3] : 0});
    std::vector<std::string> labels;
    for (UnknownAxis a : r.axes)
      labels.push_back(a == UnknownAxis::Placement ? p.label
                       : a == UnknownAxis::QpnBase ? std::to_string(axes.qpn_base->at(k[2]))
                       : a == UnknownAxis::Channels ? std::to_string(channels)
                       : a == UnknownAxis::SeedMode ? std::string(name_of(kSeedModes, mode))
                       : a == UnknownAxis::HashAlgo ? axes.algos[k[1]]
                                                    : std::to_string(axes.seeds->at(k[3])));
    r.cases.push_back({std::move(labels), published_metric(e.metric).scale * metric_value(e, b, i, t, it)});
  }
}

// A busbw metric reads the first job's size table: the config must ask for it.
void check_sizes(const PublishedExperiment& e, const Spec& spec) {
  if (e.metric != PublishedMetric::Busbw && e.metric != PublishedMetric::BusbwGain) return;
  const std::vector<std::uint64_t> sizes = workloads::sweep_sizes(spec.jobs.front().nccl.sweep);
  if (!sizes.empty() && (e.at_size == 0 || std::find(sizes.begin(), sizes.end(), e.at_size) != sizes.end())) return;
  throw InputError({spec.source, 0, 0, {}},
                   "the catalogue's '" + std::string(e.name) + "' needs the first job's size table" +
                       (e.at_size ? " with the size " + std::to_string(e.at_size) : std::string()) +
                       " ([workload] sizes)");
}

}  // namespace

PublishedResult run_published(const PublishedExperiment& e, const Spec& spec) {
  const ScenarioSpec& base = scenario_named(spec, e.baseline, e.name);
  if (published_metric(e.metric).treatment) (void)scenario_named(spec, e.treatment, e.name);
  if (spec.jobs.empty()) throw InputError({spec.source, 0, 0, {}}, "the config has no job");
  check_sizes(e, spec);
  const AxisValues v = axis_values(e, spec, base);
  if (v.qpns.front() + kQpnStep * (kCatalogueQpnBases - 1) >= (1u << 24))
    throw InputError({spec.source, 0, 0, {}}, "qpn_base leaves no room for the catalogue's QP numberings");
  PublishedResult r;
  r.experiment = &e;
  r.config = spec.source;
  for (const auto& a : kUnknownAxes)
    if (e.axes & axis_bit(a.value)) r.axes.push_back(a.value);
  for (const PlacementValue& p : v.placements)
    for (std::uint32_t c : v.channels)
      for (SeedMode mode : v.modes) add_cases(r, spec, v, base, p, c, mode);
  judge(r);
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

}  // namespace ecmpsim::app
