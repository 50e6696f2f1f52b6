// One shard of a sweep (see sweep_shard.h): the shard parsed, its variants,
// and its run saved to its rank file.
#include "sim/app/sweep_shard.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "sim/base/error.h"
#include "sim/base/parse.h"
#include "sim/sweep/rank_checkpoints.h"

namespace ecmpsim::app {
namespace {

// Blocks per shard: enough that every shard samples the whole numbering.
constexpr std::uint64_t kBlocksPerShard = 64;
// More shards than anyone runs, and what a rank file's header allows.
constexpr std::uint64_t kMaxShards = std::uint64_t{1} << 24;

SourcePos shard_flag() { return option_at("shard"); }

std::uint64_t slurm_number(const std::function<const char*(const char*)>& env, const char* name,
                           std::optional<std::uint64_t> fallback = std::nullopt) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') {
    if (fallback) return *fallback;
    throw InputError(shard_flag(), option_ref("shard") + " slurm needs " + name +
                                       " (set by Slurm in a job-array task: sbatch --array=0-N)");
  }
  const auto n = parse_uint(v, kMaxShards * 1024);
  if (!n) throw InputError(shard_flag(), std::string(name) + " is '" + v + "', not a task number");
  return *n;
}

}  // namespace

Shard parse_shard(const std::string& text, const std::function<const char*(const char*)>& env) {
  if (text == "slurm") {
    const std::uint64_t id = slurm_number(env, "SLURM_ARRAY_TASK_ID");
    const std::uint64_t count = slurm_number(env, "SLURM_ARRAY_TASK_COUNT");
    const std::uint64_t min = slurm_number(env, "SLURM_ARRAY_TASK_MIN", 0);
    const std::uint64_t step = slurm_number(env, "SLURM_ARRAY_TASK_STEP", 1);
    // Task ids MIN, MIN + STEP, ..., MIN + (COUNT - 1) STEP: shard (ID - MIN) / STEP of COUNT.
    if (step == 0 || id < min || (id - min) % step != 0 || (id - min) / step >= count || count > kMaxShards)
      throw InputError(shard_flag(), "SLURM_ARRAY_TASK_ID " + std::to_string(id) + " is not one of " +
                                         std::to_string(count) + " ids from " + std::to_string(min) + " in steps of " +
                                         std::to_string(step) +
                                         ": give the array a range (sbatch --array=0-" + std::to_string(count - 1) +
                                         "), or " + option_ref("shard") + " I/N");
    return {(id - min) / step, count};
  }
  const auto slash = text.find('/');
  const auto i = slash == std::string::npos ? std::nullopt : parse_uint(text.substr(0, slash), kMaxShards);
  const auto n = slash == std::string::npos ? std::nullopt : parse_uint(text.substr(slash + 1), kMaxShards);
  if (!i || !n || *n == 0 || *i >= *n)
    throw InputError(shard_flag(), "expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) +
                                       ", or slurm; got '" + text + "'");
  return {*i, *n};
}

std::vector<VariantRange> shard_ranges(std::uint64_t total, Shard s) {
  const std::uint64_t blocks = std::min(total, s.count * kBlocksPerShard);
  std::vector<VariantRange> out;
  // Block b is [b total / blocks, (b + 1) total / blocks), in 128-bit arithmetic.
  const auto edge = [&](std::uint64_t b) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(b) * total / blocks);
  };
  for (std::uint64_t b = s.index; b < blocks; b += s.count) {
    const VariantRange r{edge(b), edge(b + 1)};
    if (r.size() > 0) out.push_back(r);
  }
  return out;
}

ShardRun run_shard(const Sweep& sweep, Shard s, const std::string& base, const CheckpointId& id, double every,
                   unsigned threads, SweepControl& control, std::span<const std::string> inputs,
                   const std::function<void(const std::string&)>& notice) {
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const int index = static_cast<int>(s.index), count = static_cast<int>(s.count);
  ShardRun result;
  result.path = rank_checkpoint_path(base, index, count);
  CheckpointWriter writer(result.path, id, index, count, jobs, total, inputs);
  const std::vector<VariantRange> mine = shard_ranges(total, s);
  for (const VariantRange& r : mine) result.variants += r.size();
  // What a requeued task saved before is skipped.
  std::vector<VariantRange> todo;
  const std::vector<VariantRange> held = join_ranges(writer.held().ranges);
  writer.held() = CheckpointShare();
  for (const VariantRange& r : mine)
    for (const VariantRange& g : ranges_missing(held, r)) todo.push_back(g);
  std::uint64_t left = 0;
  for (const VariantRange& r : todo) left += r.size();
  result.held = result.variants - left;
  control.finished.store(total - left);
  CheckpointShare done;  // this run's rows
  done.values = ValueTable(jobs);
  bool failing = false;
  const auto save = [&] {
    try {
      writer.save(done);
      failing = false;
    } catch (const InputError& e) {
      if (!failing)
        notice("warning: the shard's checkpoint was not saved: " + one_line(e.describe(option_ref)) +
               "; the shard goes on");
      failing = true;
    }
  };
  SavingRun run;
  run.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(every));
  run.finished = [&](VariantRange r, ValueView rows, std::uint64_t decisions) {
    done.append(r, rows);
    done.decisions += decisions;
    result.evaluated += r.size();
  };
  run.save = save;
  result.stopped = !run_saving(sweep, todo, threads, control, run);
  // The rank file is the shard's only output: a last save that fails is an
  // error, not a warning (its variants would be lost with exit 0).
  try {
    if (failing) writer.save(done);  // once more: rows a failed save left out
    writer.flush(true);
  } catch (const InputError& e) {
    throw InputError(e.where(), std::string(e.what()) + "; the shard's " + std::to_string(result.evaluated) +
                                    " variants evaluated now were not all saved: run the same command again");
  }
  return result;
}

}  // namespace ecmpsim::app
