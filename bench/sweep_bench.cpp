// One paper16 sweep variant: flow-hop decisions per second, next to the cost
// of the hash alone on the same keys in the same run.
#include <benchmark/benchmark.h>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "sim/config/config.h"
#include "sim/sweep/sweep.h"

namespace {

using namespace ecmpsim;

Spec paper16(const char* algo) {
  Spec s = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  s.scenarios.front().hash.algo = algo;
  return s;
}

// SweepWorker::evaluate for seed after seed; arg 0 = seed mode (0 same, 2
// per-switch), arg 1 = with the flow model's predicted slowdown (1) or not (0).
template <const char* Algo>
void BM_SweepVariant(benchmark::State& state) {
  SweepSpec axes;
  axes.seeds = UintRange{0, 1, 1};
  axes.seed_mode = static_cast<SeedMode>(state.range(0));
  axes.slowdown = state.range(1) != 0;
  const Sweep sweep(paper16(Algo), axes);
  SweepWorker w;
  w.load(sweep.plan(0), sweep.flows_of(0));
  std::uint32_t seed = 0;
  ValueTable row(sweep.base().jobs().size());
  row.resize(1);
  for (auto _ : state) {
    w.evaluate(seed++, row[0]);
    benchmark::DoNotOptimize(row.data());
  }
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(w.decisions()), benchmark::Counter::kIsRate);
  state.counters["decisions/variant"] = static_cast<double>(w.decisions()) / static_cast<double>(state.iterations());
}

// The hash alone: one call per flow of paper16 on its packed five-tuple key,
// a new seed per pass (what a variant that re-hashes every flow must pay).
template <const char* Algo>
void BM_HashAlone(benchmark::State& state) {
  const Simulation sim(paper16(Algo));
  const auto* algo = hashing::find(Algo);
  const auto& f = sim.flows();
  std::vector<hashing::KeyBuffer> keys(f.size());
  std::vector<std::size_t> len(f.size());
  for (std::size_t i = 0; i < f.size(); ++i)
    len[i] = hashing::build_key(algo->layout, hashing::default_fields(),
                                {f.src_ip[i], f.dst_ip[i], f.proto[i], f.sport[i], f.dport[i], 0, f.rqpn[i], 0},
                                keys[i]);
  std::uint32_t seed = 0;
  for (auto _ : state) {
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) acc ^= algo->fn({keys[i].data(), len[i]}, seed);
    ++seed;
    benchmark::DoNotOptimize(acc);
  }
  state.counters["hashes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * keys.size()), benchmark::Counter::kIsRate);
}

// A whole sweep of 100,000 paper16 seeds on arg 1 threads (wall time); arg 2
// as arg 1 of BM_SweepVariant.
template <const char* Algo>
void BM_Sweep(benchmark::State& state) {
  SweepSpec axes;
  axes.seeds = UintRange{0, 100000, 1};
  axes.seed_mode = static_cast<SeedMode>(state.range(0));
  axes.slowdown = state.range(2) != 0;
  const Sweep sweep(paper16(Algo), axes);
  std::uint64_t decisions = 0;
  for (auto _ : state) {
    const SweepRun run = run_sweep(sweep, 0, 100000, static_cast<unsigned>(state.range(1)));
    decisions += run.decisions;
  }
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["variants/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * 100000), benchmark::Counter::kIsRate);
}

constexpr char kCrc[] = "crc16-ccitt";
constexpr char kXxh3[] = "xxh3";

BENCHMARK(BM_SweepVariant<kCrc>)->Args({0, 0})->Args({2, 0})->Args({0, 1})->ArgNames({"mode", "slowdown"});
BENCHMARK(BM_SweepVariant<kXxh3>)->Args({0, 0})->Args({2, 0})->Args({0, 1})->ArgNames({"mode", "slowdown"});
BENCHMARK(BM_HashAlone<kCrc>);
BENCHMARK(BM_HashAlone<kXxh3>);
BENCHMARK(BM_Sweep<kCrc>)
    ->Args({0, 1, 0})->Args({0, 2, 0})->Args({2, 2, 0})->Args({0, 2, 1})
    ->ArgNames({"mode", "threads", "slowdown"})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sweep<kXxh3>)
    ->Args({2, 1, 0})->Args({2, 2, 0})->Args({2, 2, 1})
    ->ArgNames({"mode", "threads", "slowdown"})->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
