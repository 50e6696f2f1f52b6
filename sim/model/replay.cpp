#include "sim/model/replay.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "sim/model/flow_model.h"
#include "sim/model/replay_flows.h"
#include "sim/model/simulation.h"
#include "sim/base/error.h"

namespace ecmpsim {

namespace {

using workloads::Interval;

// The length of the union of `v` (any order).
double covered(std::vector<Interval> v) {
  double total = 0;
  for (const Interval& i : workloads::merge_intervals(std::move(v))) total += i.end - i.begin;
  return total;
}

// The part of the union of `comm` outside the union of `compute` (sorted, merged).
double exposed(std::vector<Interval> comm, const std::vector<Interval>& compute) {
  std::vector<Interval> out;
  for (const Interval& c : comm) {
    double at = c.begin;
    auto it = std::upper_bound(compute.begin(), compute.end(), c.begin,
                               [](double t, const Interval& i) { return t < i.end; });
    for (; it != compute.end() && it->begin < c.end; ++it) {
      if (it->begin > at) out.push_back({at, it->begin});
      at = std::max(at, it->end);
    }
    if (at < c.end) out.push_back({at, c.end});
  }
  return covered(std::move(out));
}

// The sub-network of flows [first, last) of `net`, for a collective alone.
struct SubNetwork {
  std::vector<std::uint32_t> begin;
  FlowNetwork net;
};
SubNetwork sub_network(const FlowNetwork& net, std::uint32_t first, std::uint32_t last) {
  SubNetwork s;
  const std::uint32_t base = net.path_begin[first];
  for (std::uint32_t f = first; f <= last; ++f) s.begin.push_back(net.path_begin[f] - base);
  const std::size_t hops = net.path_begin[last] - base;
  s.net = {net.capacity, net.bytes.subspan(first, last - first), s.begin, net.path_links.subspan(base, hops),
           net.fraction.empty() ? std::span<const double>{} : net.fraction.subspan(base, hops)};
  return s;
}

// Each collective's start for --replay-gaps: after its predecessor on each of
// its traced ranks' streams ended (its start plus `duration`) plus the
// measured gap between the two on that rank, in the trace's order.
std::vector<double> chain_starts(const workloads::CommTrace& trace, const std::vector<double>& duration) {
  std::vector<double> start(trace.collectives.size(), 0);
  std::map<std::uint32_t, std::pair<std::size_t, double>> last;  // rank -> (collective, its measured end there)
  for (std::size_t i = 0; i < trace.collectives.size(); ++i) {
    const auto& c = trace.collectives[i];
    double s = 0;
    for (std::size_t k = 0; k < c.held.size(); ++k) {
      const auto it = last.find(c.held[k]);
      if (it == last.end()) {
        s = std::max(s, c.rank_start_us[k]);
        continue;
      }
      const auto [prev, prev_end] = it->second;
      s = std::max(s, start[prev] + duration[prev] + std::max(0.0, c.rank_start_us[k] - prev_end));
    }
    start[i] = s;
    for (std::size_t k = 0; k < c.held.size(); ++k) last[c.held[k]] = {i, c.rank_end_us[k]};
  }
  return start;
}

}  // namespace

namespace {

// One scenario: every collective's flows from its start, sharing the fabric.
struct Timed {
  std::vector<double> predicted;  // per collective, us; NaN when not expanded
  std::size_t events = 0;
};

Timed run_timed(const FlowNetwork& base, const ReplayFlows& rf, const std::vector<double>& start_us) {
  const std::size_t n = rf.algo.size();
  std::vector<double> start(rf.flows.size());
  for (std::size_t c = 0; c < n; ++c)
    for (std::uint32_t f = rf.begin[c]; f < rf.begin[c + 1]; ++f) start[f] = start_us[c] * 1e-6;
  FlowNetwork net = base;
  net.start = start;
  FlowModel model;
  FlowTimes times;
  model.run(net, times);
  Timed out;
  out.events = times.events;
  out.predicted.assign(n, NAN);
  for (std::size_t c = 0; c < n; ++c) {
    if (rf.algo[c].empty()) continue;
    double end = start_us[c];
    for (std::uint32_t f = rf.begin[c]; f < rf.begin[c + 1]; ++f) end = std::max(end, times.finish[f].value * 1e6);
    out.predicted[c] = end - start_us[c];
  }
  return out;
}

// Each expanded collective alone on the fabric (NaN for the others), once
// per distinct (group, generator, bytes, peers): the same flows on the same paths.
std::vector<double> alone_times(const workloads::CommTrace& trace, const ReplayFlows& rf, const FlowNetwork& base) {
  std::map<std::tuple<std::uint32_t, std::string, std::uint64_t, std::uint32_t, std::uint32_t>, double> seen;
  std::vector<double> out(trace.collectives.size(), NAN);
  for (std::size_t c = 0; c < out.size(); ++c) {
    if (rf.algo[c].empty()) continue;
    const auto& tc = trace.collectives[c];
    const auto key = std::make_tuple(tc.group, rf.algo[c], tc.bytes, tc.src, tc.dst);
    auto it = seen.find(key);
    if (it == seen.end()) {
      const SubNetwork sub = sub_network(base, rf.begin[c], rf.begin[c + 1]);
      FlowModel model;
      FlowTimes times;
      model.run(sub.net, times);
      double end = 0;
      for (const Seconds& s : times.finish) end = std::max(end, s.value * 1e6);
      it = seen.emplace(key, end).first;
    }
    out[c] = it->second;
  }
  return out;
}

constexpr std::size_t kMaxPasses = 50;

// --replay-gaps: the starts depend on the predicted durations and those on
// the starts. The first pass chains the collectives' alone times (a lower
// bound of each), every later pass the durations the previous one
// predicted, until no start moves by more than 1 ns (or kMaxPasses).
Timed chained(const workloads::CommTrace& trace, const ReplayFlows& rf, const FlowNetwork& base,
              const std::vector<double>& alone, std::vector<double>& start, std::size_t& passes) {
  const std::size_t n = trace.collectives.size();
  const auto duration_of = [&](std::size_t c, double predicted) {
    return std::isnan(predicted) ? trace.collectives[c].measured_us : predicted;
  };
  std::vector<double> duration(n);
  for (std::size_t c = 0; c < n; ++c) duration[c] = duration_of(c, alone[c]);
  start = chain_starts(trace, duration);
  Timed timed = run_timed(base, rf, start);
  for (passes = 1; passes < kMaxPasses; ++passes) {
    for (std::size_t c = 0; c < n; ++c) duration[c] = duration_of(c, timed.predicted[c]);
    std::vector<double> next = chain_starts(trace, duration);
    double moved = 0;
    for (std::size_t c = 0; c < n; ++c) moved = std::max(moved, std::abs(next[c] - start[c]));
    if (moved <= 1e-3) break;
    start = std::move(next);
    timed = run_timed(base, rf, start);
  }
  return timed;
}

// The step a time falls in: the last ProfilerStep mark at or before it (0 before any).
std::uint32_t step_of(const std::vector<double>& steps, double t) {
  const auto it = std::upper_bound(steps.begin(), steps.end(), t);
  return it == steps.begin() ? 0 : static_cast<std::uint32_t>(it - steps.begin() - 1);
}

// Per step and group: communication (the union of the collectives' spans)
// and its exposed part (outside every compute kernel of the group's traced
// ranks), measured and predicted; the spans of the whole replay.
void summarize(const workloads::CommTrace& trace, ReplayScenario& out) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::vector<Interval>, std::vector<Interval>>> spans;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> counts;
  double first = INFINITY, measured_end = -INFINITY, predicted_end = -INFINITY;
  for (std::size_t c = 0; c < out.collectives.size(); ++c) {
    const ReplayRow& row = out.collectives[c];
    const double measured_start = trace.collectives[c].start_us;
    const auto key = std::pair{step_of(trace.steps, measured_start), row.group};
    auto& [measured, predicted] = spans[key];
    ++counts[key];
    measured.push_back({measured_start, measured_start + row.measured_us});
    const double predicted_us = row.predicted_us.value_or(row.measured_us);
    predicted.push_back({row.start_us, row.start_us + predicted_us});
    first = std::min({first, measured_start, row.start_us});
    measured_end = std::max(measured_end, measured_start + row.measured_us);
    predicted_end = std::max(predicted_end, row.start_us + predicted_us);
  }
  out.measured_span_us = out.collectives.empty() ? 0 : measured_end - first;
  out.predicted_span_us = out.collectives.empty() ? 0 : predicted_end - first;
  std::vector<std::vector<Interval>> compute(trace.groups.size());
  for (std::size_t g = 0; g < trace.groups.size(); ++g) {
    for (std::uint32_t r : trace.groups[g].ranks) {
      const auto it = std::lower_bound(trace.traced_ranks.begin(), trace.traced_ranks.end(), r);
      if (it == trace.traced_ranks.end() || *it != r) continue;
      const auto& c = trace.compute[static_cast<std::size_t>(it - trace.traced_ranks.begin())];
      compute[g].insert(compute[g].end(), c.begin(), c.end());
    }
    compute[g] = workloads::merge_intervals(std::move(compute[g]));
  }
  for (const auto& [key, both] : spans) {
    const auto& [measured, predicted] = both;
    out.groups.push_back({key.first, key.second, counts[key], covered(measured), exposed(measured, compute[key.second]),
                          covered(predicted), exposed(predicted, compute[key.second])});
  }
}

}  // namespace

