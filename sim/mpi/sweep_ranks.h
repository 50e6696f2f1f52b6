// `ecmpsim sweep` over MPI ranks: the variant space in dynamic chunks (see
// distribute.h), each chunk evaluated by run_sweep with the rank's threads.
#pragma once

#include "sim/mpi/distribute.h"
#include "sim/sweep/rank_checkpoints.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim::mpi {

// How a rank claims variants: one per thread at first, then chunks sized to
// take `control.chunk_target` (about 0.25 s), so a claim costs nothing
// against its chunk, a rank that draws expensive variants simply claims fewer,
// and rank 0's progress (the others' counts arrive with its claims) and a
// stop move within a second however costly a variant is.
Chunking sweep_chunking(unsigned threads, const SweepControl& control);

// Collective: evaluates every variant of `sweep` over the ranks, `threads`
// threads in each. On rank 0 returns what run_sweep(sweep, 0, size, ...)
// returns in one process (values in index order, the decisions of all ranks;
// after a stop, the longest finished prefix); elsewhere the same `done` and
// `interrupted` but no values. `control.stop` stops this rank and, through
// the shared window, the others; on rank 0 `control.finished` counts the
// variants finished by all ranks.
// With `ck`, the variants of ck->finished are skipped (rank 0 puts back
// their rows from its ck->share), and each rank saves its share through
// ck->save: first all of them (rank 0 first, then the stale files go), then
// paced by CheckpointPacer after its chunks, and at the end.
SweepRun run_sweep_on_ranks(const Session& session, const Sweep& sweep, unsigned threads, SweepControl& control,
                            RankCheckpointing* ck = nullptr);

}  // namespace ecmpsim::mpi
