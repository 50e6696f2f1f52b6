// Sweep checkpoints: the finished variants of a sweep saved while it runs, so
// a killed sweep resumes where its last save left it and writes the same
// bytes as a run never interrupted (docs/sweeps.md, "Checkpoints").
//
// Every statistic a sweep reports (summaries, histograms, best and worst,
// rankings, notes) is a pure function of the value table of the finished
// prefix (sweep.h), and the prefix is what the engine, a stop and the MPI
// ranks already merge by (concatenation in index order). So a checkpoint
// holds rows: ranges of finished variants and their rows, under an identity
// (build, config, axes...). A resumed sweep evaluates the rest and
// concatenates; no statistic has a second merge. Rows are a pure function of
// their variant, so the files of MPI ranks and of job-array shards merge by
// union.
//
// The file is a log (issue 47): a header written once, then one record per
// save holding only the variants finished since the last, each with its own
// checksum. A save costs what it adds, not the whole file again, so saves can
// be a few seconds apart however long the sweep has run (bounded loss at a
// bounded cost). A record a kill or a crash cut short fails its checks and is
// dropped with everything after it: the rows read are whole records only.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/base/input_file.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim {

class AppendFile;  // sim/base/output_file.h

// What a checkpoint belongs to: named fields ("version", "build", "config",
// "axis.seeds"...) whose values must all match for it to be resumed. One line
// each: no '\n' in a value, no ' ' in a name.
using CheckpointId = std::vector<std::pair<std::string, std::string>>;

// An XXH64 digest as a checkpoint writes it: 16 lowercase hex digits.
std::string xxh64_text(std::uint64_t digest);

// Variants [begin, end) of a sweep.
struct VariantRange {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t size() const noexcept { return end - begin; }
  bool operator==(const VariantRange&) const = default;
};

// `ranges` sorted and joined: disjoint, adjacent and overlapping ones merged.
std::vector<VariantRange> join_ranges(std::vector<VariantRange> ranges);
// The parts of `r` outside `covered` (sorted and joined).
std::vector<VariantRange> ranges_missing(const std::vector<VariantRange>& covered, VariantRange r);

// What one checkpoint file holds: finished ranges of variants (disjoint, in
// file order) and their rows one range after the other. A single process's
// checkpoint holds ranges from 0 on (its saves of the finished prefix); an
// MPI rank's the chunks it evaluated (rank 0's also those a resumed run
// carried over), a shard's its share of the variants, with the rank (shard)
// and the count that wrote it.
struct CheckpointShare {
  std::vector<VariantRange> ranges;
  ValueTable values;            // rows of `ranges`, in order
  std::uint64_t decisions = 0;  // flow-hop decisions of the rows, as far as known (a work count, no output)
  int rank = -1, ranks = 0;     // the writing rank (shard) and count; -1, 0 for a single process
  std::uint64_t dropped = 0;    // bytes after the last whole record (a save cut short), not read
  std::uint64_t rows() const noexcept { return values.size(); }
  // Appends `rows` (rows [0, range.size()) of it) as the rows of `range`.
  void append(VariantRange range, ValueView rows);
};

// Parses the checkpoint `bytes` read from `path` (named in errors) for a
// sweep of `total` variants of `jobs` jobs: InputError when its header is
// truncated or corrupted (its checksum differs) or belongs to another sweep
// (the field of `id` that differs, with both values; a field either side
// lacks), or a whole record is malformed (a range past `total`, overlapping
// another). A record that fails its checksum or is cut short ends the file:
// it and all after it are dropped (counted in `dropped`).
CheckpointShare parse_checkpoint(const std::string& path, std::string_view bytes, const CheckpointId& id,
                                 std::size_t jobs, std::uint64_t total);

// Writes `share` to `path` whole, replacing it atomically: a header (with
// "rank"/"ranks" lines for an MPI rank's or a shard's share) and one record
// per range; refuses to write over `inputs`. For tests and tools: a running
// sweep adds to its file through a CheckpointWriter.
void write_checkpoint_share(const std::string& path, const CheckpointId& id, const CheckpointShare& share,
                            std::span<const std::string> inputs = {});

// The same for rows [0, run.done) of a single process's run.
void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs = {});

// The checkpoint at `path` as a run of `total` variants whose first `done`
// are evaluated: `values` sized to `total` rows, the first `done` filled.
// InputError naming `path` as parse_checkpoint, or when it is an MPI rank's
// or a shard's share (not a prefix: resume it under mpirun or merge it).
SweepRun read_checkpoint(const std::string& path, const CheckpointId& id, std::size_t jobs, std::uint64_t total);
// The share in the checkpoint file at `path`, read and parsed
// (parse_checkpoint). It is read up to the most a checkpoint of this sweep can
// hold (its header, a range and a row per variant): a file, FIFO or device
// holding more is not read past that; but a checkpoint of another sweep (a
// larger one, say) is refused naming the field that differs, as when it fits.
CheckpointShare load_checkpoint_share(const std::string& path, const CheckpointId& id, std::size_t jobs,
                                      std::uint64_t total);

