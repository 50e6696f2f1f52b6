// The other processes of a distributed sweep (an MPI build run under
// mpirun): what app::SweepJob needs of them. The plain build never has any;
// the MPI main (sim/cli/mpi) implements this over its MPI session.
#pragma once

#include <functional>

#include "sim/sweep/rank_checkpoints.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim::app {

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Collective: runs `setup` on every rank; if it threw on any rank, throws on
  // every rank (the lowest failing rank's error), so all ranks fail together
  // and rank 0 reports it once.
  virtual void agree(const std::function<void()>& setup) const = 0;
  // Collective: run_sweep over the whole variant space, split across the
  // ranks; rank 0 gets every value, the others none. With `ck`, each rank
  // checkpoints its share and skips the variants finished before
  // (mpi::run_sweep_on_ranks).
  virtual SweepRun run_sweep(const Sweep& sweep, unsigned threads, SweepControl& control,
                             RankCheckpointing* ck) const = 0;
  // Whether a progress bar has a terminal to go to: on rank 0, its stderr or
  // mpirun's (a rank's stderr is a pipe to mpirun); never on the others.
  virtual bool terminal() const = 0;
};

}  // namespace ecmpsim::app
