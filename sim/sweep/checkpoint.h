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
// An MPI rank's checkpoint is the same with the ranges of the variants it
// evaluated in place of a prefix (rank_checkpoints.h); rows are a pure
// function of their variant, so such shares merge by union.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/base/input_file.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim {

// What a checkpoint belongs to: named fields ("version", "config", "axes"...)
// whose values must all match for it to be resumed. One line each: no '\n'.
using CheckpointId = std::vector<std::pair<std::string, std::string>>;

// An XXH64 digest as a checkpoint writes it: 16 lowercase hex digits.
std::string xxh64_text(std::uint64_t digest);

// Variants [begin, end) of a sweep.
struct VariantRange {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const noexcept { return end - begin; }
  bool operator==(const VariantRange&) const = default;
};

// What one checkpoint file holds: finished ranges of variants (disjoint, in
// file order) and their rows one range after the other. A single process's
// checkpoint holds one range from 0 (the finished prefix); an MPI rank's
// holds the chunks it evaluated (rank 0's also those a resumed run carried
// over), with the rank and the rank count that wrote it.
struct CheckpointShare {
  std::vector<VariantRange> ranges;
  ValueTable values;           // rows of `ranges`, in order
  std::uint64_t decisions = 0;  // flow-hop decisions of the rows, as far as known (a work count, no output)
  int rank = -1, ranks = 0;     // the writing MPI rank and rank count; -1, 0 for a single process
  std::uint64_t rows() const noexcept { return values.size(); }
  // Appends `rows` (rows [0, range.size()) of it) as the rows of `range`.
  void append(VariantRange range, ValueView rows);
};

// Parses the checkpoint `bytes` read from `path` (named in errors) for a
// sweep of `total` variants of `jobs` jobs: InputError when it is truncated
// or corrupted (its checksum differs), malformed (a range past `total`,
// overlapping another, rows not matching the ranges), or belongs to another
// sweep (the first field of `id` that differs, with both values).
CheckpointShare parse_checkpoint(const std::string& path, std::string_view bytes, const CheckpointId& id,
                                 std::size_t jobs, std::uint64_t total);

// Writes `share` to `path` atomically with "rank"/"ranks" lines (an MPI
// rank's checkpoint; docs/sweeps.md), refusing to write over `inputs`.
void write_checkpoint_share(const std::string& path, const CheckpointId& id, const CheckpointShare& share,
                            std::span<const std::string> inputs = {});

// Writes rows [0, run.done) of `run.values` and run.decisions to `path`,
// atomically (replace_file, sim/base/output_file.h); refuses to write over
// one of `inputs` (the sweep's config and the files it reads).
void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs = {});

// The checkpoint at `path` as a run of `total` variants whose first `done`
// are evaluated: `values` sized to `total` rows, the first `done` filled.
// InputError naming `path` as parse_checkpoint, or when it is an MPI rank's
// share (not a prefix: resume it under mpirun).
SweepRun read_checkpoint(const std::string& path, const CheckpointId& id, std::size_t jobs, std::uint64_t total);
// The share in the checkpoint file at `path`, read and parsed
// (parse_checkpoint). It is read up to the most a checkpoint of this sweep can
// hold (its header, a range and a row per variant): a file, FIFO or device
// holding more is not read past that; but a checkpoint of another sweep (a
// larger one, say) is refused naming the field that differs, as when it fits.
CheckpointShare load_checkpoint_share(const std::string& path, const CheckpointId& id, std::size_t jobs,
                                      std::uint64_t total);

// When a running sweep saves: at most every `every`, and only while the
// saves so far with the next (predicted from the last by their rows) take at
// most 1.5% of the time the sweep has run (issue 35: <= 2%, with room for the
// last save, made whatever it costs).
class CheckpointPacer {
 public:
  using Clock = std::chrono::steady_clock;
  // `rows`: what the checkpoint resumed from (or nothing) already holds.
  CheckpointPacer(std::chrono::nanoseconds every, std::uint64_t rows);
  // Whether a save of `rows` rows is due now.
  bool due(std::uint64_t rows) const;
  // Runs `save` (a save of `rows` rows), timing it.
  void save(std::uint64_t rows, const std::function<void()>& save);
  std::uint64_t saved() const noexcept { return saved_; }

 private:
  std::chrono::nanoseconds every_;
  Clock::time_point begin_, last_;
  std::uint64_t saved_;
  double saving_ = 0, last_took_ = 0;  // seconds spent saving, and the last save's
};

// How a sweep checkpoints: `save` is called with the run so far at most
// every `every`, and only while the saves so far with the next (predicted
// from the last by their rows) take at most 1.5% of the time the sweep has
// run; then once more when a stop ends it early or it is whole.
struct Checkpointing {
  std::chrono::nanoseconds every{std::chrono::seconds(5)};
  std::function<void(const SweepRun&)> save;
  // Off: the caller makes the last save itself, after writing the output.
  bool final_save = true;
};

// Continues `run` (values sized to every variant, the first run.done
// evaluated) to the end of the sweep, or to a stop, in segments of about
// `every` each evaluated by run_sweep, calling `c.save` as above. The values
// are those one run_sweep over the whole sweep computes.
void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c);

}  // namespace ecmpsim
