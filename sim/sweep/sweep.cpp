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

std::uint64_t range_size(const std::optional<UintRange>& r) { return r ? r->size() : 1; }

}  // namespace

VariantSpace::VariantSpace(const Spec& spec, const SweepSpec& axes) : axes_(axes) {
  if (axes.scenarios.empty()) {
    for (const auto& s : spec.scenarios)
      if (routing_mode(s.routing).hashes) scenarios_.push_back(s.name);
    if (scenarios_.empty() && !spec.scenarios.empty()) scenarios_.push_back(spec.scenarios.front().name);
  } else {
    for (const auto& name : axes.scenarios) {
      const bool known = std::any_of(spec.scenarios.begin(), spec.scenarios.end(),
                                     [&](const ScenarioSpec& s) { return s.name == name; });
      if (!known) throw InputError(option_at("scenario"), no_scenario_named(spec, name));
      if (std::find(scenarios_.begin(), scenarios_.end(), name) == scenarios_.end()) scenarios_.push_back(name);
    }
  }
  for (auto& a : axes_.algos) {
    const hashing::Algorithm* algo = hashing::find(a);
    if (!algo) throw InputError(option_at("algos"), unknown_algorithm(a));
    a = std::string(algo->name);  // SAI names print as the catalogue's
  }
  algos_ = std::max<std::uint64_t>(1, axes.algos.size());
  placements_ = range_size(axes.placement_seeds);
  qps_ = std::max<std::uint64_t>(1, axes.qps.size());
  qpn_ = range_size(axes.qpn_base);
  sport_ = range_size(axes.sport_base);
  seeds_ = range_size(axes.seeds);
  for (std::uint64_t n : {placements_, qps_, qpn_, sport_}) workloads_ = saturating_mul(workloads_, n);
  for (const std::string& name : scenarios_) {
    const auto it = std::find_if(spec.scenarios.begin(), spec.scenarios.end(),
                                 [&](const ScenarioSpec& s) { return s.name == name; });
    const bool hashes = routing_mode(it->routing).per_hop;
    hashes_.push_back(hashes);
    const std::uint64_t algos = hashes ? algos_ : 1;
    const std::uint64_t n = saturating_mul(saturating_mul(algos, workloads_), hashes ? seeds_ : 1);
    begin_.push_back(begin_.back() + n < begin_.back() ? ~0ULL : begin_.back() + n);
    combo_begin_.push_back(combo_begin_.back() + algos);
  }
  size_ = begin_.back();
}

VariantSpace::Digits VariantSpace::digits(std::uint64_t index) const noexcept {
  const auto s = static_cast<std::size_t>(std::upper_bound(begin_.begin(), begin_.end(), index) - begin_.begin() - 1);
  std::uint64_t local = index - begin_[s];
  const std::uint64_t seeds = hashes_[s] ? seeds_ : 1;
  const std::uint64_t seed = local % seeds;
  local /= seeds;
  return {s, local / workloads_, local % workloads_, seed};
}

VariantSpace::Coord VariantSpace::coord(std::uint64_t index) const noexcept {
  const Digits d = digits(index);
  return {combo_begin_[d.scenario] + d.algo, d.workload, d.seed};
}

std::uint64_t VariantSpace::first_of_combo(std::uint64_t combo) const noexcept {
  const auto s =
      static_cast<std::size_t>(std::upper_bound(combo_begin_.begin(), combo_begin_.end(), combo) - combo_begin_.begin() - 1);
  return begin_[s] + (combo - combo_begin_[s]) * workloads_ * (hashes_[s] ? seeds_ : 1);
}

std::uint64_t VariantSpace::combo_size(std::uint64_t combo) const noexcept {
  const auto s =
      static_cast<std::size_t>(std::upper_bound(combo_begin_.begin(), combo_begin_.end(), combo) - combo_begin_.begin() - 1);
  return workloads_ * (hashes_[s] ? seeds_ : 1);
}

std::vector<std::string> VariantSpace::hashless() const {
  std::vector<std::string> out;
  if (axes_.seeds || !axes_.algos.empty())
    for (std::size_t s = 0; s < scenarios_.size(); ++s)
      if (!hashes_[s]) out.push_back(scenarios_[s]);
  return out;
}

Overrides VariantSpace::at(std::uint64_t index) const {
  const Digits d = digits(index);
  std::uint64_t workload = d.workload;
  auto take = [&](std::uint64_t n) {
    const std::uint64_t i = workload % n;
    workload /= n;
    return i;
  };
  const std::uint64_t sport = take(sport_), qpn = take(qpn_), qps = take(qps_), placement = take(placements_);
  Overrides o;
  o.scenario = scenarios_[d.scenario];
  if (!axes_.algos.empty() && hashes_[d.scenario]) o.algo = axes_.algos[d.algo];
  if (axes_.seeds && hashes_[d.scenario]) {
    o.seed = static_cast<std::uint32_t>(axes_.seeds->at(d.seed));
    o.seed_mode = axes_.seed_mode;
  }
  if (axes_.placement_seeds) o.placement_seed = axes_.placement_seeds->at(placement);
  if (!axes_.qps.empty()) o.qps = axes_.qps[qps];
  if (axes_.qpn_base) o.qpn_base = static_cast<std::uint32_t>(axes_.qpn_base->at(qpn));
  if (axes_.sport_base) o.sport_base = static_cast<std::uint32_t>(axes_.sport_base->at(sport));
  return o;
}

