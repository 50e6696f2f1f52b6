#include "sim/sweep/sweep.h"

#include <algorithm>

#include "hashing/suggest.h"
#include "sim/config/overrides.h"
#include "hashing/hasher.h"
#include "sim/base/parallel.h"
#include "sim/sweep/sweep_notes.h"

namespace ecmpsim {
namespace {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? ~0ULL : r;
}

std::uint64_t axis_size(const std::optional<UintRange>& r) { return r ? r->size() : 1; }

}  // namespace

VariantSpace::VariantSpace(const Spec& spec, const SweepSpec& axes) : axes_(axes) {
  if (axes.scenarios.empty()) {
    for (const auto& s : spec.scenarios)
      if (s.routing == RoutingKind::Ecmp) scenarios_.push_back(s.name);
    if (scenarios_.empty() && !spec.scenarios.empty()) scenarios_.push_back(spec.scenarios.front().name);
  } else {
    for (const auto& name : axes.scenarios) {
      const bool known = std::any_of(spec.scenarios.begin(), spec.scenarios.end(),
                                     [&](const ScenarioSpec& s) { return s.name == name; });
      if (!known) throw InputError({{}, 0, 0, "--scenario"}, no_scenario_named(spec, name));
      if (std::find(scenarios_.begin(), scenarios_.end(), name) == scenarios_.end()) scenarios_.push_back(name);
    }
  }
  for (auto& a : axes_.algos) {
    const hashing::Algorithm* algo = hashing::find(a);
    if (!algo) throw InputError({{}, 0, 0, "--algos"}, unknown_algorithm(a));
    a = std::string(algo->name);  // SAI names print as the catalogue's
  }
  algos_ = std::max<std::uint64_t>(1, axes.algos.size());
  placements_ = axis_size(axes.placement_seeds);
  qps_ = std::max<std::uint64_t>(1, axes.qps.size());
  qpn_ = axis_size(axes.qpn_base);
  sport_ = axis_size(axes.sport_base);
  seeds_ = axis_size(axes.seeds);
  size_ = scenarios_.size();
  for (std::uint64_t n : {algos_, placements_, qps_, qpn_, sport_, seeds_}) size_ = saturating_mul(size_, n);
}

VariantSpace::Coord VariantSpace::coord(std::uint64_t index) const noexcept {
  const std::uint64_t workloads = placements_ * qps_ * qpn_ * sport_;
  const std::uint64_t rest = index / seeds_;
  return {rest / workloads, rest % workloads, index % seeds_};
}

Overrides VariantSpace::at(std::uint64_t index) const {
  auto take = [&](std::uint64_t n) {
    const std::uint64_t i = index % n;
    index /= n;
    return i;
  };
  const std::uint64_t seed = take(seeds_), sport = take(sport_), qpn = take(qpn_), qps = take(qps_),
                      placement = take(placements_), algo = take(algos_), scenario = index;
  Overrides o;
  o.scenario = scenarios_[scenario];
  if (!axes_.algos.empty()) o.algo = axes_.algos[algo];
  if (axes_.seeds) {
    o.seed = static_cast<std::uint32_t>(axes_.seeds->at(seed));
    o.seed_mode = axes_.seed_mode;
  }
  if (axes_.placement_seeds) o.placement_seed = axes_.placement_seeds->at(placement);
  if (!axes_.qps.empty()) o.qps = axes_.qps[qps];
  if (axes_.qpn_base) o.qpn_base = static_cast<std::uint32_t>(axes_.qpn_base->at(qpn));
  if (axes_.sport_base) o.sport_base = static_cast<std::uint32_t>(axes_.sport_base->at(sport));
  return o;
}

Sweep::Sweep(Spec spec, const SweepSpec& axes) : spec_(std::move(spec)), space_(spec_, axes) {
  base_ = std::make_unique<Simulation>(spec_);
  // One plan per (scenario, algorithm): variant combo c is the first index of that combo.
  const std::uint64_t per_combo = space_.size() / std::max<std::uint64_t>(1, space_.combos());
  for (std::uint64_t c = 0; c < space_.combos(); ++c) {
    Overrides o = space_.at(c * per_combo);
    Spec s = spec_;
    o.seed.reset();
    apply_overrides(s, o);
    plans_.push_back(std::make_unique<SweepPlan>(*base_, s.scenarios.front(), axes.seeds.has_value(), axes.seed_mode,
                                                 axes.slowdown));
  }
}

