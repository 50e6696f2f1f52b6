// The sweep a request describes, checked before it runs, and the summaries
// of its run (see sweep_setup.h).
#include "sim/app/sweep_setup.h"

#include "sim/base/error.h"
#include "sim/base/parallel.h"
#include "sim/base/parse.h"
#include "sim/config/ranges.h"
#include "sim/model/size_table.h"
#include "sim/routing/flow_label_note.h"
#include "sim/routing/seeds.h"
#include "sim/sweep/sweep_notes.h"

namespace ecmpsim::app {
namespace {

// An option's name among the table's; the command line's check (one_of)
// comes first there, this one for the other front doors.
template <class Table>
auto sweep_name(const Table& table, const std::string& v, const char* key, const char* what) {
  const auto value = parse_name(table, v);
  if (!value) throw InputError(option_at(key), "unknown " + std::string(what) + " '" + v + "'; one of " + quoted_choices(table));
  return *value;
}

// Flags override the config's [sweep] section axis by axis.
SweepSpec axes_from(const SweepRequest& o, SweepSpec s) {
  if (!o.seeds.empty()) s.seeds = parse_range(o.seeds, 0xFFFFFFFFu, option_at("seeds"));
  if (!o.seed_mode.empty()) s.seed_mode = sweep_name(kSeedModes, o.seed_mode, "seed_mode", "seed mode");
  if (!o.sport_base.empty()) s.sport_base = parse_range(o.sport_base, 0xFFFF, option_at("sport_base"));
  if (!o.qpn_base.empty()) s.qpn_base = parse_range(o.qpn_base, 0xFFFFFF, option_at("qpn_base"));
  if (!o.placement_seeds.empty())
    s.placement_seeds = parse_range(o.placement_seeds, ~0ULL >> 1, option_at("placement_seeds"));
  if (!o.qps.empty()) s.qps = parse_uint_list(o.qps, 1, 128, option_at("qps"));
  if (!o.algos.empty()) s.algos = parse_name_list(o.algos, option_at("algos"));
  if (!o.scenario.empty()) s.scenarios = parse_name_list(o.scenario, option_at("scenario"));
  if (o.threshold) s.threshold = o.threshold;
  if (!o.metric.empty()) s.metric = sweep_name(kSweepMetricNames, o.metric, "metric", "metric");
  if (o.no_slowdown) s.slowdown = false;
  if (o.max_variants) s.max_variants = *o.max_variants;
  if (o.busbw_at) s.busbw_at = Bytes{*o.busbw_at};
  if (s.metric == SweepMetric::Slowdown && !s.slowdown)
    throw InputError(option_at(o.no_slowdown ? "no_slowdown" : o.metric_key),
                     "metric slowdown needs the flow model that " +
                         (o.no_slowdown ? option_ref("no_slowdown") : std::string("[sweep] slowdown = false")) +
                         " turns off");
  return s;
}

// busbw_at and busbw_avg price sizes: they need a size table and the flow model.
void check_size_metrics(const SweepRequest& o, const Spec& spec, const SweepSpec& axes, const std::string& path) {
  const bool priced = axes.slowdown && wants_sizes(spec);
  if (priced) return;
  const std::string why = axes.slowdown ? "a size table: give " + option_ref("minbytes") + " and " +
                                              option_ref("maxbytes") + ", or [workload] sizes"
                                        : "the flow model that " + option_ref("no_slowdown") +
                                              " (or [sweep] slowdown = false) turns off";
  if (o.busbw_at) throw InputError(option_at("busbw_at"), "needs " + why);
  if (spec.sweep.busbw_at.value != 0) throw InputError({path, 0, 0, "sweep.busbw_at"}, "needs " + why);
  if (per_size(axes.metric))
    throw InputError(o.metric.empty() ? SourcePos{path, 0, 0, "sweep.metric"} : option_at(o.metric_key),
                     "metric " + std::string(sweep_metric_name(axes.metric)) + " needs " + why);
}

}  // namespace

std::optional<RankSpec> rank_spec_from(const SweepRequest& o, const VariantSpace& space) {
  if (o.rank_by.empty()) {
    if (!o.over.empty())
      throw InputError(option_at("over"), option_ref("over") + " names the nuisance axes of " + option_ref("rank_by") +
                                              "; give " + option_ref("rank_by"));
    return std::nullopt;
  }
  if (o.csv)
    throw InputError(option_at("rank_by"), "CSV holds one row per variant; the ranking is in the table and the JSON");
  RankSpec r;
  r.axis = sweep_name(kSweepAxes, o.rank_by, "rank_by", "axis");
  r.metric = space.axes().metric;
  const std::vector<std::string> over = o.over.empty() ? std::vector<std::string>{} : parse_name_list(o.over, option_at("over"));
  for (const std::string& name : over) {
    const auto a = parse_name(kSweepAxes, name);
    if (!a) throw InputError(option_at("over"), "unknown axis '" + name + "'; the axes are " + quoted_choices(kSweepAxes));
    r.over.push_back(*a);
  }
  return check_rank_spec(space, std::move(r));
}

std::unique_ptr<const Sweep> make_sweep(const SweepRequest& o, Spec spec, const std::string& path) {
  apply_size_flags(spec, o.sizes);
  const SweepSpec axes = axes_from(o, spec.sweep);
  check_size_metrics(o, spec, axes, path);
  const VariantSpace space(spec, axes);
  if (space.size() == ~0ULL) throw InputError(option_at("max_variants"), "the sweep's variant count overflows 64 bits");
  if (space.size() > axes.max_variants && !o.force)
    throw InputError(option_at("max_variants"), "the sweep has " + over_limit(space.size(), "variants", axes.max_variants) +
                                                 "; pass " + option_ref("force") + " to run it");
  auto sweep = std::make_unique<const Sweep>(std::move(spec), axes);
  check_sweep_memory(*sweep, o.threads != 0 ? o.threads : default_threads());
  return sweep;
}

SweepSummaries summarize_sweep(const SweepRequest& o, const Sweep& sweep, const SweepRun& run,
                               const std::optional<RankSpec>& rank) {
  const VariantSpace& space = sweep.space();
  const SweepSpec& axes = space.axes();
  SweepSummaries s;
  s.each = summarize_each(space, run.values, o.bins, axes.threshold, axes.metric);
  // Pooled over different routings, a distribution describes none of them: only on request.
  if (o.pooled || s.each.size() == 1) s.pooled = summarize(run.values, o.bins, axes.threshold, axes.metric);
  s.notes = seed_notes(sweep, run.begin, run.values);
  if (auto note = flow_label_note(sweep.base().spec(), sweep.base().fabric().family(), axes.algos))
    s.notes.push_back(std::move(*note));
  if (rank) {
    s.ranking = rank_sweep(space, run.values, *rank, axes.slowdown);
    for (std::string& note : rank_notes(space, *s.ranking)) s.notes.push_back(std::move(note));
  }
  return s;
}

}  // namespace ecmpsim::app
