// `ecmpsim sweep`'s checkpoint flags (--checkpoint, --resume,
// --no-checkpoint, --checkpoint-every) and the run they drive: where the
// checkpoint goes, what identifies it, what it resumes, and what happens to
// it once the output is written (docs/sweeps.md, "Checkpoints").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/cli.h"
#include "sim/cli/ranks.h"
#include "sim/sweep/checkpoint.h"

namespace ecmpsim::cli {

struct CheckpointFlags {
  std::string checkpoint, resume;
  bool off = false;        // --no-checkpoint
  double every = 5;        // --checkpoint-every, seconds
};

void add_checkpoint_flags(CLI::App* sub, CheckpointFlags& f);

// The build a checkpoint must come from: the version and a digest of the
// sources (cmake/build_id.cmake).
extern const char* const kBuildId;

// What a checkpoint of this sweep must match, one field per thing that can
// differ so a refusal names it: the build, the bytes of the config and of
// each file it reads, the flags that change them (`sizes`,
// size_flags_text), each axis, the flow-model switches and the variant count.
CheckpointId checkpoint_id(const Sweep& sweep, const std::string& sizes);

// A single process's checkpoint through one sweep. Constructed before the
// work: it resolves the file (--checkpoint, else --resume's, else
// OUT.checkpoint beside an --out file unless --no-checkpoint), reads what it
// resumes (--resume's file, and the checkpoint's own when it is there: a
// matching one resumes, another sweep's is refused, never replaced), and
// checks that the file can be written (not an input nor the output, its
// directory writable, space for a first save), making that first save when
// the file does not already hold the run. Notes on `err` when it resumes.
class SweepCheckpoint {
 public:
  SweepCheckpoint(const CheckpointFlags& f, const std::string& out, const Sweep& sweep, CheckpointId id,
                  std::ostream& err);
  // The rest of the sweep (all of it without a checkpoint), saving as it
  // goes at most every --checkpoint-every; a save that fails warns once on
  // `err` and the sweep goes on. Values sized to `done`.
  SweepRun run(unsigned threads, SweepControl& control);
  // After the output: when it was written and the run is whole, a default
  // checkpoint is removed; otherwise the last save is made (a failure warns).
  void finish(const SweepRun& run, bool output_written);
  const std::optional<std::string>& path() const noexcept { return path_; }

 private:
  void save(const SweepRun& run);

  const Sweep& sweep_;
  CheckpointId id_;
  std::ostream& err_;
  std::optional<std::string> path_;
  bool by_default_ = false;
  double every_ = 5;
  std::vector<std::string> inputs_;  // what the checkpoint must never replace
  SweepRun resumed_;
  std::uint64_t saved_ = 0;          // rows the file holds
  bool failing_ = false;             // the last save failed (warned)
};

// The same under mpirun: with --checkpoint or --resume (there is no default
// one), each rank saves its share to BASE.rank-R-of-N (BASE: --checkpoint,
// else --resume's), having skipped the variants of --resume's files, or of
// BASE's own when they are there (read_rank_checkpoints: its rank files, and
// a single process's BASE). A save after the first that fails warns and the
// sweep goes on.
SweepRun run_checkpointed_on_ranks(const CheckpointFlags& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   std::ostream& err, std::optional<std::string>& written);

}  // namespace ecmpsim::cli
