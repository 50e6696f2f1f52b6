#include "sim/report/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/report/reproduce.h"
#include "sim/report/unknown_values.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim {
namespace {

constexpr std::uint64_t kMaxSeeds = 100;
constexpr std::uint32_t kSensitivityQpnBases = 8;
constexpr double kNear = 0.05;  // "within 5 points of 30%"

struct PlacementCase {
  std::string label;
  std::optional<workloads::Placement> kind;  // nullopt: the config's own
  std::uint64_t seed = 0;
};

std::string placement_label(const JobSpec& j) {
  std::string label(workloads::placement_name(j.placement));
  if (j.placement == workloads::Placement::Random) label += ":" + std::to_string(j.seed);
  return label;
}

std::vector<PlacementCase> placements(const Spec& spec) {
  std::vector<PlacementCase> out{{placement_label(spec.jobs.front()), std::nullopt, 0}};
  auto add = [&](workloads::Placement p, std::uint64_t seed) {
    std::string label(workloads::placement_name(p));
    if (p == workloads::Placement::Random) label += ":" + std::to_string(seed);
    for (const PlacementCase& c : out)
      if (c.label == label) return;
    out.push_back({label, p, seed});
  };
  add(workloads::Placement::Contiguous, 0);
  add(workloads::Placement::Strided, 0);
  for (std::uint64_t s = 0; s < 4; ++s) add(workloads::Placement::Random, s);
  return out;
}

// The spec of one workload case: every job placed, channelled and numbered alike.
Spec case_spec(const Spec& spec, const PlacementCase& p, std::uint32_t channels, std::uint32_t qpn_base) {
  Spec s = spec;
  for (JobSpec& j : s.jobs) {
    if (p.kind) {
      j.placement = *p.kind;
      j.seed = p.seed;
    }
    if (channels != spec.jobs.front().channels) {
      j.channels = channels;
      j.search_channels = 0;
    }
    j.roce.qpn_base = qpn_base;
  }
  return s;
}

// Per swept algorithm (in `algos` order), the mean FIM of `scenario` over `seeds`.
std::vector<double> ecmp_means(const Spec& s, const ScenarioSpec& ecmp, const std::vector<std::string>& algos,
                               UintRange seeds, unsigned threads) {
  SweepSpec axes;
  axes.scenarios = {ecmp.name};
  axes.algos = algos;
  axes.seeds = seeds;
  axes.seed_mode = ecmp.hash.seed_mode;
  axes.slowdown = false;
  const Sweep sweep(s, axes);
  const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), threads);
  std::vector<double> out;
  const std::uint64_t n = seeds.size();
  for (std::size_t a = 0; a < algos.size(); ++a) {
    double sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) sum += run.values[a * n + i][static_cast<std::size_t>(SweepMetric::Fim)];
    out.push_back(sum / static_cast<double>(n));
  }
  return out;
}

double static_fim(const Spec& s, const ScenarioSpec& stat) {
  SweepSpec axes;
  axes.scenarios = {stat.name};
  axes.slowdown = false;
  const Sweep sweep(s, axes);
  return run_sweep(sweep, 0, 1, 1).values[0][static_cast<std::size_t>(SweepMetric::Fim)];
}

// Per value of one assumption (`key` of a case), the range of the defined reductions.
template <class Key>
void add_ranges(Sensitivity& out, const std::string& assumption, const std::vector<std::string>& values, Key key) {
  for (const std::string& v : values) {
    AssumptionRange r{assumption, v, v == values.front(), 0, 0, 0, false};
    for (const SensitivityCase& c : out.cases) {
      if (key(c) != v || std::isnan(c.reduction)) continue;
      r.min = r.cases == 0 ? c.reduction : std::min(r.min, c.reduction);
      r.max = r.cases == 0 ? c.reduction : std::max(r.max, c.reduction);
      ++r.cases;
    }
    r.paper_inside = r.cases > 0 && r.min <= kPaperReduction && kPaperReduction <= r.max;
    out.by_value.push_back(std::move(r));
  }
}

