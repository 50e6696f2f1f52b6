// Distributes an index space [0, total) over MPI ranks in dynamic chunks and
// gathers the per-index values to rank 0 in index order.
//
// Every rank, rank 0 included, claims the next chunk from a shared counter
// (MPI_Fetch_and_op on a window exposed by rank 0), so ranks that draw cheap
// chunks simply claim more of them. A chunk's values are a pure function of
// its indices, so the gathered array is the same for any number of ranks,
// chunk size or claim order: rank 0 holds exactly what one process computes.
#pragma once

#include <cstdint>
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
  // Ends every rank with `code` (a rank that alone failed must not leave the others waiting).
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0, size_ = 1;
};

// Writes `stride` values per index of [begin, end) into `out` (size (end-begin)*stride).
using ChunkFn = std::function<void(std::uint64_t begin, std::uint64_t end, std::span<double> out)>;
// Called on rank 0 with the number of indices claimed so far (by any rank).
using ProgressFn = std::function<void(std::uint64_t claimed)>;

// Collective: every rank calls it with the same total, stride and chunk.
// Returns the total*stride values in index order on rank 0, an empty vector elsewhere.
std::vector<double> distribute(const Session& session, std::uint64_t total, std::size_t stride,
                               std::uint64_t chunk, const ChunkFn& evaluate, const ProgressFn& progress = {});

// Sum of `value` over all ranks, on rank 0 (elsewhere the local value).
std::uint64_t sum_to_root(const Session& session, std::uint64_t value);

}  // namespace ecmpsim::mpi
