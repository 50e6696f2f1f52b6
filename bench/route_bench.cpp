#include <benchmark/benchmark.h>

#include "sim/config.h"
#include "sim/simulation.h"

namespace {

void BM_Paper16Scenario(benchmark::State& state) {
  const ecmpsim::Simulation sim(ecmpsim::load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"));
  for (auto _ : state) {
    auto r = sim.run(sim.spec().scenarios.front());
    benchmark::DoNotOptimize(r.flows.fim);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sim.flows().size()));
}
BENCHMARK(BM_Paper16Scenario);

}  // namespace

BENCHMARK_MAIN();
