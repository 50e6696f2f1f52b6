#include "sim/mpi/distribute.h"

#include <mpi.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ecmpsim::mpi {
namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Counts and displacements of one MPI_Gatherv, in elements (int: MPI's limit).
struct Layout {
  std::vector<int> counts, displs;
  std::size_t total = 0;
};

Layout layout_of(const Session& s, int local) {
  Layout l;
  if (s.rank() == 0) l.counts.resize(static_cast<std::size_t>(s.size()));
  check(MPI_Gather(&local, 1, MPI_INT, l.counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  for (int c : l.counts) {
    l.displs.push_back(static_cast<int>(l.total));
    l.total += static_cast<std::size_t>(c);
  }
  return l;
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() { MPI_Finalize(); }

void Session::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();
}

std::vector<double> distribute(const Session& session, std::uint64_t total, std::size_t stride,
                               std::uint64_t chunk, const ChunkFn& evaluate, const ProgressFn& progress) {
  chunk = std::max<std::uint64_t>(chunk, 1);
  // The next unclaimed index lives on rank 0; everyone, rank 0 included, claims through RMA.
  std::uint64_t* next = nullptr;
  MPI_Win win;
  const MPI_Aint bytes = session.rank() == 0 ? static_cast<MPI_Aint>(sizeof(std::uint64_t)) : 0;
  check(MPI_Win_allocate(bytes, sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &next, &win),
        "MPI_Win_allocate");
  if (session.rank() == 0) *next = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);

  std::vector<std::uint64_t> begins;  // the chunks this rank evaluated, in claim order
  std::vector<double> values;
  for (;;) {
    std::uint64_t begin = 0;
    check(MPI_Fetch_and_op(&chunk, &begin, MPI_UINT64_T, 0, 0, MPI_SUM, win), "MPI_Fetch_and_op");
    MPI_Win_flush(0, win);
    if (begin >= total) break;
    const std::uint64_t end = std::min(total, begin + chunk);
    begins.push_back(begin);
    const std::size_t at = values.size();
    values.resize(at + (end - begin) * stride);
    evaluate(begin, end, std::span<double>(values).subspan(at));
    if (progress && session.rank() == 0) progress(std::min(total, begin + chunk));
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);

  if (values.size() > static_cast<std::size_t>(INT32_MAX))
    throw std::runtime_error("MPI: more values on one rank than MPI_Gatherv can carry");
  const Layout chunks = layout_of(session, static_cast<int>(begins.size()));
  const Layout vals = layout_of(session, static_cast<int>(values.size()));
  std::vector<std::uint64_t> all_begins(chunks.total);
  std::vector<double> all_values(vals.total);
  check(MPI_Gatherv(begins.data(), static_cast<int>(begins.size()), MPI_UINT64_T, all_begins.data(),
                    chunks.counts.data(), chunks.displs.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  check(MPI_Gatherv(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all_values.data(),
                    vals.counts.data(), vals.displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  if (session.rank() != 0) return {};

  // Each rank's values are its chunks' values in claim order: walk them and
  // place every chunk at its index.
  std::vector<double> out(total * stride);
  for (std::size_t r = 0; r < chunks.counts.size(); ++r) {
    std::size_t v = static_cast<std::size_t>(vals.displs[r]);
    for (int c = 0; c < chunks.counts[r]; ++c) {
      const std::uint64_t b = all_begins[static_cast<std::size_t>(chunks.displs[r] + c)];
      const std::size_t n = (std::min(total, b + chunk) - b) * stride;
      std::copy_n(all_values.begin() + static_cast<std::ptrdiff_t>(v), n,
                  out.begin() + static_cast<std::ptrdiff_t>(b * stride));
      v += n;
    }
  }
  return out;
}

std::uint64_t sum_to_root(const Session& session, std::uint64_t value) {
  std::uint64_t sum = 0;
  check(MPI_Reduce(&value, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
  return session.rank() == 0 ? sum : value;
}

}  // namespace ecmpsim::mpi
