// `sweep` (see sweep.h): the job's checks before the work, the run over a
// single process's checkpoint, MPI ranks or one shard, its summaries, and
// the checkpoint's end after the output.
#include "sim/app/sweep.h"

#include <cstdlib>
#include <functional>

#include "sim/app/load.h"
#include "sim/app/sweep_checkpoint.h"
#include "sim/app/sweep_setup.h"
#include "sim/base/error.h"
#include "sim/base/parallel.h"

namespace ecmpsim::app {
namespace {

// A shard's options checked before the work: it saves to the checkpoint's
// rank file and writes no output; it is one process of a job array.
Shard shard_of(const SweepRequest& q, bool mpi) {
  const SourcePos at = option_at("shard");
  if (mpi) throw InputError(at, "a shard is one task of a job array; under mpirun the ranks share the sweep themselves");
  if (q.checkpoint.checkpoint.empty())
    throw InputError(at, "needs " + option_ref("checkpoint") + " FILE: the shard saves its variants to FILE.rank-I-of-N");
  if (!q.checkpoint.resume.empty())
    throw InputError(option_at("resume"), "merges finished shards: run it without " + option_ref("shard"));
  if (!q.out.empty())
    throw InputError(option_at("out"), "a shard writes no output, only its rank file: merge the shards with " +
                                           option_ref("resume") + " FILE " + option_ref("out") + " OUT");
  return parse_shard(q.checkpoint.shard, [](const char* name) { return std::getenv(name); });
}

}  // namespace

SweepJob::SweepJob(const SweepRequest& request, const Ranks* ranks, Notice notice)
    : SweepJob(std::nullopt, request, ranks, std::move(notice)) {}

SweepJob::SweepJob(Spec spec, const SweepRequest& request, const Ranks* ranks, Notice notice)
    : SweepJob(std::optional<Spec>(std::move(spec)), request, ranks, std::move(notice)) {}

SweepJob::SweepJob(std::optional<Spec> spec, const SweepRequest& request, const Ranks* ranks, Notice notice)
    : request_(request), ranks_(ranks != nullptr && ranks->size() > 1 ? ranks : nullptr), notice_(std::move(notice)) {
  const auto setup = [&] {
    const std::string path = spec ? spec->source : request_.config.empty() ? default_config_path() : request_.config;
    sweep_ = make_sweep(request_, spec ? std::move(*spec) : load_spec(path, request_.limits), path);
    rank_ = rank_spec_from(request_, sweep_->space());
    inputs_ = spec_inputs(sweep_->base().spec());
  };
  // Rank 0 alone writes the output; the others wait for it in the sweep, so
  // an unwritable output must fail every rank (agree), not rank 0 alone.
  const auto check_output_target = [&] {
    if (ranks_ == nullptr || ranks_->rank() == 0) check_out(request_.out, inputs_);
  };
  for (const auto& step : {std::function<void()>(setup), std::function<void()>(check_output_target)}) {
    if (ranks_ != nullptr)
      ranks_->agree(step);
    else
      step();
  }
  // The identity digests the config's files: only where a checkpoint may be
  // (a config given as text, Python's load(), has no file to digest).
  const SweepCheckpointing& c = request_.checkpoint;
  if (!c.checkpoint.empty() || !c.resume.empty() || !c.shard.empty() || (!request_.out.empty() && !c.off))
    id_ = checkpoint_id(*sweep_, request_.sizes);
  // Before the work: what the checkpoint resumes, and that it can be saved.
  if (!request_.checkpoint.shard.empty()) shard_ = shard_of(request_, ranks_ != nullptr);
  if (ranks_ == nullptr && !shard_) {
    single_ = std::make_unique<SweepCheckpoint>(request_.checkpoint, request_.out, *sweep_, id_, notice_);
    checkpoint_path_ = single_->path();
  }
}

SweepJob::~SweepJob() = default;

void SweepJob::run(SweepControl& control) {
  const unsigned threads = request_.threads ? request_.threads : default_threads();
  const SweepCheckpointing& c = request_.checkpoint;
  if (shard_) {
    shard_run_ = run_shard(*sweep_, *shard_, c.checkpoint, id_, c.every, threads, control, inputs_, notice_);
    return;
  }
  run_ = std::make_shared<const SweepRun>(
      ranks_ != nullptr
          ? run_checkpointed_on_ranks(c, request_.out, *sweep_, threads, control, id_, *ranks_, notice_, checkpoint_path_)
          : single_->run(threads, control));
}

SweepSummaries SweepJob::summaries() const { return summarize_sweep(request_, *sweep_, *run_, rank_); }

void SweepJob::finish(bool written) {
  if (single_ != nullptr && run_ != nullptr) single_->finish(*run_, written);
}

}  // namespace ecmpsim::app