ReplayReport replay(const Spec& spec, const workloads::CommTrace& trace, const ReplayOptions& options) {
  ReplayReport report;
  report.files = trace.files;
  report.notes = trace.notes;
  for (const auto& g : trace.groups) {
    report.groups.push_back(g.name);
    report.group_size.push_back(static_cast<std::uint32_t>(g.ranks.size()));
    for (std::uint32_t r : g.ranks) report.ranks = std::max<std::size_t>(report.ranks, r + 1);
  }
  report.traced = trace.traced_ranks.size();
  const Fabric fabric = fabric_for(spec);
  ReplayFlows rf = expand_collectives(spec, fabric, trace, options, options.job);
  report.notes.insert(report.notes.end(), rf.notes.begin(), rf.notes.end());
  report.flows = rf.flows.size();
  workloads::ImportedFlows im;
  im.format = "trace";
  im.files = trace.files;
  im.flows = rf.flows;
  im.src_where.resize(rf.flows.size());
  im.dst_where.resize(rf.flows.size());
  const Simulation sim(spec, im);
  const std::size_t n = trace.collectives.size();
  std::vector<double> measured_start(n);
  for (std::size_t c = 0; c < n; ++c) measured_start[c] = trace.collectives[c].start_us;
  for (const ScenarioSpec& scenario : spec.scenarios) {
    const ScenarioResult r = sim.run(scenario, {.model = false});
    std::vector<Gbps> capacity = sim.capacity();
    for (LinkId l = 0; l < capacity.size(); ++l)
      if (r.is_down(l)) capacity[l] = Gbps{0};
    const FlowNetwork base{capacity, sim.flows().bytes, r.trace.path_begin, r.trace.path_links, r.trace.split_fraction};
    const std::vector<double> alone = alone_times(trace, rf, base);
    std::vector<double> start = measured_start;
    std::size_t passes = 0;
    const Timed timed = options.replay_gaps ? chained(trace, rf, base, alone, start, passes) : run_timed(base, rf, start);
    if (options.replay_gaps)
      report.notes.push_back("scenario '" + scenario.name + "': --replay-gaps " +
                             (passes < kMaxPasses ? "settled after " + std::to_string(passes) + " passes"
                                                  : "stopped after " + std::to_string(kMaxPasses) +
                                                        " passes with starts still moving"));
    ReplayScenario out;
    out.name = scenario.name;
    out.events = timed.events;
    for (std::size_t c = 0; c < n; ++c) {
      const auto& tc = trace.collectives[c];
      ReplayRow row{tc.group, tc.seq, tc.collective, std::string(workloads::trace_op_name(tc.op)), rf.algo[c], tc.bytes,
                    rf.begin[c + 1] - rf.begin[c], start[c], tc.measured_us, std::nullopt, std::nullopt};
      if (!rf.algo[c].empty()) {
        row.predicted_us = timed.predicted[c];
        row.alone_us = alone[c];
      }
      out.collectives.push_back(std::move(row));
    }
    summarize(trace, out);
    report.scenarios.push_back(std::move(out));
  }
  report.steps = std::max<std::size_t>(1, trace.steps.size());
  return report;
}

std::string training_text(const workloads::TrainingShape& t) {
  std::string s = "training step: tp " + std::to_string(t.tp) + " x pp " + std::to_string(t.pp) + " x dp " +
                  std::to_string(t.dp) + ", " + std::to_string(t.layers) + " layers, hidden " +
                  std::to_string(t.hidden) + ", seq_len " + std::to_string(t.seq_len) + ", " +
                  std::to_string(t.microbatches) + " microbatches, " +
                  std::string(name_of(workloads::kTrainingDtypes, t.dtype));
  if (t.experts > 0) s += ", " + std::to_string(t.experts) + " experts over ep " + std::to_string(t.ep);
  return s;
}

ReplayReport replay_training(const Spec& spec) {
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    if (spec.jobs[j].kind != workloads::JobKind::Training) continue;
    ReplayOptions options;
    options.replay_gaps = true;
    options.job = j;
    return replay(spec, workloads::step_trace(workloads::training_step(spec.jobs[j].training)), options);
  }
  throw InputError({spec.source, 0, 0, "kind"}, "no traces given and no job of kind \"training\" to replay");
}

}  // namespace ecmpsim