std::string verdict(const Sensitivity& s, std::uint64_t defined) {
  const std::string range =
      format_percent(s.min) + " to " + format_percent(s.max) + " over " + std::to_string(defined) + " cases";
  const std::string own = "; the config's own assumptions give " + format_percent(s.config_reduction) + ".";
  if (defined == 0) return "undetermined: ECMP's mean FIM is 0 in every case, so no reduction is defined.";
  if (s.max < kPaperReduction)
    return "not reproduced: no combination of the assumptions reaches the paper's 30% (reductions " + range + ")" + own;
  if (s.min > kPaperReduction)
    return "not reproduced: every combination of the assumptions reduces FIM by more than the paper's 30% "
           "(reductions " + range + ")" + own;
  // Per assumption: "any X" when every value holds 30% inside its range, else the values that do.
  std::string only, any;
  for (std::size_t i = 0; i < s.by_value.size();) {
    std::size_t j = i;
    std::string values;
    std::size_t inside = 0;
    for (; j < s.by_value.size() && s.by_value[j].assumption == s.by_value[i].assumption; ++j)
      if (s.by_value[j].paper_inside) values += (inside++ == 0 ? "" : " or ") + s.by_value[j].value;
    const std::string& name = s.by_value[i].assumption;
    if (inside == j - i)
      any += (any.empty() ? "" : ", ") + name;
    else
      only += (only.empty() ? "" : "; ") + name + " " + values;
    i = j;
  }
  const std::string near = std::to_string(s.near_paper) + " of " + std::to_string(defined) +
                           " cases within 5 points of 30%";
  if (only.empty())
    return "consistent but not pinned down: 30% lies inside the range whatever each assumption is (reductions " +
           range + "; " + near + ")" + own;
  return "depends on the assumptions: reductions " + range + "; 30% lies inside the range only with " + only +
         (any.empty() ? std::string() : " (any " + any + ")") + "; " + near + own;
}

std::string case_text(const SensitivityCase& c) {
  return pad_left(format_percent(c.reduction), 9) + "  placement " + c.placement + ", " + c.algo + ", " +
         std::to_string(c.channels) + " channels, qpn_base " + std::to_string(c.qpn_base) + " (ECMP mean FIM " +
         fixed(c.ecmp_fim, 4) + ", static " + fixed(c.static_fim, 4) + ")";
}

}  // namespace

Sensitivity sensitivity(const Spec& spec, const ScenarioSpec& ecmp, const ScenarioSpec& stat, UintRange seeds,
                        double config_reduction, unsigned threads) {
  Sensitivity out;
  out.seeds = seeds;
  if (seeds.size() > kMaxSeeds) out.seeds.end = seeds.first + kMaxSeeds * seeds.step;
  out.config_reduction = config_reduction;
  const JobSpec& job = spec.jobs.front();
  std::vector<std::string> algos{ecmp.hash.algo};
  for (std::string_view a : kUnknownAlgos) add_unique(algos, std::string(a));
  const std::vector<std::uint32_t> channels = channel_counts(job.channels);
  const std::vector<std::uint32_t> qpns = qpn_bases(job.roce.qpn_base, kSensitivityQpnBases);
  const std::vector<PlacementCase> places = placements(spec);
  for (const PlacementCase& p : places)
    for (std::uint32_t c : channels)
      for (std::uint32_t q : qpns) {
        try {
          const Spec s = case_spec(spec, p, c, q);
          const double st = static_fim(s, stat);
          const std::vector<double> means = ecmp_means(s, ecmp, algos, out.seeds, threads);
          for (std::size_t a = 0; a < algos.size(); ++a)
            out.cases.push_back({p.label, algos[a], c, q, means[a], st,
                                 means[a] > 0 ? 1 - st / means[a] : std::nan("")});
        } catch (const InputError& e) {
          out.skipped.push_back("placement " + p.label + ", " + std::to_string(c) + " channels, qpn-base " +
                                std::to_string(q) + ": " + e.what());
        }
      }
  std::uint64_t defined = 0;
  for (const SensitivityCase& c : out.cases) {
    if (std::isnan(c.reduction)) {
      ++out.undefined;
      continue;
    }
    out.min = defined == 0 ? c.reduction : std::min(out.min, c.reduction);
    out.max = defined == 0 ? c.reduction : std::max(out.max, c.reduction);
    out.near_paper += std::abs(c.reduction - kPaperReduction) <= kNear;
    ++defined;
  }
  out.paper_inside = defined > 0 && out.min <= kPaperReduction && kPaperReduction <= out.max;
  std::vector<std::string> place_labels, channel_labels, qpn_labels;
  for (const PlacementCase& p : places) place_labels.push_back(p.label);
  for (std::uint32_t c : channels) channel_labels.push_back(std::to_string(c));
  for (std::uint32_t q : qpns) qpn_labels.push_back(std::to_string(q));
  // The config's value comes first in every list.
  add_ranges(out, "placement", place_labels, [](const SensitivityCase& c) { return c.placement; });
  add_ranges(out, "hash", algos, [](const SensitivityCase& c) { return c.algo; });
  add_ranges(out, "channels", channel_labels, [](const SensitivityCase& c) { return std::to_string(c.channels); });
  add_ranges(out, "qpn_base", qpn_labels, [](const SensitivityCase& c) { return std::to_string(c.qpn_base); });
  for (std::size_t i = 0; i < out.cases.size(); ++i)
    if (!std::isnan(out.cases[i].reduction)) out.closest.push_back(i);
  auto distance = [&](std::size_t i) { return std::abs(out.cases[i].reduction - kPaperReduction); };
  std::stable_sort(out.closest.begin(), out.closest.end(),
                   [&](std::size_t a, std::size_t b) { return distance(a) < distance(b); });
  out.closest.resize(std::min<std::size_t>(out.closest.size(), 5));
  out.verdict = verdict(out, defined);
  return out;
}

