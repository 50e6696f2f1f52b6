// `sweep`: the variants of a config's [sweep] axes (overridden option by
// option) evaluated on every core, checkpointed as they finish, and
// summarized; for every front door (the command line, the Python module).
// A SweepJob is made before the work, which checks everything a long run
// could otherwise fail on at its end (the config, the axes, the ranking, the
// output's target, the checkpoint: resumed, refused or created writable);
// run() does the work; the door writes the output from summaries(); finish()
// then makes the checkpoint's last save, or removes a default one: it is
// never gone before the output is written (docs/sweeps.md, "Checkpoints").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/ranks.h"
#include "sim/app/sizes.h"
#include "sim/app/sweep_shard.h"
#include "sim/base/limits.h"
#include "sim/config/spec.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_rank.h"

namespace ecmpsim::app {

// Where the finished variants are saved and what is resumed.
struct SweepCheckpointing {
  std::string checkpoint;  // FILE: resumed when it holds this sweep, refused when another's, else created
  std::string resume;      // FILE (or its rank files) to continue or merge; saved to unless `checkpoint` is named
  bool off = false;        // no default checkpoint OUT.checkpoint beside `out`
  double every = 5;        // seconds: about the most work a kill loses
  std::string shard;       // "I/N" or "slurm": one shard, saved to checkpoint's FILE.rank-I-of-N; no output
};

struct SweepRequest {
  Limits limits;
  std::string config;  // empty: default_config_path()
  // Each axis as its option's text ("0:1000", "crc16-ccitt,xxh3"); empty: the config's.
  std::string seeds, seed_mode, sport_base, qpn_base, qps, algos, placement_seeds, scenario;
  unsigned threads = 0;  // 0: every core
  std::optional<double> threshold;
  std::string metric;
  const char* metric_key = "metric";  // the option `metric` came from, for its errors (plan: "target")
  std::string rank_by, over;
  bool no_slowdown = false;
  std::optional<std::uint64_t> max_variants;
  bool force = false;
  bool pooled = false;
  unsigned bins = 20;
  bool csv = false;  // the door writes CSV, one row per variant: no ranking there
  std::string out;   // where the door will write: checked before the work; its default checkpoint beside it
  SizeFlags sizes;
  std::optional<std::uint64_t> busbw_at;
  SweepCheckpointing checkpoint;
};

// What a finished (or interrupted) run is summarized into; report() borrows
// the sweep, the run and this, which must outlive it.
struct SweepSummaries {
  std::vector<SweepSummary> each;
  std::optional<SweepSummary> pooled;
  std::vector<std::string> notes;
  std::optional<SweepRanking> ranking;
  SweepReport report(const Sweep& sweep, const SweepRun& run) const {
    return {sweep, run, each, pooled ? &*pooled : nullptr, notes, ranking ? &*ranking : nullptr};
  }
};

class SweepCheckpoint;

class SweepJob {
 public:
  // A line for the user while the job runs ("note: resuming from ...",
  // "warning: the checkpoint was not saved: ..."), without the door's prefix.
  using Notice = std::function<void(const std::string&)>;
  // Loads request.config, or takes `spec` (request.config and limits
  // unused); under mpirun (`ranks`) every rank sets up alike and all fail
  // together. InputError naming the option or file at fault.
  SweepJob(const SweepRequest& request, const Ranks* ranks, Notice notice);
  SweepJob(Spec spec, const SweepRequest& request, const Ranks* ranks, Notice notice);
  ~SweepJob();
  SweepJob(const SweepJob&) = delete;
  SweepJob& operator=(const SweepJob&) = delete;

  const std::shared_ptr<const Sweep>& sweep() const noexcept { return sweep_; }
  // One shard of a job array (checkpoint.shard): run() saves it to its rank
  // file, and there is no output, summary or finish.
  const std::optional<Shard>& shard() const noexcept { return shard_; }
  // Where this run saves its finished variants (none: no checkpoint).
  const std::optional<std::string>& checkpoint() const noexcept { return checkpoint_path_; }

  // Evaluates what no checkpoint held, on `threads` threads (0: every
  // core); control.stop ends it early, control.finished counts the variants
  // done (resumed ones included). Saves as it goes: a kill loses at most
  // about checkpoint.every seconds of work; a save that fails later warns
  // (once) and the work goes on.
  void run(SweepControl& control);
  // The run: its finished prefix (every variant on rank 0 of an MPI run; none on the others).
  const std::shared_ptr<const SweepRun>& result() const noexcept { return run_; }
  const ShardRun& shard_run() const noexcept { return shard_run_; }
  SweepSummaries summaries() const;
  // The files read: what no output may replace.
  const std::vector<std::string>& inputs() const noexcept { return inputs_; }
  // After the door wrote the output (`written`) or failed to: the
  // checkpoint's last save, synced, or (the run whole and written) a
  // default checkpoint's removal.
  void finish(bool written);

 private:
  SweepJob(std::optional<Spec> spec, const SweepRequest& request, const Ranks* ranks, Notice notice);

  SweepRequest request_;
  const Ranks* ranks_;
  Notice notice_;
  std::shared_ptr<const Sweep> sweep_;
  std::optional<RankSpec> rank_;
  std::vector<std::string> inputs_;
  CheckpointId id_;
  std::optional<Shard> shard_;
  std::unique_ptr<SweepCheckpoint> single_;
  std::optional<std::string> checkpoint_path_;
  std::shared_ptr<const SweepRun> run_;
  ShardRun shard_run_;
};

}  // namespace ecmpsim::app
