#include "sim/mpi/distribute.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <stdexcept>
#include <string>

#include "sim/base/error.h"

namespace ecmpsim::mpi {
namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// The shared counters in rank 0's control window.
enum Counter : int { kNext, kStops, kFinished, kCounters };

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

// Rank 0: the finished prefix, from every rank's (begin, end, finished)
// triples. Chunks were claimed from one counter, so sorted by begin they tile
// [0, claimed); the prefix ends at the first chunk finished in part or never
// recorded (claimed by a rank that then stopped).
std::uint64_t finished_prefix(std::span<const std::uint64_t> triples, std::uint64_t total) {
  std::vector<std::array<std::uint64_t, 3>> chunks;
  for (std::size_t i = 0; i + 2 < triples.size(); i += 3) chunks.push_back({triples[i], triples[i + 1], triples[i + 2]});
  std::sort(chunks.begin(), chunks.end());
  std::uint64_t prefix = 0;
  for (const auto& [begin, end, finished] : chunks) {
    if (begin != prefix) break;
    prefix += finished;
    if (finished < end - begin) break;
  }
  return std::min(prefix, total);
}

// The next claim of a rank whose last chunk of `last` indices took `took`.
std::uint64_t next_claim(const Chunking& c, std::uint64_t last, std::chrono::nanoseconds took,
                         std::uint64_t left, int ranks, std::uint64_t max_chunk) {
  if (c.target.count() == 0) return std::clamp<std::uint64_t>(c.first, 1, max_chunk);
  std::uint64_t size = last;
  if (took < c.target / 2) size = last * 2;
  else if (took > c.target * 2) size = last / 2;
  const std::uint64_t share = left / (4 * static_cast<std::uint64_t>(std::max(1, ranks)));
  return std::clamp<std::uint64_t>(std::min(size, std::max(c.first, share)), 1, max_chunk);
}

}  // namespace

