// `ecmpsim fit` costs (issue 21 targets): the seed-by-seed search over one
// non-affine family, in seeds per second, with the time a full 2^32 search
// would take at that rate; and a whole default fit (catalogue + linear) of
// 1,000 observations. bench/run.sh also times a real full 2^32 search.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "sim/fit/fit.h"
#include "sim/routing/hash_query.h"

namespace {

using namespace ecmpsim;

hashing::Tuple flow(std::uint32_t i) {
  std::uint64_t z = 0x9E3779B97F4A7C15ULL * (i + 1);
  z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL;
  hashing::Tuple t;
  t.src_ip = 0x0A000000u | static_cast<std::uint32_t>(z & 0xFFFF);
  t.dst_ip = 0x0A010000u | static_cast<std::uint32_t>((z >> 16) & 0xFFFF);
  t.proto = 17;
  t.sport = static_cast<std::uint16_t>(0xC000u | ((z >> 32) & 0x3FFF));
  t.dport = 4791;
  return t;
}

fit::Observations observe(const char* algo, std::uint32_t seed, std::uint32_t members, std::size_t n) {
  HashQuery q;
  q.algo = hashing::find(algo);
  q.seed = seed;
  q.members = members;
  q.select = hashing::default_selection(*q.algo);
  const HashCalculator calc(q);
  fit::Observations obs;
  obs.source = "bench";
  obs.fields = hashing::default_fields();
  for (std::uint32_t i = 0; i < n; ++i) obs.rows.push_back({flow(i), calc(flow(i)).member, i + 2});
  return obs;
}

// One family (algorithm, the five-tuple), every offset and selection, 2^22
// seeds per iteration on `threads` threads; 64 observations, 4 members.
void BM_SeedSearch(benchmark::State& state, const char* algo) {
  const fit::Observations obs = observe(algo, 0xFFFFFFF0u, 4, 64);
  const std::vector<fit::Family> family{{hashing::find(algo), hashing::find(algo)->layout == hashing::KeyLayout::Fields
                                                                  ? hashing::default_fields()
                                                                  : std::vector<hashing::Field>{}}};
  const fit::Group group{4, {}, 128};
  constexpr std::uint64_t kSeeds = 1ULL << 22;
  const auto threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const fit::SearchResult r = fit::search_seeds(obs, group, family, 0, kSeeds, threads, 20);
    benchmark::DoNotOptimize(r.found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSeeds));
  state.counters["full_2^32_s"] = benchmark::Counter(
      static_cast<double>(kSeeds) / 4294967296.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The default `ecmpsim fit` of 1,000 observations (every algorithm, field
// list and selection; seeds 0..65535 where searched one by one).
void BM_Fit1000(benchmark::State& state, const char* algo, std::uint32_t seed) {
  const fit::Observations obs = observe(algo, seed, 8, 1000);
  fit::FitOptions opt;
  opt.group.members = 8;
  opt.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const fit::FitResult r = fit::fit(obs, opt);
    if (!r.certain) state.SkipWithError("fit not certain");
    benchmark::DoNotOptimize(r.candidates);
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_SeedSearch, xxh32, "xxh32")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SeedSearch, linux_l4, "linux-l4")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SeedSearch, jenkins, "jenkins")->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit1000, crc16_ccitt, "crc16-ccitt", 1234)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit1000, crc32_lo, "crc32-lo", 77)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit1000, toeplitz_linear, "toeplitz", 99)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Fit1000, xxh32_seed_1000, "xxh32", 1000)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
