#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <pthread.h>
#include <thread>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/ranks.h"
#include "sim/cli/size_flags.h"
#include "sim/cli/sweep_checkpoint.h"
#include "sim/cli/sweep_setup.h"
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

// "scenario: the scenarios (--scenario); algos: ...", from the axis table.
std::string axis_help() {
  std::string out;
  for (const auto& row : kSweepAxes)
    out += (out.empty() ? "" : "; ") + std::string(row.name) + ": " + std::string(row.doc);
  return out;
}

}  // namespace

Action add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepOptions>();
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
  add_limit_flags(sub, opt->limits);
  return [opt](Io io) {
    // Under mpirun every rank sets up the same sweep; all fail together or none does.
    const Ranks* ranks = io.ranks != nullptr && io.ranks->size() > 1 ? io.ranks : nullptr;
    std::unique_ptr<const Sweep> sweep;
    std::optional<RankSpec> rank;
    const auto setup = [&] {
      const std::string path = opt->config.empty() ? default_config_path() : opt->config;
      sweep = make_sweep(*opt, load_spec(path, opt->limits), path);
      rank = rank_spec_from(*opt, sweep->space());
    };
    if (ranks != nullptr)
      ranks->agree(setup);
    else
      setup();
    const VariantSpace& space = sweep->space();
    // Rank 0 alone writes the output; the others wait for it in the sweep, so
    // an unwritable --out must fail every rank (agree), not rank 0 alone.
    const auto check_output_target = [&] {
      if (ranks == nullptr || ranks->rank() == 0) check_out(opt->out, spec_inputs(sweep->base().spec()));
    };
    if (ranks != nullptr)
      ranks->agree(check_output_target);
    else
      check_output_target();
    const CheckpointId id = checkpoint_id(*sweep, size_flags_text(opt->sizes));
    // Before the work: what the checkpoint resumes, and that it can be saved.
    std::optional<SweepCheckpoint> single;
    if (ranks == nullptr) single.emplace(opt->checkpoint, opt->out, *sweep, id, io.err);
    std::optional<std::string> checkpoint = single ? single->path() : std::nullopt;
    const unsigned threads = opt->threads ? opt->threads : default_threads();
    SweepControl control;
    SweepRun run;
    int stopped_by = 0;
    {
      const bool tty = ranks != nullptr ? ranks->terminal() : &io.err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
      const Monitor monitor(control, space.size(), tty, stopped_by);
      run = ranks != nullptr ? run_checkpointed_on_ranks(opt->checkpoint, opt->out, *sweep, threads, control, id,
                                                         *ranks, io.err, checkpoint)
                             : single->run(threads, control);
    }
    // The shell's code for the signal that stopped it; SIGUSR1 (mpirun's
    // forwarded stop) as Ctrl-C's.
    const int stopped_code = stopped_by == SIGTERM || stopped_by == SIGHUP ? 128 + stopped_by : 130;
    if (ranks != nullptr && ranks->rank() != 0) return run.interrupted ? stopped_code : 0;
    const SweepSummaries summaries = summarize_sweep(*opt, *sweep, run, rank);
    const SweepReport report = summaries.report(*sweep, run);
    // The output first, then the checkpoint's last save (or, the run whole,
    // the default checkpoint's removal): a failing output keeps the checkpoint.
    try {
      emit(io, chosen_format(opt->format), sweep_result(report), opt->out, spec_inputs(sweep->base().spec()));
    } catch (...) {
      if (single) single->finish(run, false);
      throw;
    }
    if (single) single->finish(run, true);
    if (run.interrupted) {
      io.err << "ecmpsim: interrupted: reported the first " << run.done << " of " << space.size() << " variants"
             << (checkpoint ? "; saved to " + escape_text(*checkpoint) + ": run the same command again to continue"
                            : std::string())
             << "\n";
      return stopped_code;
    }
    return 0;
  };
}

}  // namespace ecmpsim::cli
