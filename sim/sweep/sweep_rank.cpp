#include "sim/sweep/sweep_rank.h"

#include <algorithm>
#include <cmath>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim {
namespace {

std::string axis_name(SweepAxis a) { return std::string(name_of(kSweepAxes, a)); }

// The flag that sweeps axis `a`.
// The option that sweeps axis `a`, as a message names it.
std::string axis_flag(SweepAxis a) {
  std::string key = axis_name(a);
  for (char& c : key) c = c == '-' ? '_' : c;
  return option_ref(key);
}

bool contains(const std::vector<SweepAxis>& v, SweepAxis a) { return std::find(v.begin(), v.end(), a) != v.end(); }

// Scenario and algorithm split a sweep into separately summarized routings.
bool groups_by(SweepAxis a) { return a == SweepAxis::Scenario || a == SweepAxis::Algos; }

RankStats stats_of(std::vector<double>& column) {
  RankStats s;
  double sum = 0;
  for (double x : column) sum += x;  // in variant order: the same sum for any thread count
  s.mean = sum / static_cast<double>(column.size());
  std::sort(column.begin(), column.end());
  s.min = column.front();
  s.max = column.back();
  s.p10 = nearest_rank(column, 10);
  s.p50 = nearest_rank(column, 50);
  s.p90 = nearest_rank(column, 90);
  return s;
}

std::string joined_axes(const std::vector<SweepAxis>& axes) {
  std::string out;
  for (SweepAxis a : axes) out += (out.empty() ? "" : ", ") + axis_name(a);
  return out;
}

}  // namespace

RankSpec check_rank_spec(const VariantSpace& space, RankSpec spec) {
  const SourcePos rank_flag = option_at("rank_by"), over_flag = option_at("over");
  if (space.axis_size(spec.axis) < 2)
    throw InputError(rank_flag, "the sweep has one value on axis " + axis_name(spec.axis) + ": sweep it (" +
                                    axis_flag(spec.axis) + ") to rank it");
  const bool given = !spec.over.empty();
  if (!given)
    for (const auto& row : kSweepAxes)
      if (row.value != spec.axis && !groups_by(row.value) && space.axis_size(row.value) > 1)
        spec.over.push_back(row.value);
  if (spec.over.empty())
    throw InputError(over_flag, "nothing to rank " + axis_name(spec.axis) +
                                    " over: sweep an axis the operator cannot know, e.g. " + option_ref("qpn_base") + " A:B, and name it with " +
                                    option_ref("over"));
  for (std::size_t i = 0; i < spec.over.size(); ++i) {
    const SweepAxis a = spec.over[i];
    if (a == spec.axis) throw InputError(over_flag, axis_name(a) + " is the ranked axis (" + option_ref("rank_by") + "), not a nuisance one");
    if (std::find(spec.over.begin(), spec.over.begin() + static_cast<std::ptrdiff_t>(i), a) !=
        spec.over.begin() + static_cast<std::ptrdiff_t>(i))
      throw InputError(over_flag, axis_name(a) + " is named twice");
    if (space.axis_size(a) < 2)
      throw InputError(over_flag, "axis " + axis_name(a) + " has one value: sweep it (" + axis_flag(a) +
                                      ") to rank over it");
  }
  for (const auto& row : kSweepAxes)
    if (row.value != spec.axis && !contains(spec.over, row.value) && !groups_by(row.value) &&
        space.axis_size(row.value) > 1)
      throw InputError(over_flag, "axis " + axis_name(row.value) + " has " + std::to_string(space.axis_size(row.value)) +
                                      " values but is neither ranked nor in " + option_ref("over") + " (" + joined_axes(spec.over) +
                                      "): add it to " + option_ref("over"));
  // Nuisance axes in table order, whatever order they were named in.
  std::sort(spec.over.begin(), spec.over.end());
  return spec;
}

