// Metrics over a link array: imbalance() (FIM, max/mean, CoV, Jain) on loads
// the size of real fabrics' switch-to-switch link sets; items = links.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sim/base/splitmix.h"
#include "sim/model/metrics.h"

namespace {

// Flow counts per link as a hash would spread them: a fixed pseudo-random
// sequence (SplitMix64) so every run measures the same data.
std::vector<double> loads(std::size_t n) {
  std::vector<double> v(n);
  ecmpsim::SplitMix64 draw{ecmpsim::kSplitMixGamma};
  for (auto& d : v) d = static_cast<double>(draw.below(64));
  return v;
}

void BM_Imbalance(benchmark::State& state) {
  const auto v = loads(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto m = ecmpsim::imbalance(v);
    benchmark::DoNotOptimize(m);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
// 32: paper16's leaf-spine; 110,592: a k=48 fat-tree's switch-to-switch links, both directions.
BENCHMARK(BM_Imbalance)->Arg(32)->Arg(1024)->Arg(110592);

}  // namespace

BENCHMARK_MAIN();
