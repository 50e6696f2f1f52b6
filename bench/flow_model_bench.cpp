#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"
#include "tests/support/flow_model_reference.h"

namespace {

// Times Model on the flows of `config`, routed by its scenario `scenario`,
// from the first allocation until every byte is delivered; returns the last
// run's times and sets the "flows" and "events" counters.
template <typename Model>
ecmpsim::FlowTimes time_model(benchmark::State& state, const std::string& config, std::size_t scenario) {
  const ecmpsim::Simulation sim(ecmpsim::load_config(std::string(ECMPSIM_SOURCE_DIR) + config));
  const auto r = sim.run(sim.spec().scenarios.at(scenario));
  std::vector<ecmpsim::Gbps> capacity;
  for (const auto& l : sim.fabric().links()) capacity.push_back(l.speed);
  const ecmpsim::FlowNetwork net{capacity, sim.flows().bytes, r.trace.path_begin, r.trace.path_links};
  Model model;
  ecmpsim::FlowTimes times;
  for (auto _ : state) {
    model.run(net, times);
    benchmark::DoNotOptimize(times.finish.data());
  }
  state.counters["flows"] = static_cast<double>(sim.flows().size());
  state.counters["events"] = static_cast<double>(times.events);
  return times;
}

// The max-min flow model alone on paper16's flows, routed by the scenario
// given (0 = ecmp, 1 = static): time_per_flow (CPU time, printed in ns) is the
// cost per flow of one full run.
template <typename Model>
void BM_FlowModelPaper16(benchmark::State& state) {
  time_model<Model>(state, "/configs/paper16.toml", static_cast<std::size_t>(state.range(0)));
  state.counters["time_per_flow"] = benchmark::Counter(
      state.counters["flows"], benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_FlowModelPaper16, ecmpsim::FlowModel)->Arg(0)->Arg(1)->ArgName("scenario");
BENCHMARK_TEMPLATE(BM_FlowModelPaper16, ecmpsim::reference::ReferenceFlowModel)->Arg(0)->Arg(1)->ArgName("scenario");

// The incremental model against the from-scratch reference
// (tests/support/flow_model_reference.h) on the k = 16 fat-tree's 4,096 ring
// flows placed contiguously (arg 0: few distinct rates) and at random (arg 1:
// many), and on the four-job mix of scale-ft16-jobs.toml (arg 2: 8,376 flows
// at uneven rates), measured in one run; `resolved` counts the flows re-solved.
template <typename Model>
void BM_FlowModelFatTree(benchmark::State& state) {
  const char* config = std::array{"/bench/configs/scale-ft16.toml", "/bench/configs/scale-ft16-random.toml",
                                  "/bench/configs/scale-ft16-jobs.toml"}[static_cast<std::size_t>(state.range(0))];
  state.counters["resolved"] = static_cast<double>(time_model<Model>(state, config, 0).resolved);
}
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, ecmpsim::FlowModel)->Arg(0)->Arg(1)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, ecmpsim::reference::ReferenceFlowModel)
    ->Arg(0)->Arg(1)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
