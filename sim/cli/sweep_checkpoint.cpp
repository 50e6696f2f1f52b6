#include "sim/cli/sweep_checkpoint.h"

#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
#include "sim/base/text.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/rank_checkpoints.h"

#ifndef ECMPSIM_VERSION
#define ECMPSIM_VERSION "dev"
#endif

namespace ecmpsim::cli {
namespace {

// The default checkpoint is written only for a sweep predicted to take longer than this.
constexpr double kDefaultCheckpointAfter = 60.0;

// What --resume FILE holds as a run: FILE, a single process's checkpoint;
// else the finished prefix of the MPI rank files FILE.rank-R-of-N.
SweepRun read_resume(const std::string& file, const CheckpointId& id, std::size_t jobs, std::uint64_t total) {
  if (std::filesystem::exists(file)) return read_checkpoint(file, id, jobs, total);
  RankCheckpoints ranks = read_rank_checkpoints(file, id, jobs, total, true);
  SweepRun run;
  run.done = ranks.prefix();
  run.decisions = ranks.merged.decisions;
  run.values = ValueTable(jobs);
  run.values.resize(total);
  if (run.done > 0) std::memcpy(run.values.data(), ranks.merged.values.data(), run.done * run.values.width() * sizeof(double));
  run.interrupted = run.done < total;
  return run;
}

}  // namespace

void add_checkpoint_flags(CLI::App* sub, CheckpointFlags& f) {
  sub->add_option("--checkpoint", f.checkpoint,
                  "Save the finished variants to FILE every few seconds (atomically), on a stop and at the end; "
                  "default OUT.checkpoint beside --out for a sweep predicted to run over a minute; under mpirun each rank "
                  "saves its share to FILE.rank-R-of-N (no default)")
      ->type_name("FILE");
  sub->add_option("--resume", f.resume,
                  "Continue the sweep a checkpoint FILE saved (same config, axes and version); the output is "
                  "byte-identical to an uninterrupted run. Saves to FILE unless --checkpoint names another. Under mpirun, "
                  "or when FILE is absent, reads FILE's rank files FILE.rank-R-of-N, at any rank count")
      ->type_name("FILE");
  sub->add_flag("--no-checkpoint", f.off, "Write no default checkpoint beside --out");
  sub->add_option("--checkpoint-every", f.every,
                  "Seconds between checkpoints (longer while saving would take over 1.5% of the sweep's time)")
      ->default_str("5")
      ->check(number_at_least(0.001));
}

CheckpointId checkpoint_id(const Sweep& sweep, const std::string& sizes) {
  const Spec& spec = sweep.base().spec();
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  for (const std::string& path : spec_inputs(spec)) {
    if (path.empty()) continue;
    const std::string bytes =
        read_input_file(path, {path, 0, 0, {}}, "config input", {spec.limits.max_config_bytes, "--max-config-bytes"});
    const std::uint64_t size = bytes.size();  // lengths too, so moving bytes between files is a change
    XXH64_update(state, &size, sizeof size);
    XXH64_update(state, bytes.data(), bytes.size());
  }
  XXH64_update(state, sizes.data(), sizes.size());
  const std::uint64_t digest = XXH64_digest(state);
  XXH64_freeState(state);
  Json axes = axes_json(sweep.space());
  axes["slowdown"] = sweep.space().axes().slowdown;
  axes["busbw_at"] = sweep.space().axes().busbw_at.value;
  return {{"version", ECMPSIM_VERSION},
          {"config", "xxh64:" + xxh64_text(digest)},
          {"axes", json_text(axes, -1)},
          {"variants", std::to_string(sweep.space().size())}};
}

SweepRun run_checkpointed(const CheckpointFlags& f, const std::string& out, const Sweep& sweep, unsigned threads,
                          SweepControl& control, const CheckpointId& id, std::ostream& err,
                          std::optional<std::string>& written) {
  const std::uint64_t total = sweep.space().size();
  const bool by_default = f.checkpoint.empty() && f.resume.empty();
  const bool beside_out = !out.empty() && out != "-" && output_kind(out) == OutputKind::Replace;
  if (by_default && (f.off || !beside_out)) return run_sweep(sweep, 0, total, threads, &control);
  const std::string path = !f.checkpoint.empty() ? f.checkpoint : !f.resume.empty() ? f.resume : out + ".checkpoint";
  if (path == out) throw InputError({{}, 0, 0, "--checkpoint"}, "the checkpoint would replace --out '" + out + "'");
  const std::vector<std::string> inputs = spec_inputs(sweep.base().spec(), {out});
  SweepRun run;
  if (!f.resume.empty()) {
    run = read_resume(f.resume, id, sweep.base().jobs().size(), total);
  } else {
    run.values = ValueTable(sweep.base().jobs().size());
    run.values.resize(total);
  }
  control.finished.store(run.done);
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t first = run.done;
  Checkpointing c;
  c.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(f.every));
  c.save = [&](const SweepRun& now) {
    if (by_default && !written) {
      // Predicted from this run's own rate: the default is for sweeps long enough to lose.
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double rate = static_cast<double>(now.done - first) / std::max(elapsed, 1e-9);
      if (rate > 0 && static_cast<double>(total - first) / rate <= kDefaultCheckpointAfter) return;
      err << "ecmpsim: checkpointing to " << escape_text(path) << " (continue a stopped sweep with --resume "
          << shell_quote(path) << ")\n";
    }
    write_checkpoint(path, id, now, inputs);
    written = path;
  };
  continue_sweep(sweep, run, threads, control, c);
  run.values.resize(run.done);
  return run;
}

SweepRun run_checkpointed_on_ranks(const CheckpointFlags& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   std::optional<std::string>& written) {
  if (f.checkpoint.empty() && f.resume.empty()) return ranks.run_sweep(sweep, threads, control, nullptr);
  const std::string base = !f.checkpoint.empty() ? f.checkpoint : f.resume;
  const std::size_t jobs = sweep.base().jobs().size();
  const std::vector<std::string> inputs = spec_inputs(sweep.base().spec(), {out});
  RankCheckpointing ck;
  ck.share.values = ValueTable(jobs);
  ranks.agree([&] {
    if (base == out) throw InputError({{}, 0, 0, "--checkpoint"}, "the checkpoint would replace --out '" + out + "'");
    if (!f.resume.empty()) {
      RankCheckpoints old = read_rank_checkpoints(f.resume, id, jobs, sweep.space().size(), ranks.rank() == 0);
      ck.finished = std::move(old.finished);
      if (ranks.rank() == 0) ck.share = std::move(old.merged);
    }
    ck.stale = rank_checkpoint_files(base, ranks.size());
    // A single process's checkpoint at BASE: carried over by rank 0 when resumed, else of an earlier sweep.
    if (std::filesystem::exists(base)) ck.stale.push_back(base);
  });
  ck.share.rank = ranks.rank();
  ck.share.ranks = ranks.size();
  ck.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(f.every));
  const std::string path = rank_checkpoint_path(base, ranks.rank(), ranks.size());
  ck.save = [&](const CheckpointShare& share) { write_checkpoint_share(path, id, share, inputs); };
  written = base;
  return ranks.run_sweep(sweep, threads, control, &ck);
}

void remove_default_checkpoint(const CheckpointFlags& f, const std::optional<std::string>& written) {
  if (written && f.checkpoint.empty() && f.resume.empty()) std::remove(written->c_str());
}

}  // namespace ecmpsim::cli
