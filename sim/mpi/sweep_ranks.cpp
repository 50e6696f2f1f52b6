#include "sim/mpi/sweep_ranks.h"

#include <algorithm>
#include <cstring>

namespace ecmpsim::mpi {

Chunking sweep_chunking(unsigned threads, const SweepControl& control) {
  return {std::max(1u, threads), control.chunk_target};
}

SweepRun run_sweep_on_ranks(const Session& session, const Sweep& sweep, unsigned threads, SweepControl& control) {
  const std::uint64_t total = sweep.space().size();
  const bool root = session.rank() == 0;
  SweepRun run;
  run.values = ValueTable(sweep.base().jobs().size());
  const std::size_t width = run.values.width();  // a row travels as `width` doubles
  if (root) run.values.resize(total);
  std::uint64_t others = 0;  // rank 0: variants the other ranks had finished, as last seen
  const std::uint64_t done = distribute(
      session, total, width, sweep_chunking(threads, control), run.values.flat(),
      [&](std::uint64_t begin, std::uint64_t end, std::span<double> out) {
        const SweepRun part = run_sweep(sweep, begin, end, threads, &control);
        run.decisions += part.decisions;
        std::memcpy(out.data(), part.values.data(), part.done * width * sizeof(double));
        return part.done;
      },
      &control.stop,
      [&](std::uint64_t finished) {
        control.finished.fetch_add(finished - others, std::memory_order_relaxed);
        others = finished;
      });
  run.decisions = sum_to_root(session, run.decisions);
  run.done = done;
  run.interrupted = done < total;
  if (root) run.values.resize(done);
  return run;
}

}  // namespace ecmpsim::mpi
