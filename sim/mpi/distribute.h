// Distributes an index space [0, total) over MPI ranks in dynamic chunks and
// collects the per-index values on rank 0 in index order.
//
// Every rank, rank 0 included, claims the next chunk from a shared counter
// (an atomic MPI_Get_accumulate on a window exposed by rank 0), so ranks that
// draw cheap chunks simply claim more of them, and puts the chunk's values at
// their place in rank 0's output (MPI_Put). Each rank sizes its chunks by
// time (Chunking), so a claim costs nothing against its chunk while progress
// and a stop still show within a second, however costly an index is. A
// chunk's values are a pure function of its indices, so the collected array
// is the same for any number of ranks, chunk sizes or claim order: rank 0
// holds exactly what one process computes.
//
// A stop (a rank's stop flag, or a chunk finished only in part) is announced
// in the same window: no rank claims another chunk, and the result is the
// longest prefix of indices that were all finished.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <vector>

namespace ecmpsim::mpi {

// MPI_Init / MPI_Finalize for the process lifetime (threads funneled: only the
// main thread calls MPI; TBB workers never do).
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

// Writes `stride` values per index of [begin, end) into `out` (size
// (end-begin)*stride) and returns how many leading indices it finished:
// end - begin, or fewer when it stopped early.
using ChunkFn = std::function<std::uint64_t(std::uint64_t begin, std::uint64_t end, std::span<double> out)>;
// Called on rank 0 at each of its claims with the number of indices the other
// ranks had finished by their last claims (for a progress bar).
using ProgressFn = std::function<void(std::uint64_t others_finished)>;

// How a rank sizes its claims: `first` indices, then, with a non-zero
// `target`, towards that time per chunk (doubling while a chunk takes under
// half of it, halving while over twice it) and at most a quarter of the
// indices left per rank, so the ranks finish together; with a zero target,
// always `first`. Never more than one MPI_Put can carry.
struct Chunking {
  std::uint64_t first = 1;
  std::chrono::nanoseconds target{0};
};

// Collective: every rank calls it with the same total and stride (else every
// rank throws std::invalid_argument). On
// rank 0, `out` has total*stride elements and receives the values in index
// order; elsewhere it is empty. Returns, on every rank, the length of the
// finished prefix: total, unless a rank stopped (`stop` set when it was about
// to claim, or a chunk finished in part). If `evaluate` throws on some rank,
// every rank stops and then throws (see raise_first_failure).
std::uint64_t distribute(const Session& session, std::uint64_t total, std::size_t stride, Chunking chunking,
                         std::span<double> out, const ChunkFn& evaluate, const std::atomic<bool>* stop = nullptr,
                         const ProgressFn& progress = {});

// Collective: when any rank passes an exception, every rank throws. The
// lowest such rank rethrows its own; the others throw a copy tagged with that
// rank: an InputError whose field is "rank N" for an InputError (its text
// being the original's describe()), else std::runtime_error("rank N: what").
// Returns normally when no rank failed.
void raise_first_failure(const Session& session, std::exception_ptr error);

// Collective: whether every rank passed the same value.
bool same_on_every_rank(const Session& session, std::uint64_t value);

// Sum of `value` over all ranks, on rank 0 (elsewhere the local value).
std::uint64_t sum_to_root(const Session& session, std::uint64_t value);

}  // namespace ecmpsim::mpi
