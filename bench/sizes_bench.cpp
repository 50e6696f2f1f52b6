// Issue 32 item 7: the message-size dimension of a sweep reuses each
// variant's routed rates (one flow-model solve, or the lockstep solve of the
// channels, per variant; then NCCL's arithmetic per size). Measured as one
// ratio in one run: a paper16 seed sweep whose job asks for 30 sizes
// (nccl-tests -b 8 -e 4G -f 2), both per-size metrics computed for every
// variant, over the same sweep at its one message_bytes. Each iteration runs
// both sweeps (run_sweep and the summaries) back to back.
//   sizes_bench                  1,000 seeds (what CTest runs, briefly)
//   sizes_bench --seeds=100000   the 10^5 seeds (bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sim/config/config.h"
#include "sim/sweep/sweep.h"

namespace {

using namespace ecmpsim;

double timed_sweep(const Spec& spec, const SweepSpec& axes, unsigned threads) {
  const auto start = std::chrono::steady_clock::now();
  const Sweep sweep(spec, axes);
  const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), threads);
  const auto each = summarize_each(sweep.space(), run.values, 20, std::nullopt, axes.metric);
  benchmark::DoNotOptimize(each.data());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// arg 0: seeds; arg 1: size coupling (0 lockstep, 1 independent); arg 2: threads.
void BM_SizesOverOneSize(benchmark::State& state) {
  const Spec one = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  Spec sized = one;
  for (JobSpec& j : sized.jobs) {
    j.nccl.sweep = {8, 4ULL << 30, 2};  // 2^3 .. 2^32: 30 sizes
    j.nccl.coupling = state.range(1) == 0 ? workloads::ChannelCoupling::Lockstep : workloads::ChannelCoupling::Independent;
  }
  SweepSpec axes;
  axes.scenarios = {"ecmp"};
  axes.seeds = UintRange{0, static_cast<std::uint64_t>(state.range(0)), 1};
  const auto threads = static_cast<unsigned>(state.range(2));
  double t_one = 0, t_sizes = 0;
  for (auto _ : state) {
    t_one += timed_sweep(one, axes, threads);
    axes.metric = SweepMetric::BusbwAvg;
    t_sizes += timed_sweep(sized, axes, threads);
    axes.metric = SweepMetric::Fim;
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["one_size_s"] = t_one / n;
  state.counters["30_sizes_s"] = t_sizes / n;
  state.counters["ratio"] = t_sizes / t_one;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::int64_t seeds = 1000;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--seeds=", 8) == 0) seeds = std::atoll(argv[i] + 8);
  benchmark::RegisterBenchmark("BM_SizesOverOneSize", BM_SizesOverOneSize)
      ->Args({seeds, 0, 2})
      ->Args({seeds, 1, 2})
      ->Args({seeds, 0, 1})
      ->ArgNames({"seeds", "independent", "threads"})
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
