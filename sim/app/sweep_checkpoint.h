// A sweep's checkpoint (app::SweepCheckpointing: checkpoint, resume,
// no_checkpoint, checkpoint_every) and the run it drives: where the
// checkpoint goes, what identifies it, what it resumes, and what happens to
// it once the output is written (docs/sweeps.md, "Checkpoints"). Internal to
// app::SweepJob (sweep.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/ranks.h"
#include "sim/app/sweep.h"
#include "sim/sweep/checkpoint.h"

namespace ecmpsim::app {

using Notice = SweepJob::Notice;

// The build a checkpoint must come from: the version and a digest of the
// sources (cmake/build_id.cmake).
extern const char* const kBuildId;

// What a checkpoint of this sweep must match, one field per thing that can
// differ so a refusal names it: the build, the bytes of the config and of
// each file it reads, the size options that change them, each axis, the
// flow-model switches and the variant count.
CheckpointId checkpoint_id(const Sweep& sweep, const SizeFlags& sizes);

// A single process's checkpoint through one sweep. Constructed before the
// work: it resolves the file (`checkpoint`, else `resume`'s, else
// OUT.checkpoint beside an `out` file unless `off`), reads what it
// resumes (`resume`'s file and rank files, and the checkpoint's own file and
// rank files: a matching one resumes, another sweep's is refused, never
// replaced), and opens the file to add to it (sweep/checkpoint.h,
// CheckpointWriter: created with its header, which shows it can be written;
// locked against other runs), where it saves what this run evaluates (the
// other files stay as they are). Notices when it resumes.
class SweepCheckpoint {
 public:
  SweepCheckpoint(const SweepCheckpointing& f, const std::string& out, const Sweep& sweep, CheckpointId id,
                  const Notice& notice);
  ~SweepCheckpoint();
  // The variants no file held (all of them without a checkpoint), saving as
  // it goes (run_saving: a kill loses at most about `every`);
  // a save that fails warns once and the sweep goes on. The run's
  // values are its finished prefix.
  SweepRun run(unsigned threads, SweepControl& control);
  // After the output: when it was written and the run is whole, a default
  // checkpoint is removed; otherwise the last save is made and synced (a
  // failure warns).
  void finish(const SweepRun& run, bool output_written);
  const std::optional<std::string>& path() const noexcept { return path_; }

 private:
  void save(const SweepRun& run);

  const Sweep& sweep_;
  CheckpointId id_;
  Notice notice_;
  std::optional<std::string> path_;
  bool by_default_ = false;
  double every_ = 5;
  std::unique_ptr<CheckpointWriter> writer_;
  SweepRun resumed_;                   // values sized to the sweep, the finished variants in place
  std::vector<VariantRange> finished_; // every variant a file held: sorted, disjoint
  bool failing_ = false;               // the last save failed (warned)
  bool added_ = false;                 // a save added rows to the file
};

// The same under mpirun: with `checkpoint` or `resume` (there is no default
// one), each rank saves its share to BASE.rank-R-of-N (BASE: `checkpoint`,
// else `resume`'s), having skipped the variants of `resume`'s files, or of
// BASE's own when they are there (read_rank_checkpoints: its rank files, and
// a single process's BASE). A save after the first that fails warns and the
// sweep goes on.
SweepRun run_checkpointed_on_ranks(const SweepCheckpointing& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   const Notice& notice, std::optional<std::string>& written);

}  // namespace ecmpsim::app
