// Metrics over a link array: imbalance() (FIM, max/mean, CoV, Jain) on loads
// the size of real fabrics' switch-to-switch link sets; items = links.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "sim/model/metrics.h"

namespace {

// Flow counts per link as a hash would spread them: a fixed pseudo-random
// sequence (SplitMix64) so every run measures the same data.
std::vector<double> loads(std::size_t n) {
  std::vector<double> v(n);
  std::uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (auto& d : v) {
    x += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    d = static_cast<double>((z ^ (z >> 31)) % 64);
  }
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
