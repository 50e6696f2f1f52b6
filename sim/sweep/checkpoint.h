// Sweep checkpoints: the finished prefix of a sweep saved while it runs, so
// a killed sweep resumes where its last checkpoint left it and writes the
// same bytes as a run never interrupted (docs/sweeps.md, "Checkpoints").
//
// Every statistic a sweep reports (summaries, histograms, best and worst,
// rankings, notes) is a pure function of the value table of the finished
// prefix (sweep.h), and the prefix is what the engine, a stop and the MPI
// ranks already merge by (concatenation in index order). So a checkpoint is
// that prefix: its rows, their count and the decisions made, under an
// identity (version, config, axes...) and a checksum. A resumed sweep
// evaluates the rest and concatenates; no statistic has a second merge.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/sweep/sweep.h"

namespace ecmpsim {

// What a checkpoint belongs to: named fields ("version", "config", "axes"...)
// whose values must all match for it to be resumed. One line each: no '\n'.
using CheckpointId = std::vector<std::pair<std::string, std::string>>;

// An XXH64 digest as a checkpoint writes it: 16 lowercase hex digits.
std::string xxh64_text(std::uint64_t digest);

// Writes rows [0, run.done) of `run.values` and run.decisions to `path`,
// atomically (replace_file, sim/base/output_file.h); refuses to write over
// one of `inputs` (the sweep's config and the files it reads).
void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs = {});

// The checkpoint at `path` as a run of `total` variants whose first `done`
// are evaluated: `values` sized to `total` rows, the first `done` filled.
// InputError naming `path` when it cannot be read, is truncated or corrupted
// (its checksum differs), or belongs to another sweep (the first field of
// `id` that differs, with both values).
SweepRun read_checkpoint(const std::string& path, const CheckpointId& id, std::size_t jobs, std::uint64_t total);

// How a sweep checkpoints: `save` is called with the run so far at most
// every `every`, and only while the saves so far with the next (predicted
// from the last by their rows) take at most 1.5% of the time the sweep has
// run; then once more when a stop ends it early or it is whole.
struct Checkpointing {
  std::chrono::nanoseconds every{std::chrono::seconds(5)};
  std::function<void(const SweepRun&)> save;
};

// Continues `run` (values sized to every variant, the first run.done
// evaluated) to the end of the sweep, or to a stop, in segments of about
// `every` each evaluated by run_sweep, calling `c.save` as above. The values
// are those one run_sweep over the whole sweep computes.
void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c);

}  // namespace ecmpsim
