// An MPI sweep's checkpoint: one file per rank, BASE.rank-R-of-N, each the
// share of the variants that rank evaluated (docs/sweeps.md, "MPI
// checkpoints"). A resumed run, at any rank count, reads every rank file of
// BASE, merges the variants they hold and evaluates only the others; its
// rank 0 carries the merged variants over into its own file, so a later
// resume needs only the newest files.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "sim/sweep/checkpoint.h"

namespace ecmpsim {

// "BASE.rank-R-of-N".
std::string rank_checkpoint_path(const std::string& base, int rank, int ranks);

// Every rank file of `base` but those of `except_ranks` ranks: what a run at
// that rank count removes once all its ranks have written theirs.
std::vector<std::string> rank_checkpoint_files(const std::string& base, int except_ranks);

struct RankCheckpoints {
  std::vector<VariantRange> finished;  // every variant held: sorted, disjoint, adjacent ranges joined
  CheckpointShare merged;              // `finished` with its rows (when read with rows)
  std::vector<std::string> files;      // the files read
  std::vector<std::pair<std::string, std::uint64_t>> dropped;  // files whose last bytes (a save cut short) were dropped
  // The variants finished from 0 on.
  std::uint64_t prefix() const noexcept {
    return finished.empty() || finished.front().begin != 0 ? 0 : finished.front().end;
  }
};

// Reads the checkpoint of a sweep saved under `base`: every rank file
// BASE.rank-R-of-N beside it (any N: MPI ranks' or job-array shards') and
// BASE itself when it is there (a single process's), each checked as
// parse_checkpoint does and its rank against its name, and merges the
// variants they hold (a variant in two files has the same row in both: rows
// are a pure function of the variant). InputError naming the file when there
// is none, or when files are missing (no rank count N has all its N files,
// and BASE is not there) and the files there do not hold every variant: the
// message names the missing files and the variants no file holds, so a
// merge of shards never passes for whole with one lost. Keeps the rows only
// with `rows`.
RankCheckpoints read_rank_checkpoints(const std::string& base, const CheckpointId& id, std::size_t jobs,
                                      std::uint64_t total, bool rows);

// How an MPI rank checkpoints its share (sim/mpi/sweep_ranks.h).
struct RankCheckpointing {
  std::vector<VariantRange> finished;  // done before this run: every rank skips them
  CheckpointShare share;               // this rank's to start from: rank 0 the merged rows, the others none
  std::chrono::nanoseconds every{std::chrono::seconds(5)};
  std::function<void(const CheckpointShare&)> save;  // writes this rank's file
  std::vector<std::string> stale;      // removed by rank 0 once every rank has written its first file
};

}  // namespace ecmpsim
