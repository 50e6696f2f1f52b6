#include <benchmark/benchmark.h>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"

namespace {

// The max-min flow model alone on paper16's flows, routed by the scenario
// given (0 = ecmp, 1 = static): time_per_flow (CPU time, printed in ns) is the
// cost per flow of one full run, from the first allocation until every byte
// is delivered.
void BM_FlowModelPaper16(benchmark::State& state) {
  const ecmpsim::Simulation sim(ecmpsim::load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"));
  const auto r = sim.run(sim.spec().scenarios.at(static_cast<std::size_t>(state.range(0))));
  std::vector<ecmpsim::Gbps> capacity;
  for (const auto& l : sim.fabric().links()) capacity.push_back(l.up ? l.speed : ecmpsim::Gbps{0});
  const ecmpsim::FlowNetwork net{capacity, sim.flows().bytes, r.trace.path_begin, r.trace.path_links};
  ecmpsim::FlowModel model;
  ecmpsim::FlowTimes times;
  for (auto _ : state) {
    model.run(net, times);
    benchmark::DoNotOptimize(times.finish.data());
  }
  const auto flows = static_cast<double>(sim.flows().size());
  state.counters["flows"] = flows;
  state.counters["events"] = static_cast<double>(times.events);
  state.counters["time_per_flow"] =
      benchmark::Counter(flows, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FlowModelPaper16)->Arg(0)->Arg(1)->ArgName("scenario");

}  // namespace

BENCHMARK_MAIN();