Session::Session(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Session::~Session() { MPI_Finalize(); }

std::uint64_t distribute(const Session& session, std::uint64_t total, std::size_t stride, Chunking chunking,
                         std::span<double> out, const ChunkFn& evaluate, const std::atomic<bool>* stop,
                         const ProgressFn& progress) {
  const bool root = session.rank() == 0;
  if (!same_on_every_rank(session, total) || !same_on_every_rank(session, stride))
    throw std::invalid_argument("MPI: distribute: the ranks were given different index spaces");
  if (stride == 0) throw std::invalid_argument("MPI: distribute: no values per index");
  // A chunk's values travel in one MPI_Put, whose count is an int.
  const std::uint64_t max_chunk = static_cast<std::uint64_t>(INT_MAX) / stride;
  std::uint64_t chunk = std::clamp<std::uint64_t>(chunking.first, 1, max_chunk);
  if (root && (out.size() % stride != 0 || out.size() / stride != total))
    throw std::invalid_argument("MPI: distribute: the output holds total * stride values");

  std::uint64_t* counters = nullptr;
  MPI_Win control, data;
  check(MPI_Win_allocate(root ? static_cast<MPI_Aint>(kCounters * sizeof(std::uint64_t)) : 0,
                         sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &counters, &control),
        "MPI_Win_allocate");
  if (root) std::fill_n(counters, kCounters, 0);
  // Alone, rank 0 copies into `out` itself (Open MPI has no window over user memory for one process).
  const bool alone = session.size() == 1;
  if (!alone)
    check(MPI_Win_create(root ? out.data() : nullptr, root ? static_cast<MPI_Aint>(out.size_bytes()) : 0,
                         sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &data),
          "MPI_Win_create");
  MPI_Barrier(MPI_COMM_WORLD);  // the counters are zero before anyone claims
  MPI_Win_lock_all(0, control);
  if (!alone) MPI_Win_lock_all(0, data);

  std::vector<std::uint64_t> triples;  // (begin, end, finished) of every chunk this rank evaluated
  std::vector<double> values;
  std::exception_ptr error;
  std::uint64_t unreported = 0;      // finished by this rank since its last claim
  std::uint64_t reported = 0;        // finished by this rank as of its last claim
  bool stopping = false;
  for (;;) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
      stopping = true;
      break;
    }
    // One atomic operation claims a chunk, reports the last one finished and reads the stop count.
    const std::uint64_t add[kCounters] = {chunk, 0, unreported};
    std::uint64_t seen[kCounters];
    check(MPI_Get_accumulate(add, kCounters, MPI_UINT64_T, seen, kCounters, MPI_UINT64_T, 0, 0, kCounters,
                             MPI_UINT64_T, MPI_SUM, control),
          "MPI_Get_accumulate");
    check(MPI_Win_flush(0, control), "MPI_Win_flush");
    if (progress && root) progress(seen[kFinished] - reported);
    reported += unreported;
    unreported = 0;
    if (seen[kStops] > 0 || seen[kNext] >= total) break;

    const std::uint64_t begin = seen[kNext], end = std::min(total, begin + chunk);
    values.assign((end - begin) * stride, 0.0);
    std::uint64_t finished = 0;
    const auto start = std::chrono::steady_clock::now();
    try {
      finished = std::min(end - begin, evaluate(begin, end, values));
    } catch (...) {
      error = std::current_exception();
    }
    triples.insert(triples.end(), {begin, end, finished});
    chunk = next_claim(chunking, chunk, std::chrono::steady_clock::now() - start, total - end, session.size(),
                       max_chunk);
    if (finished > 0 && alone) {
      std::copy_n(values.begin(), finished * stride, out.begin() + static_cast<std::ptrdiff_t>(begin * stride));
    } else if (finished > 0) {
      const int n = static_cast<int>(finished * stride);
      check(MPI_Put(values.data(), n, MPI_DOUBLE, 0, static_cast<MPI_Aint>(begin * stride), n, MPI_DOUBLE, data),
            "MPI_Put");
      check(MPI_Win_flush_local(0, data), "MPI_Win_flush_local");  // `values` is reused
    }
    unreported = finished;
    if (finished < end - begin) {
      stopping = true;
      break;
    }
  }
  if (stopping) {
    const std::uint64_t add[kCounters] = {0, 1, 0};
    check(MPI_Accumulate(add, kCounters, MPI_UINT64_T, 0, 0, kCounters, MPI_UINT64_T, MPI_SUM, control),
          "MPI_Accumulate");
  }
  if (!alone) {
    MPI_Win_unlock_all(data);
    MPI_Win_free(&data);  // collective: every rank's puts are complete and visible after it
  }
  MPI_Win_unlock_all(control);
  MPI_Win_free(&control);

  const Layout layout = layout_of(session, static_cast<int>(triples.size()));
  std::vector<std::uint64_t> all(layout.total);
  check(MPI_Gatherv(triples.data(), static_cast<int>(triples.size()), MPI_UINT64_T, all.data(), layout.counts.data(),
                    layout.displs.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD),
        "MPI_Gatherv");
  std::uint64_t prefix = root ? finished_prefix(all, total) : 0;
  check(MPI_Bcast(&prefix, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  raise_first_failure(session, error);
  return prefix;
}

void raise_first_failure(const Session& session, std::exception_ptr error) {
  const int mine = error ? session.rank() : session.size();
  int first = 0;
  check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == session.size()) return;
  // The failing rank describes its exception: whether it was bad input, and the text.
  int input = 0;
  std::string text;
  if (session.rank() == first) {
    try {
      std::rethrow_exception(error);
    } catch (const InputError& e) {
      input = 1;
      text = e.describe();
    } catch (const std::exception& e) {
      text = e.what();
    } catch (...) {
      text = "unknown exception";
    }
  }
  unsigned long long length = text.size();
  check(MPI_Bcast(&input, 1, MPI_INT, first, MPI_COMM_WORLD), "MPI_Bcast");
  check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, first, MPI_COMM_WORLD), "MPI_Bcast");
  text.resize(length);
  check(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, first, MPI_COMM_WORLD), "MPI_Bcast");
  if (session.rank() == first) std::rethrow_exception(error);
  const std::string where = "rank " + std::to_string(first);
  if (input) throw InputError({{}, 0, 0, where}, text);
  throw std::runtime_error(where + ": " + text);
}

bool same_on_every_rank(const Session&, std::uint64_t value) {
  const std::uint64_t both[2] = {value, ~value};  // the maximum of ~value is the complement of the minimum
  std::uint64_t max[2];
  check(MPI_Allreduce(both, max, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return max[0] == ~max[1];
}

std::uint64_t sum_to_root(const Session& session, std::uint64_t value) {
  std::uint64_t sum = 0;
  check(MPI_Reduce(&value, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
  return session.rank() == 0 ? sum : value;
}

}  // namespace ecmpsim::mpi
