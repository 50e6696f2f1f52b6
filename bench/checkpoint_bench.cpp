// What checkpoints cost a sweep (issue 35, 47: <= 2% of its time) and what a
// kill would lose (issue 47: at most max(5 s, 10%) of the work): a paper16
// xxh3 seed sweep run whole (run_sweep) against the same sweep continued in
// segments adding to a checkpoint file every `every` (continue_sweep and a
// CheckpointWriter, as `ecmpsim sweep --checkpoint` runs them), in the same
// process. A kill loses the work since the last save: `lost_s` is the longest
// stretch without one (from the start, between saves, to the end), what the
// unluckiest kill would lose. Args: seeds, checkpoint interval in ms (0: no
// checkpoint, one run_sweep).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

#include "sim/config/config.h"
#include "sim/sweep/checkpoint.h"
#include "sim/sweep/sweep.h"

namespace {

using namespace ecmpsim;

Sweep make_sweep(std::uint64_t seeds) {
  SweepSpec axes;
  axes.seeds = UintRange{0, seeds, 1};
  axes.algos = {"xxh3"};
  return Sweep(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"), axes);
}

double process_cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

void BM_SweepCheckpoint(benchmark::State& state) {
  const Sweep sweep = make_sweep(static_cast<std::uint64_t>(state.range(0)));
  const auto every = std::chrono::milliseconds(state.range(1));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("checkpoint_bench." + std::to_string(::getpid()))).string();
  const CheckpointId id{{"version", "bench"}};
  const unsigned threads = 2;
  double saves = 0, save_seconds = 0, bytes = 0, wall = 0, cpu = 0, lost = 0;
  for (auto _ : state) {
    const auto began = std::chrono::steady_clock::now();
    const double cpu_began = process_cpu_seconds();
    SweepControl control;
    SweepRun run;
    if (every.count() == 0) {
      run = run_sweep(sweep, 0, sweep.space().size(), threads, &control);
    } else {
      std::remove(path.c_str());
      const std::size_t jobs = sweep.base().jobs().size();
      CheckpointWriter writer(path, id, -1, 0, jobs, sweep.space().size());
      run.values = ValueTable(jobs);
      run.values.resize(sweep.space().size());
      auto last = began;
      Checkpointing c;
      c.every = every;
      c.save = [&](const SweepRun& now) {
        const auto start = std::chrono::steady_clock::now();
        writer.save({0, now.done}, now.values.view(), now.decisions);
        const auto end = std::chrono::steady_clock::now();
        save_seconds += std::chrono::duration<double>(end - start).count();
        saves += 1;
        lost = std::max(lost, std::chrono::duration<double>(start - last).count());
        last = end;
      };
      continue_sweep(sweep, run, threads, control, c);
      writer.flush(true);
      lost = std::max(lost, std::chrono::duration<double>(std::chrono::steady_clock::now() - last).count());
      bytes = static_cast<double>(std::filesystem::file_size(path));
    }
    benchmark::DoNotOptimize(run.values.data());
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    cpu += process_cpu_seconds() - cpu_began;
  }
  std::remove(path.c_str());
  const auto n = static_cast<double>(state.iterations());
  state.counters["saves"] = saves / n;
  state.counters["save_s"] = saves > 0 ? save_seconds / saves : 0;
  state.counters["last_MB"] = bytes / 1e6;
  // The saves' share of the sweep's wall time, measured in the same run: on a
  // loaded machine the wall times of separate runs differ by more than this.
  state.counters["save_pct"] = 100 * save_seconds / wall;
  // CPU time of every thread of the process: far less disturbed by other
  // processes than wall time, it shows what segmenting and saving add.
  state.counters["cpu_s"] = cpu / n;
  // The most a kill could have lost, and its bound: max(5 s, 10% of the time so far) at the end.
  state.counters["lost_s"] = lost;
  state.counters["wall_s"] = wall / n;
}

// The sweep's seeds: ECMPSIM_BENCH_SEEDS, default 2,000 (CI's quick pass); the
// measurement in bench/RESULTS.md used 1,000,000 (about 40 s on 2 threads:
// several saves at the default 5 s interval).
std::int64_t bench_seeds() {
  const char* env = std::getenv("ECMPSIM_BENCH_SEEDS");
  return env != nullptr ? std::strtoll(env, nullptr, 10) : 2000;
}

}  // namespace

BENCHMARK(BM_SweepCheckpoint)
    ->Args({bench_seeds(), 0})
    ->Args({bench_seeds(), 500})
    ->Args({bench_seeds(), 5000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

BENCHMARK_MAIN();
