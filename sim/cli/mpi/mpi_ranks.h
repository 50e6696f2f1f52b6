// app::Ranks over MPI (the MPI build of `ecmpsim` only).
#pragma once

#include "sim/app/ranks.h"
#include "sim/mpi/distribute.h"

namespace ecmpsim::cli {

class MpiRanks final : public app::Ranks {
 public:
  explicit MpiRanks(const mpi::Session& session) : session_(session) {}
  int rank() const override { return session_.rank(); }
  int size() const override { return session_.size(); }
  void agree(const std::function<void()>& setup) const override;
  SweepRun run_sweep(const Sweep& sweep, unsigned threads, SweepControl& control,
                    RankCheckpointing* ck) const override;
  bool terminal() const override;

 private:
  const mpi::Session& session_;
};

}  // namespace ecmpsim::cli
