#include "sim/output/rank_output.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {
namespace {

// Tables longer than this print the best and the worst kShownEnds values.
constexpr std::size_t kShownAll = 20, kShownEnds = 10;

std::string axis_name(SweepAxis a) { return std::string(name_of(kSweepAxes, a)); }

// Value i of the ranked axis: a number, or the scenario's or algorithm's name.
Json axis_value(const VariantSpace& space, SweepAxis axis, std::uint64_t i) {
  const SweepSpec& a = space.axes();
  switch (axis) {
    case SweepAxis::Scenario: return space.scenarios()[i];
    case SweepAxis::Algos: return a.algos[i];
    case SweepAxis::PlacementSeeds: return a.placement_seeds->at(i);
    case SweepAxis::Qps: return a.qps[i];
    case SweepAxis::QpnBase: return a.qpn_base->at(i);
    case SweepAxis::SportBase: return a.sport_base->at(i);
    case SweepAxis::Seeds: return a.seeds->at(i);
  }
  return nullptr;
}

std::string value_text(const VariantSpace& space, SweepAxis axis, std::uint64_t i) {
  const Json v = axis_value(space, axis, i);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// What the group holds fixed: its scenario and algorithm, unless ranked or nuisance.
Json group_keys(const VariantSpace& space, const SweepRanking& r, const RankGroup& g) {
  const Overrides o = space.at(g.first);
  auto fixed_axis = [&](SweepAxis a) {
    return a != r.spec.axis && std::find(r.spec.over.begin(), r.spec.over.end(), a) == r.spec.over.end();
  };
  Json j = Json::object();
  if (fixed_axis(SweepAxis::Scenario)) j["scenario"] = *o.scenario;
  if (fixed_axis(SweepAxis::Algos) && o.algo) j["algo"] = *o.algo;
  return j;
}

std::string group_title(const VariantSpace& space, const SweepRanking& r, const RankGroup& g) {
  std::string over;
  for (SweepAxis a : r.spec.over) over += (over.empty() ? "" : " x ") + axis_name(a);
  std::string title = axis_name(r.spec.axis) + " ranked by mean " + std::string(sweep_metric_name(r.spec.metric)) +
                      " over " + over;
  const Json keys = group_keys(space, r, g);
  if (keys.contains("scenario")) title += ": scenario '" + keys["scenario"].get<std::string>() + "'";
  if (keys.contains("algo")) title += ", algorithm " + keys["algo"].get<std::string>();
  return title;
}

std::string ranked_rows(const VariantSpace& space, const SweepRanking& r, const RankGroup& g) {
  std::size_t w = axis_name(r.spec.axis).size();
  for (const RankedValue& v : g.ranked) w = std::max(w, value_text(space, r.spec.axis, v.value).size());
  // Each metric's six columns, the first 12 wide after the first metric to set them apart.
  auto width = [](std::size_t k, std::size_t col) -> std::size_t { return k > 0 && col == 0 ? 12 : 10; };
  std::string out = pad_left("", 6 + 2 + w + 8);
  for (std::size_t k = 0; k < r.metrics.size(); ++k)
    out += pad_left(std::string(sweep_metric_name(r.metrics[k])), width(k, 0)) + std::string(50, ' ');
  out.erase(out.find_last_not_of(' ') + 1);
  out += "\n" + pad_left("rank", 6) + "  " + pad_right(axis_name(r.spec.axis), w) + pad_left("samples", 8);
  for (std::size_t k = 0; k < r.metrics.size(); ++k) {
    std::size_t col = 0;
    for (const char* h : {"mean", "p10", "p50", "p90", "min", "max"}) out += pad_left(h, width(k, col++));
  }
  out += "\n";
  const std::size_t n = g.ranked.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (n > kShownAll && i == kShownEnds) {
      out += pad_left("", 8) + "... " + std::to_string(n - 2 * kShownEnds) + " more\n";
      i = n - kShownEnds;
    }
    const RankedValue& v = g.ranked[i];
    out += pad_left(std::to_string(i + 1), 6) + "  " + pad_right(value_text(space, r.spec.axis, v.value), w) +
           pad_left(std::to_string(v.samples), 8);
    for (std::size_t k = 0; k < v.stats.size(); ++k) {
      const RankStats& s = v.stats[k];
      out += pad_left(fixed(s.mean, 4), width(k, 0));
      for (double x : {s.p10, s.p50, s.p90, s.min, s.max}) out += pad_left(fixed(x, 4), 10);
    }
    out += "\n";
  }
  return out;
}

}  // namespace

Json ranking_json(const VariantSpace& space, const SweepRanking& r) {
  Json over = Json::array();
  for (SweepAxis a : r.spec.over) over.push_back(axis_name(a));
  Json groups = Json::array();
  for (const RankGroup& g : r.groups) {
    Json one = group_keys(space, r, g);
    one["gap"] = g.gap;
    one["spread"] = g.spread;
    one["within_spread"] = g.within_spread;
    Json ranked = Json::array();
    for (std::size_t i = 0; i < g.ranked.size(); ++i) {
      const RankedValue& v = g.ranked[i];
      Json metrics;
      for (std::size_t k = 0; k < r.metrics.size(); ++k) {
        const RankStats& s = v.stats[k];
        metrics[std::string(sweep_metric_name(r.metrics[k]))] = {
            {"mean", s.mean}, {"p10", s.p10}, {"p50", s.p50}, {"p90", s.p90}, {"min", s.min}, {"max", s.max}};
      }
      ranked.push_back({{"rank", i + 1},
                        {"value", axis_value(space, r.spec.axis, v.value)},
                        {"samples", v.samples},
                        {"metrics", std::move(metrics)}});
    }
    one["ranked"] = std::move(ranked);
    groups.push_back(std::move(one));
  }
  return {{"rank_by", axis_name(r.spec.axis)},
          {"over", std::move(over)},
          {"metric", sweep_metric_name(r.spec.metric)},
          {"spread", "mean over the ranked values of each value's p90 - p10 of the metric"},
          {"groups", std::move(groups)}};
}

std::string ranking_text(const VariantSpace& space, const SweepRanking& r) {
  std::string out;
  const std::string metric(sweep_metric_name(r.spec.metric));
  for (const RankGroup& g : r.groups) {
    const std::string title = group_title(space, r, g);
    out += "\n" + title + "\n" + std::string(title.size(), '=') + "\n" + ranked_rows(space, r, g);
    out += "best-vs-worst gap of the mean " + metric + " " + fixed(g.gap, 4) + "; spread over the nuisance axes " +
           fixed(g.spread, 4) + " (the mean over " + std::to_string(g.ranked.size()) + " values of p90 - p10): " +
           (g.ranked.size() < 2                 ? "one value, nothing to rank"
            : g.within_spread                   ? "WITHIN the spread, the ranking is noise (see the note)"
            : g.spread == 0 && g.gap == 0       ? "every value and every nuisance combination gave the same"
                                                : "the gap exceeds the spread") +
           "\n";
  }
  return out;
}

}  // namespace ecmpsim