workloads::Flows Sweep::flows_of(std::uint64_t index) const {
  Spec s = spec_;
  s.scenarios.clear();
  Overrides o = space_.at(index);
  o.scenario.reset();
  o.algo.reset();
  apply_overrides(s, o);
  return generate_flows(s, base_->fabric());
}

SweepRun run_sweep(const Sweep& sweep, std::uint64_t begin, std::uint64_t end, unsigned threads,
                   SweepControl* control) {
  SweepRun run;
  run.values = ValueTable(sweep.base().jobs().size());
  run.begin = begin;
  const std::uint64_t n = end > begin ? end - begin : 0;
  threads = std::max(1u, threads);
  run.values.resize(n);
  const auto& seeds = sweep.space().axes().seeds;

  struct Local {
    SweepWorker worker;
    bool loaded = false;
    VariantSpace::Coord at;
  };
  std::vector<Local> locals(threads);
  auto stopped = [&] { return control != nullptr && control->stop.load(std::memory_order_relaxed); };
  const auto body = [&](unsigned thread, std::uint64_t lo, std::uint64_t hi) {
    Local& local = locals[thread];
    // Progress is counted 64 times a chunk, so it moves while a long chunk runs.
    const std::uint64_t report_every = std::max<std::uint64_t>(1, (hi - lo) / 64);
    std::uint64_t unreported = 0;
    std::uint64_t i = lo;
    for (; i < hi && !stopped(); ++i) {
      const std::uint64_t index = begin + i;
      const VariantSpace::Coord c = sweep.space().coord(index);
      if (!local.loaded || c.combo != local.at.combo || c.workload != local.at.workload) {
        local.worker.load(sweep.plan(c.combo), sweep.flows_of(index));
        local.loaded = true;
        local.at = c;
      }
      const auto seed = seeds ? static_cast<std::uint32_t>(seeds->at(c.seed)) : 0u;
      local.worker.evaluate(seed, run.values[i]);
      if (control != nullptr && ++unreported == report_every) {
        control->finished.fetch_add(unreported, std::memory_order_relaxed);
        unreported = 0;
      }
    }
    if (control != nullptr) control->finished.fetch_add(unreported, std::memory_order_relaxed);
    return i - lo;
  };
  run.done = for_each_timed_chunk(threads, n, body, control != nullptr ? control->chunk_target : kChunkTarget);
  run.interrupted = run.done < n;
  run.values.resize(run.done);
  for (const Local& l : locals) run.decisions += l.worker.decisions();
  return run;
}

std::vector<double> SeedSweep::column(SweepMetric m) const {
  std::vector<double> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = values[i][static_cast<std::size_t>(m)];
  return out;
}

std::vector<SweepSummary> summarize_each(const VariantSpace& space, ValueView values, unsigned bins,
                                         std::optional<double> threshold, SweepMetric metric) {
  // Combinations are the outermost axes: each is one run of consecutive indices.
  std::vector<SweepSummary> out;
  if (space.combos() == 0) return out;
  const std::uint64_t per_combo = space.size() / space.combos();
  for (std::uint64_t c = 0; c < space.combos(); ++c) {
    const std::uint64_t first = c * per_combo;
    SweepSummary s = summarize(values.sub(first, per_combo), bins, threshold, metric);
    s.best += first;
    s.worst += first;
    out.push_back(std::move(s));
  }
  return out;
}

SeedSweep sweep_seeds(const Spec& spec, const ScenarioSpec& scenario, UintRange seeds, unsigned threads,
                      unsigned bins) {
  SweepSpec axes;
  axes.scenarios = {scenario.name};
  axes.seeds = seeds;
  axes.seed_mode = scenario.hash.seed_mode;
  const Sweep sweep(spec, axes);
  SeedSweep out{scenario.name, seeds, run_sweep(sweep, 0, sweep.space().size(), threads).values, {}, {}};
  out.summary = summarize(out.values, bins, std::nullopt, SweepMetric::Fim);
  out.notes = seed_notes(sweep, 0, out.values);
  return out;
}

}  // namespace ecmpsim