SweepRanking rank_sweep(const VariantSpace& space, ValueView values, const RankSpec& spec, bool predicted) {
  SweepRanking out;
  out.spec = spec;
  out.metrics.push_back(spec.metric);
  for (SweepMetric m : {SweepMetric::Fim, SweepMetric::Slowdown})
    if (m != spec.metric && (m != SweepMetric::Slowdown || predicted)) out.metrics.push_back(m);
  // A group is a (scenario, algorithm) unless one of them is ranked or nuisance.
  auto group_of = [&](std::uint64_t i) {
    std::uint64_t g = 0;
    for (SweepAxis a : {SweepAxis::Scenario, SweepAxis::Algos})
      g = g * space.axis_size(a) +
          (a == spec.axis || contains(spec.over, a) ? 0 : space.axis_index(i, a));
    return g;
  };
  const std::uint64_t values_per = space.axis_size(spec.axis);
  const std::uint64_t groups = space.axis_size(SweepAxis::Scenario) * space.axis_size(SweepAxis::Algos);
  // Counting sort of the variants by (group, ranked value), keeping variant order within each.
  std::vector<std::uint64_t> begin(groups * values_per + 1, 0), first(groups, ~0ULL);
  for (std::uint64_t i = 0; i < values.size(); ++i) {
    const std::uint64_t g = group_of(i);
    first[g] = std::min(first[g], i);
    ++begin[g * values_per + space.axis_index(i, spec.axis) + 1];
  }
  for (std::size_t b = 1; b < begin.size(); ++b) begin[b] += begin[b - 1];
  std::vector<std::uint64_t> order(values.size()), next(begin.begin(), begin.end() - 1);
  for (std::uint64_t i = 0; i < values.size(); ++i)
    order[next[group_of(i) * values_per + space.axis_index(i, spec.axis)]++] = i;
  std::vector<double> column;
  for (std::uint64_t g = 0; g < groups; ++g) {
    if (first[g] == ~0ULL) continue;
    RankGroup group;
    group.first = first[g];
    for (std::uint64_t v = 0; v < values_per; ++v) {
      const std::uint64_t lo = begin[g * values_per + v], hi = begin[g * values_per + v + 1];
      if (lo == hi) continue;
      RankedValue rv{v, hi - lo, {}};
      for (SweepMetric m : out.metrics) {
        column.clear();
        for (std::uint64_t k = lo; k < hi; ++k) column.push_back(values[order[k]][static_cast<std::size_t>(m)]);
        rv.stats.push_back(stats_of(column));
      }
      group.ranked.push_back(std::move(rv));
    }
    const bool higher = higher_is_better(spec.metric);
    std::stable_sort(group.ranked.begin(), group.ranked.end(), [&](const RankedValue& a, const RankedValue& b) {
      return higher ? a.stats[0].mean > b.stats[0].mean : a.stats[0].mean < b.stats[0].mean;
    });
    double range_sum = 0;
    for (const RankedValue& rv : group.ranked) range_sum += rv.stats[0].p90 - rv.stats[0].p10;
    group.spread = range_sum / static_cast<double>(group.ranked.size());
    group.gap = std::abs(group.ranked.front().stats[0].mean - group.ranked.back().stats[0].mean);
    // Nothing moved at all (gap and spread 0) is no noise to warn about: the seed notes explain a flat axis.
    group.within_spread = group.ranked.size() >= 2 && group.gap <= group.spread && group.spread > 0;
    out.groups.push_back(std::move(group));
  }
  return out;
}

std::string axis_value_text(const VariantSpace& space, SweepAxis axis, std::uint64_t i) {
  const SweepSpec& a = space.axes();
  switch (axis) {
    case SweepAxis::Scenario: return "scenario '" + space.scenarios()[i] + "'";
    case SweepAxis::Algos: return a.algos.empty() ? "the config's algorithm" : a.algos[i];
    case SweepAxis::PlacementSeeds:
      return "placement seed " + (a.placement_seeds ? std::to_string(a.placement_seeds->at(i)) : "-");
    case SweepAxis::Qps: return (a.qps.empty() ? std::string("-") : std::to_string(a.qps[i])) + " QPs";
    case SweepAxis::QpnBase: return "qpn-base " + (a.qpn_base ? std::to_string(a.qpn_base->at(i)) : "-");
    case SweepAxis::SportBase: return "sport-base " + (a.sport_base ? std::to_string(a.sport_base->at(i)) : "-");
    case SweepAxis::Seeds: return "seed " + (a.seeds ? std::to_string(a.seeds->at(i)) : "-");
  }
  return {};
}

std::vector<std::string> rank_notes(const VariantSpace& space, const SweepRanking& r) {
  std::vector<std::string> notes;
  const std::string metric(sweep_metric_name(r.spec.metric));
  for (const RankGroup& g : r.groups) {
    if (!g.within_spread) continue;
    const Overrides o = space.at(g.first);
    auto fixed_axis = [&](SweepAxis a) { return a != r.spec.axis && !contains(r.spec.over, a); };
    const RankedValue& best = g.ranked.front();
    const RankedValue& worst = g.ranked.back();
    std::string where;
    if (fixed_axis(SweepAxis::Scenario)) where += " for scenario '" + *o.scenario + "'";
    if (fixed_axis(SweepAxis::Algos) && o.algo) where += " with " + *o.algo;
    notes.push_back(
        "ranking " + axis_name(r.spec.axis) + " by mean " + metric + where + " is within the noise: the best (" +
        axis_value_text(space, r.spec.axis, best.value) + ", mean " + fixed(best.stats[0].mean, 4) +
        ") and the worst (" + axis_value_text(space, r.spec.axis, worst.value) + ", mean " +
        fixed(worst.stats[0].mean, 4) + ") differ by " + fixed(g.gap, 4) + ", no more than the spread of " +
        metric + " over " + joined_axes(r.spec.over) + " (" + fixed(g.spread, 4) + ", the mean over the " +
        std::to_string(g.ranked.size()) + " ranked values of each one's p90 - p10): what the operator cannot know "
        "moves " + metric + " more than the choice of " + axis_name(r.spec.axis) + " does.");
  }
  return notes;
}

}  // namespace ecmpsim
