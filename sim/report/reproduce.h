// The FlowTracer comparison (arXiv 2410.17078): ECMP's flow imbalance metric
// over many hash seeds against the static routing table's, and the reduction
// next to the 30% the paper reports.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/sweep.h"
#include "sim/model/simulation.h"
#include "sim/output/metrics_json.h"
#include "sim/report/sensitivity.h"

namespace ecmpsim {

// FlowTracer: "a static routing table reduced the flow imbalance metric by 30%".
inline constexpr double kPaperReduction = 0.30;

// What another routing would have done in the same experiment: the ECMP
// scenario with planned source ports, or adaptive routing, on the same
// fabric and flows.
struct Alternative {
  std::string label;      // e.g. "ECMP 'ecmp' + planned ports"
  double fim = 0;         // NaN when the routing cannot apply (`why` says so)
  double slowdown = 0;
  std::string why;        // empty, or the reason it cannot apply
};

struct FlowTracerComparison {
  std::string ecmp_scenario, static_scenario;
  UintRange seeds;
  std::uint64_t samples = 0;
  MetricSummary ecmp_fim;      // over the seeds
  double ecmp_config_fim = 0;  // at the config's own seed
  double static_fim = 0;
  double reduction_vs_mean = 0;    // 1 - static / mean(ECMP)
  double reduction_vs_median = 0;  // 1 - static / p50(ECMP)
  double static_better = 0;        // fraction of seeds whose ECMP FIM exceeds the static FIM
  MetricSummary ecmp_slowdown;
  double static_slowdown = 0;
  std::vector<Alternative> alternatives;
  std::string verdict;  // reproduce's one line (sim/report/sensitivity.h); empty where not computed
};

// The ECMP scenario with planned source ports, adaptive local, adaptive
// global and spraying, each run on `sim`'s fabric and flows (spraying has no
// predicted slowdown yet: NaN, printed "-").
std::vector<Alternative> alternatives(const Simulation& sim, const ScenarioSpec& ecmp);

// The first scenario whose mode has `role` (&RoutingMode::hashes: the paper's
// ECMP, &RoutingMode::tables: static), with the workload's own source ports,
// of `spec`; InputError naming the config when it has none.
const ScenarioSpec& first_scenario(const Spec& spec, bool RoutingMode::*role);

FlowTracerComparison compare_flowtracer(const SeedSweep& ecmp, const ScenarioResult& ecmp_config,
                                        const ScenarioResult& static_result);

// The comparison table, then every assumption of the spec under it.
std::string flowtracer_table(const FlowTracerComparison& c, const Spec& spec);

// The comparison as `reproduce --format json` prints it (docs/walkthrough.md):
// {"ecmp_scenario", "static_scenario", "seeds", "samples", "ecmp_fim",
// "ecmp_config_fim", "static_fim", "reduction_vs_mean", "reduction_vs_median",
// "paper_reduction", "static_better", "ecmp_slowdown", "static_slowdown",
// "alternatives": [{"label", "fim", "slowdown", "why" when it cannot apply}]}.
Json flowtracer_json(const FlowTracerComparison& c);

// What `reproduce` prints, for write(): the comparison table and the
// sensitivity, or {"config", "comparison", "sensitivity", "verdict"}; the
// arguments outlive it.
Result reproduce_result(const Spec& spec, const FlowTracerComparison& c, const Sensitivity& s);

}  // namespace ecmpsim
