#include "sim/mpi/sweep_ranks.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

namespace ecmpsim::mpi {
namespace {

// Each rank's first file, rank 0's (carrying what the run resumed) before the
// others', then the stale files removed: at every moment some rank count has
// all its files, and together they hold every variant saved (docs/sweeps.md).
void start_rank_checkpoints(const Session& session, const RankCheckpointing& ck, const CheckpointShare& mine) {
  for (const bool first : {true, false}) {
    std::exception_ptr error;
    if (first == (session.rank() == 0)) {
      try {
        ck.save(mine);
      } catch (...) {
        error = std::current_exception();
      }
    }
    raise_first_failure(session, error);  // collective: also orders the two rounds
  }
  if (session.rank() == 0)
    for (const std::string& path : ck.stale) std::remove(path.c_str());
}

}  // namespace

Chunking sweep_chunking(unsigned threads, const SweepControl& control) {
  return {std::max(1u, threads), control.chunk_target};
}

SweepRun run_sweep_on_ranks(const Session& session, const Sweep& sweep, unsigned threads, SweepControl& control,
                            RankCheckpointing* ck) {
  const std::uint64_t total = sweep.space().size();
  const bool root = session.rank() == 0;
  SweepRun run;
  run.values = ValueTable(sweep.base().jobs().size());
  const std::size_t width = run.values.width();  // a row travels as `width` doubles
  if (root) run.values.resize(total);
  CheckpointShare mine;  // this rank's evaluated variants (rank 0's also those carried over)
  std::optional<CheckpointPacer> pacer;
  const std::vector<VariantRange> none;
  const std::vector<VariantRange>& finished = ck != nullptr ? ck->finished : none;
  if (ck != nullptr) {
    mine = std::move(ck->share);
    start_rank_checkpoints(session, *ck, mine);
    pacer.emplace(ck->every, mine.rows());
  }
  std::uint64_t others = 0;  // rank 0: variants the other ranks had finished, as last seen
  const auto evaluate = [&](std::uint64_t begin, std::uint64_t end, std::span<double> out) -> std::uint64_t {
    // The variants of [begin, end) not finished before, gap by gap; finished
    // ones are left 0 here and put back from `mine` on rank 0 at the end.
    auto next = std::upper_bound(finished.begin(), finished.end(), begin,
                                 [](std::uint64_t v, const VariantRange& r) { return v < r.end; });
    for (std::uint64_t at = begin; at < end;) {
      if (next != finished.end() && next->begin <= at) {
        at = std::min(end, (next++)->end);
        continue;
      }
      const std::uint64_t gap_end = next == finished.end() ? end : std::min(end, next->begin);
      const SweepRun part = run_sweep(sweep, at, gap_end, threads, &control);
      run.decisions += part.decisions;
      std::memcpy(out.data() + (at - begin) * width, part.values.data(), part.done * width * sizeof(double));
      if (ck != nullptr) {
        mine.append({at, at + part.done}, part.values);
        mine.decisions += part.decisions;
      }
      at += part.done;
      if (at < gap_end) return at - begin;
    }
    if (ck != nullptr && pacer->due(mine.rows())) pacer->save(mine.rows(), [&] { ck->save(mine); });
    return end - begin;
  };
  const std::uint64_t done = distribute(session, total, width, sweep_chunking(threads, control), run.values.flat(),
                                        evaluate, &control.stop, [&](std::uint64_t finished_by_others) {
                                          control.finished.fetch_add(finished_by_others - others,
                                                                     std::memory_order_relaxed);
                                          others = finished_by_others;
                                        });
  if (ck != nullptr) {
    std::exception_ptr error;
    try {
      if (mine.rows() != pacer->saved()) pacer->save(mine.rows(), [&] { ck->save(mine); });
    } catch (...) {
      error = std::current_exception();
    }
    raise_first_failure(session, error);
    if (root) {
      std::uint64_t row = 0;
      for (const VariantRange& r : mine.ranges) {
        std::memcpy(run.values[r.begin].data(), mine.values[row].data(), r.size() * width * sizeof(double));
        row += r.size();
      }
    }
  }
  run.decisions = sum_to_root(session, run.decisions);
  run.done = done;
  run.interrupted = done < total;
  if (root) run.values.resize(done);
  return run;
}

}  // namespace ecmpsim::mpi
