// `ecmpsim sweep`: its flags, as app::SweepRequest (sim/app/sweep.h); the
// job run while its stop signals (sim/app/stop_signals.h) are watched and
// the progress bar drawn; the output written, then the checkpoint finished.
#include <cstdio>
#include <functional>
#include <optional>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "sim/app/plan.h"
#include "sim/app/stop_signals.h"
#include "sim/app/sweep.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/progress_line.h"
#include "sim/cli/size_flags.h"
#include "sim/routing/seeds.h"

namespace ecmpsim::cli {
namespace {

struct SweepOptions {
  app::SweepRequest q;
  std::string format;
  std::optional<app::PlanRequest> plan;  // `plan`: the sweep's rows grouped per choice
  app::Plan chosen;
};

void add_checkpoint_flags(CLI::App* sub, app::SweepCheckpointing& f) {
  sub->add_option("--checkpoint", f.checkpoint,
                  "Add the finished variants to FILE as the sweep runs (a kill loses at most about --checkpoint-every "
                  "of work), on a stop and after the output; "
                  "a FILE of this sweep is resumed (run the same command again), another sweep's is refused, never "
                  "replaced; default OUT.checkpoint beside --out (removed once the output is written); under mpirun "
                  "each rank saves its share to FILE.rank-R-of-N (no default)")
      ->type_name("FILE")
      ->check(file_role(FileRole::Checkpoint));
  sub->add_option("--resume", f.resume,
                  "Continue the sweep a checkpoint FILE saved (same build, config, axes); the output is "
                  "byte-identical to an uninterrupted run. Saves to FILE unless --checkpoint names another. Under mpirun, "
                  "or when FILE is absent, reads FILE's rank files FILE.rank-R-of-N (MPI ranks' or --shard's), at any "
                  "count: merges job-array shards")
      ->type_name("FILE")
      ->check(file_role(FileRole::Resume));
  sub->add_flag("--no-checkpoint", f.off, "Write no default checkpoint beside --out");
  sub->add_option("--checkpoint-every", f.every,
                  "About the most seconds of work a kill loses: the longest time between saves (longer only while "
                  "saving would take over 1.5% of the sweep's time in CPU)")
      ->default_str("5")
      ->check(number_at_least(0.001));
}

// "scenario: the scenarios (--scenario); algos: ...", from the axis table.
std::string axis_help() {
  std::string out;
  for (const auto& row : kSweepAxes)
    out += (out.empty() ? "" : "; ") + std::string(row.name) + ": " + std::string(row.doc);
  return out;
}

// The command and its flags, bound to `opt`; `plan` has sweep's and its own.
void add_sweep_flags(CLI::App& app, SweepOptions* opt) {
  app::SweepRequest& q = opt->q;
  CLI::App* sub = opt->plan ? app.add_subcommand("plan", "Choose the first --choose value that meets --target in --confidence of the variants")
                            : app.add_subcommand("sweep", "Evaluate the cartesian product of seeds, ports, QPs, algorithms "
                                                          "and placements in parallel; report the imbalance distribution");
  if (opt->plan) {
    sub->add_option("--choose", opt->plan->choose, "Cheapest first; AXIS: qps, algos or scenario")->type_name("AXIS=V1,...");
    sub->add_option("--target", opt->plan->target, "A --metric and a bound (>=, <=, >, <): busbw_at>=300")->type_name("METRIC>=X");
    sub->add_option("--confidence", opt->plan->confidence, "Fraction of the variants to meet it")->default_str("0.9");
  }
  sub->add_option("config", q.config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_option("--seeds", q.seeds, "ECMP seeds A:B (half-open)");
  sub->add_option("--seed-mode", q.seed_mode, "same, per-tier or per-switch (seeds derived by SplitMix64)")
      ->check(one_of(kSeedModes));
  sub->add_option("--sport-base", q.sport_base, "Bases A:B[:STEP] of the \"range\" source-port model");
  sub->add_option("--qpn-base", q.qpn_base, "First QP numbers A:B[:STEP]");
  sub->add_option("--qps", q.qps, "QPs per connection, a list: 1,2,4")->type_name("N,...");
  sub->add_option("--algos", q.algos, "Hash algorithms, a list: crc16-ccitt,xxh3")->type_name("NAME,...");
  sub->add_option("--placement-seeds", q.placement_seeds, "Seeds A:B of a \"random\" rank placement");
  sub->add_option("--scenario", q.scenario, "Scenario(s) to sweep; default every ECMP scenario, or the first")
      ->type_name("NAME,...");
  sub->add_option("-j,--threads", q.threads, "Threads")->default_str("all cores")->check(integer_in(1, 4096));
  sub->add_option("--metric", q.metric,
                  "Metric ranking best and worst, and for --threshold: fim, max_mean, cov, jain, max_flows, "
                  "slowdown, or with a size table busbw_at (GB/s at --busbw-at) or busbw_avg (GB/s, mean over "
                  "the sizes) (default fim)")
      ->check(one_of(kSweepMetricNames));
  sub->add_option("--rank-by", q.rank_by,
                  "Rank one axis by the mean of --metric over the --over axes, best first, with each value's mean, "
                  "p90, min and max; a note when the best-vs-worst gap is within the nuisance spread. Axes: " +
                      axis_help())
      ->check(one_of(kSweepAxes));
  sub->add_option("--over", q.over,
                  "The nuisance axes of --rank-by, a list (e.g. qpn-base,placement-seeds); default every other swept "
                  "axis but scenario and algos");
  sub->add_option("--threshold", q.threshold, "Report the fraction of variants whose metric is above this")
      ->check(number_at_least(0));
  sub->add_flag("--no-slowdown", q.no_slowdown,
                "Skip the flow model: no predicted slowdown, faster on large fabrics");
  sub->add_option("--max-variants", q.max_variants, "Refuse larger sweeps without --force")
      ->default_str("10000000 variants")
      ->check(integer_in(1, ~0ULL >> 1));
  sub->add_flag("--force", q.force, "Run a sweep larger than --max-variants");
  sub->add_option("--bins", q.bins, "Histogram bins")->check(integer_in(1, 10000));
  sub->add_flag("--pooled", q.pooled,
                "Also summarize every scenario and algorithm together (each is always summarized on its own)");
  add_size_flags(sub, q.sizes);
  sub->add_option("--busbw-at", q.busbw_at,
                  "Message size of the busbw_at metric (default: the largest of -b/-e or sizes)")
      ->transform(byte_size());
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, q.out, "the output");
  add_checkpoint_flags(sub, q.checkpoint);
  sub->add_option("--shard", q.checkpoint.shard,
                  "Run shard I of N (I/N), or this Slurm job-array task's (slurm: SLURM_ARRAY_TASK_ID, _COUNT, _MIN, "
                  "_STEP), saving it beside --checkpoint as its rank file (.rank-I-of-N), resumed when there; no "
                  "output: merge the finished shards with --resume and the same name")
      ->type_name("I/N|slurm");
  add_limit_flags(sub, q.limits);
}

// The shard's one line on stderr: what it holds, and how to go on.
int shard_done(Io io, const app::Shard& s, const app::ShardRun& r, int stopped_code) {
  io.err << "ecmpsim: shard " << s.index << " of " << s.count << ": " << r.held + r.evaluated << " of " << r.variants
         << " variants saved in " << escape_text(r.path) << " (" << r.evaluated << " evaluated now)"
         << (r.stopped ? "; interrupted: run the same command again to continue"
                       : "; merge the shards with --resume and the --checkpoint FILE")
         << "\n";
  return r.stopped ? stopped_code : 0;
}

// The report of a finished or stopped run, written first; then the
// checkpoint's last save (or, the run whole, the default checkpoint's
// removal): a failing output keeps the checkpoint.
int report(const SweepOptions& o, app::SweepJob& job, int stopped_code, Io io) {
  const Sweep& sweep = *job.sweep();
  const SweepRun& run = *job.result();
  const app::SweepSummaries summaries = job.summaries();
  try {
    const auto plan = o.plan ? std::optional(app::plan_report(o.chosen, sweep, run)) : std::nullopt;
    emit(io, chosen_format(o.format), plan ? plan_result(*plan) : sweep_result(summaries.report(sweep, run)), o.q.out, job.inputs());
  } catch (...) {
    job.finish(false);
    throw;
  }
  job.finish(true);
  if (!run.interrupted) return 0;
  const auto& checkpoint = job.checkpoint();
  io.err << "ecmpsim: interrupted: reported the first " << run.done << " of " << sweep.space().size() << " variants"
         << (checkpoint ? "; saved to " + escape_text(*checkpoint) + ": run the same command again to continue" : std::string())
         << "\n";
  return stopped_code;
}

int sweep_main(SweepOptions o, Io io) {
  o.q.csv = chosen_format(o.format) == Format::Csv;
  if (o.plan) o.q = app::plan_sweep(o.chosen = app::parse_plan(*o.plan, o.q), o.q);
  const app::Ranks* ranks = io.ranks != nullptr && io.ranks->size() > 1 ? io.ranks : nullptr;
  std::ostream& err = io.err;
  SweepControl control;
  int stopped_by = 0;
  // Stop signals are taken before the job is built (its checkpoint file appears then): a SIGTERM right after must save.
  std::atomic<std::uint64_t> total{0};
  bool drawn = false;
  std::function<void(double)> bar;
  if (ranks != nullptr ? ranks->terminal() : &io.err == &std::cerr && ::isatty(STDERR_FILENO) == 1)
    bar = [&](double elapsed) {
      if (elapsed < 1.0 || total.load() == 0) return;
      draw_sweep_bar(control.finished.load(), total.load(), elapsed);
      drawn = true;
    };
  std::optional<app::SweepJob> job;
  {
    const app::StopSignals signals(control.stop, stopped_by, bar);
    job.emplace(o.q, ranks,
                [&err](const std::string& line) { err << "ecmpsim: " << spell_options(line, flag_spelling) << "\n"; });
    total.store(job->sweep()->space().size());
    job->run(control);
  }
  if (drawn) std::fprintf(stderr, "\r\033[K");
  const int stopped_code = app::StopSignals::exit_code(stopped_by);
  if (job->shard()) return shard_done(io, *job->shard(), job->shard_run(), stopped_code);
  if (ranks != nullptr && ranks->rank() != 0) return job->result()->interrupted ? stopped_code : 0;
  return report(o, *job, stopped_code, io);
}

Action add_command(CLI::App& app, bool plan) {
  auto opt = std::make_shared<SweepOptions>();
  if (plan) opt->plan.emplace();
  add_sweep_flags(app, opt.get());
  return [opt](Io io) { return sweep_main(*opt, io); };
}

}  // namespace

Action add_sweep_command(CLI::App& app) { return add_command(app, false); }
Action add_plan_command(CLI::App& app) { return add_command(app, true); }

}  // namespace ecmpsim::cli
