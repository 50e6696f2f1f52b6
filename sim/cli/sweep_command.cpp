#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <pthread.h>
#include <thread>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.h"
#include "sim/cli/ranks.h"
#include "sim/cli/size_flags.h"
#include "sim/cli/sweep_checkpoint.h"
#include "sim/cli/sweep_setup.h"
#include "sim/cli/sweep_shard.h"
#include "sim/config/config.h"
#include "sim/base/parallel.h"
#include "sim/routing/seeds.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_rank.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim::cli {
namespace {

// Watches a running sweep from its own thread: turns SIGINT, SIGTERM (what
// `timeout` and Slurm send), SIGHUP or SIGUSR1 (which mpirun forwards to every
// rank, unlike its Ctrl-C) into a stop request, all blocked in every other
// thread so they are only ever delivered here, and draws a progress bar on a
// terminal once the sweep has run for a second. `stopped_by` gets the signal.
class Monitor {
 public:
  Monitor(SweepControl& control, std::uint64_t total, bool tty, int& stopped_by)
      : control_(control), total_(total), tty_(tty), stopped_by_(stopped_by) {
    sigemptyset(&set_);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&set_, sig);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    thread_ = std::thread([this] { loop(); });
  }
  ~Monitor() {
    done_.store(true);
    thread_.join();
    // A stop signal that arrived after the sweep ended is consumed, not delivered late.
    const timespec zero{0, 0};
    while (sigtimedwait(&set_, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

 private:
  void loop() {
    const auto start = std::chrono::steady_clock::now();
    bool drawn = false;
    while (!done_.load()) {
      const timespec tick{0, 100'000'000};
      if (const int sig = sigtimedwait(&set_, nullptr, &tick); sig > 0) {
        if (!control_.stop.exchange(true)) stopped_by_.store(sig);
      }
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!tty_ || elapsed < 1.0 || done_.load()) continue;
      const auto finished = control_.finished.load();
      const double rate = static_cast<double>(finished) / elapsed;
      const double frac = static_cast<double>(finished) / static_cast<double>(total_);
      const double eta = rate > 0 ? static_cast<double>(total_ - finished) / rate : 0;
      const int filled = static_cast<int>(frac * 30);
      std::fprintf(stderr, "\r[%s%s] %5.1f%%  %llu/%llu variants  %.0f/s  ETA %.0fs ",
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(30 - filled), '.').c_str(), 100 * frac,
                   static_cast<unsigned long long>(finished), static_cast<unsigned long long>(total_), rate, eta);
      drawn = true;
    }
    if (drawn) std::fprintf(stderr, "\r\033[K");
  }

  SweepControl& control_;
  std::uint64_t total_;
  bool tty_;
  std::atomic_ref<int> stopped_by_;
  sigset_t set_{}, old_{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// --shard's flags checked before the work: it saves to --checkpoint's rank
// file and writes no output; it is one process of a job array.
Shard shard_of(const SweepOptions& o, bool mpi) {
  const SourcePos at{{}, 0, 0, "--shard"};
  if (mpi) throw InputError(at, "a shard is one task of a job array; under mpirun the ranks share the sweep themselves");
  if (o.checkpoint.checkpoint.empty())
    throw InputError(at, "needs --checkpoint FILE: the shard saves its variants to FILE.rank-I-of-N");
  if (!o.checkpoint.resume.empty())
    throw InputError({{}, 0, 0, "--resume"}, "merges finished shards: run it without --shard");
  if (!o.out.empty())
    throw InputError({{}, 0, 0, "--out"}, "a shard writes no output, only its rank file: merge the shards with "
                                          "--resume FILE --out OUT");
  return parse_shard(o.shard, [](const char* name) { return std::getenv(name); });
}

// The shard's one line on stderr: what it holds, and how to go on.
int shard_done(Io io, Shard s, const ShardRun& r, int stopped_code) {
  io.err << "ecmpsim: shard " << s.index << " of " << s.count << ": " << r.held + r.evaluated << " of " << r.variants
         << " variants saved in " << r.path << " (" << r.evaluated << " evaluated now)"
         << (r.stopped ? "; interrupted: run the same command again to continue"
                       : "; merge the shards with --resume and the --checkpoint FILE")
         << "\n";
  return r.stopped ? stopped_code : 0;
}

// "scenario: the scenarios (--scenario); algos: ...", from the axis table.
std::string axis_help() {
  std::string out;
  for (const auto& row : kSweepAxes)
    out += (out.empty() ? "" : "; ") + std::string(row.name) + ": " + std::string(row.doc);
  return out;
}

// The command and its flags, bound to `opt`.
void add_sweep_flags(CLI::App& app, SweepOptions* opt) {
  CLI::App* sub = app.add_subcommand("sweep", "Evaluate the cartesian product of seeds, ports, QPs, algorithms "
                                              "and placements in parallel; report the imbalance distribution");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_option("--seeds", opt->seeds, "ECMP seeds A:B (half-open)");
  sub->add_option("--seed-mode", opt->seed_mode, "same, per-tier or per-switch (seeds derived by SplitMix64)")
      ->check(one_of(kSeedModes));
  sub->add_option("--sport-base", opt->sport_base, "Bases A:B[:STEP] of the \"range\" source-port model");
  sub->add_option("--qpn-base", opt->qpn_base, "First QP numbers A:B[:STEP]");
  sub->add_option("--qps", opt->qps, "QPs per connection, a list: 1,2,4")->type_name("N,...");
  sub->add_option("--algos", opt->algos, "Hash algorithms, a list: crc16-ccitt,xxh3")->type_name("NAME,...");
  sub->add_option("--placement-seeds", opt->placement_seeds, "Seeds A:B of a \"random\" rank placement");
  sub->add_option("--scenario", opt->scenario, "Scenario(s) to sweep; default every ECMP scenario, or the first")
      ->type_name("NAME,...");
  sub->add_option("-j,--threads", opt->threads, "Threads")->default_str("all cores")->check(integer_in(1, 4096));
  sub->add_option("--metric", opt->metric,
                  "Metric ranking best and worst, and for --threshold: fim, max_mean, cov, jain, max_flows, "
                  "slowdown, or with a size table busbw_at (GB/s at --busbw-at) or busbw_avg (GB/s, mean over "
                  "the sizes) (default fim)")
      ->check(one_of(kSweepMetricNames));
  sub->add_option("--rank-by", opt->rank_by,
                  "Rank one axis by the mean of --metric over the --over axes, best first, with each value's mean, "
                  "p90, min and max; a note when the best-vs-worst gap is within the nuisance spread. Axes: " +
                      axis_help())
      ->check(one_of(kSweepAxes));
  sub->add_option("--over", opt->over,
                  "The nuisance axes of --rank-by, a list (e.g. qpn-base,placement-seeds); default every other swept "
                  "axis but scenario and algos");
  sub->add_option("--threshold", opt->threshold, "Report the fraction of variants whose metric is above this")
      ->check(number_at_least(0));
  sub->add_flag("--no-slowdown", opt->no_slowdown,
                "Skip the flow model: no predicted slowdown, faster on large fabrics");
  sub->add_option("--max-variants", opt->max_variants, "Refuse larger sweeps without --force")
      ->default_str("10000000 variants")
      ->check(integer_in(1, ~0ULL >> 1));
  sub->add_flag("--force", opt->force, "Run a sweep larger than --max-variants");
  sub->add_option("--bins", opt->bins, "Histogram bins")->check(integer_in(1, 10000));
  sub->add_flag("--pooled", opt->pooled,
                "Also summarize every scenario and algorithm together (each is always summarized on its own)");
  add_size_flags(sub, opt->sizes);
  sub->add_option("--busbw-at", opt->busbw_at,
                  "Message size of the busbw_at metric (default: the largest of -b/-e or sizes)")
      ->transform(byte_size());
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  add_checkpoint_flags(sub, opt->checkpoint);
  sub->add_option("--shard", opt->shard,
                  "Run shard I of N (I/N), or this Slurm job-array task's (slurm: SLURM_ARRAY_TASK_ID, _COUNT, _MIN, "
                  "_STEP), saving it to --checkpoint's FILE.rank-I-of-N, resumed when there; no output: merge "
                  "finished shards with --resume FILE")
      ->type_name("I/N|slurm");
  add_limit_flags(sub, opt->limits);
}

// Every rank sets up the same sweep under mpirun; all fail together or none
// does. Also the output's and the ranking's checks, before the work.
std::unique_ptr<const Sweep> set_up(const SweepOptions& o, const Ranks* ranks, std::optional<RankSpec>& rank) {
  std::unique_ptr<const Sweep> sweep;
  const auto setup = [&] {
    const std::string path = o.config.empty() ? default_config_path() : o.config;
    sweep = make_sweep(o, load_spec(path, o.limits), path);
    rank = rank_spec_from(o, sweep->space());
  };
  // Rank 0 alone writes the output; the others wait for it in the sweep, so
  // an unwritable --out must fail every rank (agree), not rank 0 alone.
  const auto check_output_target = [&] {
    if (ranks == nullptr || ranks->rank() == 0) check_out(o.out, spec_inputs(sweep->base().spec()));
  };
  for (const auto& step : {std::function<void()>(setup), std::function<void()>(check_output_target)}) {
    if (ranks != nullptr)
      ranks->agree(step);
    else
      step();
  }
  return sweep;
}

// The report of a finished or stopped run, written first; then the
// checkpoint's last save (or, the run whole, the default checkpoint's
// removal): a failing output keeps the checkpoint.
int report(const SweepOptions& o, const Sweep& sweep, const SweepRun& run, const std::optional<RankSpec>& rank,
           SweepCheckpoint* single, const std::optional<std::string>& checkpoint, int stopped_code, Io io) {
  const SweepSummaries summaries = summarize_sweep(o, sweep, run, rank);
  try {
    emit(io, write(chosen_format(o.format), sweep_result(summaries.report(sweep, run))), o.out,
         spec_inputs(sweep.base().spec()));
  } catch (...) {
    if (single != nullptr) single->finish(run, false);
    throw;
  }
  if (single != nullptr) single->finish(run, true);
  if (!run.interrupted) return 0;
  io.err << "ecmpsim: interrupted: reported the first " << run.done << " of " << sweep.space().size() << " variants"
         << (checkpoint ? "; saved to " + *checkpoint + ": run the same command again to continue" : std::string())
         << "\n";
  return stopped_code;
}

int sweep_main(const SweepOptions& o, Io io) {
  const Ranks* ranks = io.ranks != nullptr && io.ranks->size() > 1 ? io.ranks : nullptr;
  std::optional<RankSpec> rank;
  const std::unique_ptr<const Sweep> sweep = set_up(o, ranks, rank);
  const CheckpointId id = checkpoint_id(*sweep, size_flags_text(o.sizes));
  // Before the work: what the checkpoint resumes, and that it can be saved.
  std::optional<Shard> shard;
  if (!o.shard.empty()) shard = shard_of(o, ranks != nullptr);
  std::optional<SweepCheckpoint> single;
  if (ranks == nullptr && !shard) single.emplace(o.checkpoint, o.out, *sweep, id, io.err);
  std::optional<std::string> checkpoint = single ? single->path() : std::nullopt;
  const unsigned threads = o.threads ? o.threads : default_threads();
  SweepControl control;
  SweepRun run;
  ShardRun shard_run;
  int stopped_by = 0;
  {
    const bool tty = ranks != nullptr ? ranks->terminal() : &io.err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
    const Monitor monitor(control, sweep->space().size(), tty, stopped_by);
    if (shard)
      shard_run = run_shard(*sweep, *shard, o.checkpoint.checkpoint, id, o.checkpoint.every, threads, control,
                            spec_inputs(sweep->base().spec()), io.err);
    else
      run = ranks != nullptr ? run_checkpointed_on_ranks(o.checkpoint, o.out, *sweep, threads, control, id, *ranks,
                                                         io.err, checkpoint)
                             : single->run(threads, control);
  }
  // The shell's code for the signal that stopped it; SIGUSR1 (mpirun's
  // forwarded stop) as Ctrl-C's.
  const int stopped_code = stopped_by == SIGTERM || stopped_by == SIGHUP ? 128 + stopped_by : 130;
  if (shard) return shard_done(io, *shard, shard_run, stopped_code);
  if (ranks != nullptr && ranks->rank() != 0) return run.interrupted ? stopped_code : 0;
  return report(o, *sweep, run, rank, single ? &*single : nullptr, checkpoint, stopped_code, io);
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepOptions>();
  add_sweep_flags(app, opt.get());
  return [opt](Io io) { return sweep_main(*opt, io); };
}

}  // namespace ecmpsim::cli