std::string sensitivity_table(const Sensitivity& s) {
  std::string out = "\nsensitivity: the reduction under other assumptions the paper does not state\n";
  out += "(every combination of placement x hash x channels x first QP number, every job alike; reduction vs the "
         "ECMP mean over seeds " + format_range(s.seeds) + ")\n\n";
  out += pad_right("assumption", 12) + pad_right("value", 16) + pad_left("cases", 7) + pad_left("min", 10) +
         pad_left("max", 10) + "   30% inside\n";
  out += std::string(70, '-') + "\n";
  for (const AssumptionRange& r : s.by_value)
    out += pad_right(r.assumption, 12) + pad_right(r.value + (r.config ? " *" : ""), 16) +
           pad_left(std::to_string(r.cases), 7) + pad_left(r.cases ? format_percent(r.min) : "-", 10) +
           pad_left(r.cases ? format_percent(r.max) : "-", 10) + "   " + (r.paper_inside ? "yes" : "no") + "\n";
  out += std::string(70, '-') + "\n";
  out += pad_right("all", 28) + pad_left(std::to_string(s.cases.size() - s.undefined), 7) + pad_left(format_percent(s.min), 10) +
         pad_left(format_percent(s.max), 10) + "   " + (s.paper_inside ? "yes" : "no") + "\n";
  out += "(* the config's value; a value's range is over every case with it, the other assumptions varied)\n";
  if (s.undefined > 0)
    out += std::to_string(s.undefined) + " case(s) left out: ECMP's mean FIM is 0 there, no reduction is defined\n";
  for (const std::string& why : s.skipped) out += "skipped: " + why + "\n";
  if (!s.closest.empty()) out += "\nthe cases closest to 30%:\n";
  for (std::size_t i : s.closest) out += "  " + case_text(s.cases[i]) + "\n";
  return out + "\nverdict: " + s.verdict + "\n";
}

Json sensitivity_json(const Sensitivity& s) {
  Json by_value = Json::array();
  for (const AssumptionRange& r : s.by_value) {
    Json one{{"assumption", r.assumption}, {"value", r.value}, {"config", r.config}, {"cases", r.cases}};
    one["min"] = r.cases ? Json(r.min) : Json(nullptr);
    one["max"] = r.cases ? Json(r.max) : Json(nullptr);
    one["paper_inside"] = r.paper_inside;
    by_value.push_back(std::move(one));
  }
  Json cases = Json::array();
  for (const SensitivityCase& c : s.cases)
    cases.push_back({{"placement", c.placement},
                     {"hash", c.algo},
                     {"channels", c.channels},
                     {"qpn_base", c.qpn_base},
                     {"ecmp_fim_mean", c.ecmp_fim},
                     {"static_fim", c.static_fim},
                     {"reduction", std::isnan(c.reduction) ? Json(nullptr) : Json(c.reduction)}});
  const bool any = s.cases.size() > s.undefined;
  Json closest = Json::array();
  for (std::size_t i : s.closest) closest.push_back(cases[i]);
  return {{"seeds", format_range(s.seeds)},
          {"paper_reduction", kPaperReduction},
          {"config_reduction", std::isnan(s.config_reduction) ? Json(nullptr) : Json(s.config_reduction)},
          {"min", any ? Json(s.min) : Json(nullptr)},
          {"max", any ? Json(s.max) : Json(nullptr)},
          {"paper_inside", s.paper_inside},
          {"near_paper", s.near_paper},
          {"undefined", s.undefined},
          {"skipped", s.skipped},
          {"by_value", std::move(by_value)},
          {"closest", std::move(closest)},
          {"cases", std::move(cases)},
          {"verdict", s.verdict}};
}

}  // namespace ecmpsim
