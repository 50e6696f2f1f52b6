// `ecmpsim sweep`'s checkpoint flags (--checkpoint, --resume,
// --no-checkpoint, --checkpoint-every) and the run they drive: where the
// checkpoint goes, what identifies it, and when the default one beside
// --out is worth writing (docs/sweeps.md, "Checkpoints").
#pragma once

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

// What a checkpoint of this sweep must match: the version, the bytes of the
// config and every file it reads with the flags that change them (`sizes`,
// size_flags_text), and the axes with the flow-model switches.
CheckpointId checkpoint_id(const Sweep& sweep, const std::string& sizes);

// Runs `sweep` as the flags say: without a checkpoint (none asked for, and
// no --out file beside which to put the default one), one run_sweep;
// otherwise continue_sweep from --resume's checkpoint (or from nothing),
// saving to --checkpoint, else to --resume's file, else to OUT.checkpoint
// once the sweep is predicted to run over a minute (a note on `err` says
// where). Returns the run and, in `written`, the checkpoint that holds it.
SweepRun run_checkpointed(const CheckpointFlags& f, const std::string& out, const Sweep& sweep, unsigned threads,
                          SweepControl& control, const CheckpointId& id, std::ostream& err,
                          std::optional<std::string>& written);

// The same under mpirun: with --checkpoint or --resume (there is no default
// one), each rank saves its share to BASE.rank-R-of-N (BASE: --checkpoint,
// else --resume's), having skipped the variants of --resume's files
// (read_rank_checkpoints: its rank files, and a single process's BASE).
SweepRun run_checkpointed_on_ranks(const CheckpointFlags& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   std::optional<std::string>& written);

// Removes the default checkpoint once the output it would resume is written.
void remove_default_checkpoint(const CheckpointFlags& f, const std::optional<std::string>& written);

}  // namespace ecmpsim::cli
