// A sweep's shard ("I/N", or "slurm"; `ecmpsim sweep --shard`): one shard of a sweep run
// as a job of its own (a Slurm job-array task, one of N), saved to the
// checkpoint's rank file BASE.rank-I-of-N, the format the MPI ranks write
// (sim/sweep/rank_checkpoints.h); `sweep --resume BASE` then merges any set
// of finished shards, at any count, into the whole output, byte for byte
// what one process writes (docs/sweeps.md, "Job arrays").
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/sweep/checkpoint.h"

namespace ecmpsim::app {

struct Shard {
  std::uint64_t index = 0, count = 1;
};

// "I/N" (0 <= I < N), or "slurm": the task's place in its job array from
// SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN and
// SLURM_ARRAY_TASK_STEP (the ids MIN, MIN + STEP, ...: they need not start
// at 0), read through `env`. InputError naming the shard option or the variable.
Shard parse_shard(const std::string& text, const std::function<const char*(const char*)>& env);

// The variants of shard I of N: the numbering cut into min(total, 64 N)
// blocks of near-equal size dealt round-robin (block b to shard b mod N), so
// each shard draws from every part of the space (the variants of one axis
// value cost alike; a shard of contiguous variants could draw only dear ones)
// and the shards together hold every variant once.
std::vector<VariantRange> shard_ranges(std::uint64_t total, Shard s);

struct ShardRun {
  std::string path;                // BASE.rank-I-of-N
  std::uint64_t variants = 0;      // the shard's
  std::uint64_t held = 0;          // of them, saved before this run (a requeued task)
  std::uint64_t evaluated = 0;     // by this run
  bool stopped = false;            // a stop ended it early
};

// Runs shard `s` of `sweep` on `threads` threads, saving to
// BASE.rank-I-of-N: created, or resumed when it is there (a requeued task
// goes on; another sweep's is refused), locked against another task given
// the same shard. Saves as run_saving paces them (a kill loses at most
// about `every` seconds); a save that fails warns once (`notice`) and the
// shard goes on; the last is made, and synced, at the end or on a stop.
// `inputs`: what the file must never replace.
ShardRun run_shard(const Sweep& sweep, Shard s, const std::string& base, const CheckpointId& id, double every,
                   unsigned threads, SweepControl& control, std::span<const std::string> inputs,
                   const std::function<void(const std::string&)>& notice);

}  // namespace ecmpsim::app