std::uint64_t VariantSpace::axis_size(SweepAxis axis) const noexcept {
  switch (axis) {
    case SweepAxis::Scenario: return scenarios_.size();
    case SweepAxis::Algos: return algos_;
    case SweepAxis::PlacementSeeds: return placements_;
    case SweepAxis::Qps: return qps_;
    case SweepAxis::QpnBase: return qpn_;
    case SweepAxis::SportBase: return sport_;
    case SweepAxis::Seeds: return seeds_;
  }
  return 1;
}

std::uint64_t VariantSpace::axis_index(std::uint64_t index, SweepAxis axis) const noexcept {
  const Digits d = digits(index);
  // A workload's digits in the order at() takes them: the source-port base fastest.
  const std::uint64_t w = d.workload;
  switch (axis) {
    case SweepAxis::Scenario: return d.scenario;
    case SweepAxis::Algos: return d.algo;
    case SweepAxis::Seeds: return d.seed;
    case SweepAxis::SportBase: return w % sport_;
    case SweepAxis::QpnBase: return w / sport_ % qpn_;
    case SweepAxis::Qps: return w / sport_ / qpn_ % qps_;
    case SweepAxis::PlacementSeeds: return w / sport_ / qpn_ / qps_;
  }
  return 0;
}

Sweep::Sweep(Spec spec, const SweepSpec& axes) : spec_(std::move(spec)), space_(spec_, axes) {
  base_ = std::make_unique<Simulation>(spec_);
  // One plan per (scenario, algorithm).
  for (std::uint64_t c = 0; c < space_.combos(); ++c) {
    Overrides o = space_.at(space_.first_of_combo(c));
    Spec s = spec_;
    const bool seed_axis = o.seed.has_value();
    o.seed.reset();
    apply_overrides(s, o);
    plans_.push_back(
        std::make_unique<SweepPlan>(*base_, s.scenarios.front(), seed_axis, axes.seed_mode, axes.slowdown,
                                    axes.busbw_at));
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
  ValueTable values(sweep.base().jobs().size());
  values.resize(end > begin ? end - begin : 0);
  SweepRun run = run_sweep_into(sweep, begin, end, threads, control, values.data());
  values.resize(run.done);
  run.values = std::move(values);
  return run;
}

SweepRun run_sweep_into(const Sweep& sweep, std::uint64_t begin, std::uint64_t end, unsigned threads,
                        SweepControl* control, double* rows) {
  SweepRun run;
  run.values = ValueTable(sweep.base().jobs().size());
  const std::size_t width = run.values.width();
  run.begin = begin;
  const std::uint64_t n = end > begin ? end - begin : 0;
  threads = std::max(1u, threads);
  const auto& seeds = sweep.space().axes().seeds;

  struct Local {
    SweepWorker worker;
    bool loaded = false;
    VariantSpace::Coord at;
  };
  std::vector<Local> locals(threads);
  // Each chunk's decisions count only in the finished prefix: as many as a
  // run that stopped there exactly makes (a resumed sweep's count is the whole one's).
  FinishedPrefix own;
  FinishedPrefix& prefix = control != nullptr ? control->prefix : own;
  prefix.reset();
  auto stopped = [&] { return control != nullptr && control->stop.load(std::memory_order_relaxed); };
  const auto body = [&](unsigned thread, std::uint64_t lo, std::uint64_t hi) {
    Local& local = locals[thread];
    const std::uint64_t decided = local.worker.decisions();
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
      local.worker.evaluate(seed, {rows + i * width, width});
      if (control != nullptr && ++unreported == report_every) {
        control->finished.fetch_add(unreported, std::memory_order_relaxed);
        unreported = 0;
      }
    }
    if (control != nullptr) control->finished.fetch_add(unreported, std::memory_order_relaxed);
    prefix.add(lo, i - lo, local.worker.decisions() - decided);
    return i - lo;
  };
  run.done = for_each_timed_chunk(threads, n, body, control != nullptr ? control->chunk_target : kChunkTarget);
  run.interrupted = run.done < n;
  run.decisions = prefix.get().weight;
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
  for (std::uint64_t c = 0; c < space.combos(); ++c) {
    const std::uint64_t first = space.first_of_combo(c);
    SweepSummary s = summarize(values.sub(first, space.combo_size(c)), bins, threshold, metric);
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