// A checkpoint file a running sweep adds to (sim/base/output_file.h,
// AppendFile): created with its header when it does not exist, else read
// (it must be this sweep's, as parse_checkpoint checks) and cut after its
// last whole record; locked against every other writer while open.
class CheckpointWriter {
 public:
  // `rank`, `ranks`: an MPI rank's or a shard's file (-1, 0: a single
  // process's). InputError naming `path` when it cannot be opened or is not this sweep's.
  CheckpointWriter(const std::string& path, const CheckpointId& id, int rank, int ranks, std::size_t jobs,
                   std::uint64_t total, std::span<const std::string> inputs = {});
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  // What the file held when opened (nothing when this open created it);
  // `dropped` counts the bytes of a cut-short record cut off.
  CheckpointShare& held() noexcept { return held_; }
  bool created() const noexcept;
  const std::string& path() const noexcept;
  // Adds the rows of `range` (row i of `rows` is variant range.begin + i)
  // that the file does not hold yet, one record per gap, in one write; the
  // first record carries what `decisions` (the rows' decisions so far in
  // all) adds to what the file counts. Whether it added anything; InputError
  // when the write fails (nothing of it stays in the file).
  bool save(VariantRange range, ValueView rows, std::uint64_t decisions);
  // Adds every range of `share` the file does not hold yet.
  bool save(const CheckpointShare& share);
  // Variants other files hold (a resume's): never added to this one.
  void held_elsewhere(const std::vector<VariantRange>& ranges);
  // Starts writing what was added to disk; with `wait`, waits until it is there.
  void flush(bool wait);

 private:
  std::unique_ptr<AppendFile> file_;
  std::uint64_t seed_ = 0;             // the header's checksum: each record's checksum seed
  std::size_t width_ = 0;
  std::vector<VariantRange> covered_;  // what the file holds: sorted, disjoint, adjacent ranges joined
  std::uint64_t decisions_saved_ = 0;
  CheckpointShare held_;
};

// When a running sweep saves: at most every `every`, and only while the
// saves so far with the next (predicted from the last by the rows it adds)
// take at most 1.5% of the time the sweep has run (issue 35: <= 2%, with
// room for the last save, made whatever it costs). A save made between the
// work's steps costs its wall time; one made beside the work, on a thread
// of its own, costs the CPU time that thread takes (the work waits for
// neither its disk nor its page-cache stalls: measured at 156 ms of wall for
// a 19 MB save on a loaded machine, against a few ms of CPU), against the
// CPU time of the work's `beside` threads (0: a save between steps).
class CheckpointPacer {
 public:
  using Clock = std::chrono::steady_clock;
  // `rows`: what the checkpoint resumed from (or nothing) already holds.
  CheckpointPacer(std::chrono::nanoseconds every, std::uint64_t rows, unsigned beside = 0);
  // Whether a save bringing the file to `rows` rows is due now.
  bool due(std::uint64_t rows) const;
  // Runs `save` (bringing the file to `rows` rows), timing it.
  void save(std::uint64_t rows, const std::function<void()>& save);
  std::uint64_t saved() const noexcept { return saved_; }

 private:
  std::chrono::nanoseconds every_;
  Clock::time_point begin_, last_;
  std::uint64_t saved_;
  std::uint64_t last_added_ = 1;       // rows the last save added
  double saving_ = 0, last_took_ = 0;  // seconds spent saving, and the last save's
  unsigned beside_ = 0;
};

// How a run saves as it goes: `finished` is handed the rows of each newly
// finished stretch of variants (the second's rows from the first's on; the
// decisions they made, counted once a range's run ends), `save` saves what it
// was handed so far. Both are called from one thread at a time (while a range
// runs, a watcher thread; else the caller's). `place`, when set, is where a
// range's rows go (room for its rows, valid until the run ends; `finished`
// then gets views of them in place); else the runner keeps them.
struct SavingRun {
  std::chrono::nanoseconds every{std::chrono::seconds(5)};
  std::function<void(VariantRange, ValueView, std::uint64_t)> finished;
  std::function<void()> save;
  std::function<double*(VariantRange)> place;
  // Off: no save at the end (the caller makes it).
  bool final_save = true;
};

// Evaluates the variants of `todo` (sorted, disjoint ranges) in order, each
// range one run_sweep (which changes no value) while a watcher thread hands
// its finished prefix (sim/base/parallel.h) to `s.finished` within 5 ms and
// calls `s.save` once 0.8 `s.every` has passed since the last save, while
// the saves so far with the next (predicted from the last by the rows it
// adds) take at most 1.5% of the CPU time the run's threads have had
// (CheckpointPacer, beside the work):
// a kill loses about `every` of work, the unfinished chunks included
// (bench/RESULTS.md measures it). Then, with `s.final_save`, once more when a
// stop ends it early or it is whole. False when a stop (control.stop) ended it early.
bool run_saving(const Sweep& sweep, std::span<const VariantRange> todo, unsigned threads, SweepControl& control,
                const SavingRun& s);

// How a single process's sweep checkpoints: `save` is called with the run so
// far as run_saving says; `final_save` as there.
struct Checkpointing {
  std::chrono::nanoseconds every{std::chrono::seconds(5)};
  std::function<void(const SweepRun&)> save;
  bool final_save = true;
};

// Continues `run` (values sized to every variant, the first run.done
// evaluated) to the end of the sweep, or to a stop, by run_saving. The
// values are those one run_sweep over the whole sweep computes.
void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c);

}  // namespace ecmpsim
