// `ecmpsim sweep` over MPI ranks: the variant space in dynamic chunks (see
// distribute.h), each chunk evaluated by run_sweep with the rank's threads.
#pragma once

#include "sim/mpi/distribute.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim::mpi {

// Variants per chunk: about 32 chunks per rank, so a rank that draws
// expensive variants is caught up by the others, but at least 64 and at most
// 16384 variants per thread, so a claim costs next to nothing against the
// chunk and the progress on rank 0 stays current.
std::uint64_t sweep_chunk(std::uint64_t variants, int ranks, unsigned threads);

// Collective: evaluates every variant of `sweep` over the ranks, `threads`
// threads in each. On rank 0 returns what run_sweep(sweep, 0, size, ...)
// returns in one process (values in index order, the decisions of all ranks;
// after a stop, the longest finished prefix); elsewhere the same `done` and
// `interrupted` but no values. `control.stop` stops this rank and, through
// the shared window, the others; on rank 0 `control.finished` counts the
// variants finished by all ranks.
SweepRun run_sweep_on_ranks(const Session& session, const Sweep& sweep, unsigned threads, SweepControl& control);

}  // namespace ecmpsim::mpi
