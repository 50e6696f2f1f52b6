// The one place threads are started: body(i) for every i in [0, threads),
// concurrently, each call on its own thread (when the machine allows) and
// returning when all have returned.
//
// Release and ASan builds run the calls as TBB tasks in an arena of exactly
// `threads` threads. The ThreadSanitizer build (-DECMPSIM_TSAN=ON) starts
// std::threads instead: Debian's libtbb is not built with TSan, which would
// miss TBB's own synchronization and report every task join as a race. The
// bodies, and all they share, are the same code in both builds. Both live in
// parallel.cpp, so TBB's headers reach that one file, not the many that
// include this one (they cost every including file seconds of compile time).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace ecmpsim {

// Calls call(body, t) for every t in [0, threads) as described above; an
// exception leaves its thread as TBB's does: every thread is joined, then
// one exception (the lowest-numbered thread's without TBB) is rethrown.
void on_threads_erased(unsigned threads, void (*call)(const void* body, unsigned thread), const void* body);

template <class Body>
void on_threads(unsigned threads, const Body& body) {
  on_threads_erased(
      threads, [](const void* b, unsigned t) { (*static_cast<const Body*>(b))(t); }, &body);
}

// How long a chunk of work should take: long enough that claiming chunks
// (an atomic here, an MPI round trip across ranks) and recording them cost
// nothing, short enough that progress and a stop show well within a second.
inline constexpr std::chrono::milliseconds kChunkTarget{250};

// The longest prefix of [0, n) that finished chunks cover, kept as chunks
// finish (in any order): a chunk past a gap waits until the gap is filled.
// Each chunk may carry a weight (work it counted), summed over the prefix.
// Thread-safe: a reader of get() sees what the adders wrote before adding.
class FinishedPrefix {
 public:
  struct Snapshot {
    std::uint64_t count = 0;   // items [0, count) finished
    std::uint64_t weight = 0;  // the weights of their chunks
  };
  // Chunk [lo, lo + count) finished (count below its size: it stopped there).
  void add(std::uint64_t lo, std::uint64_t count, std::uint64_t weight = 0);
  Snapshot get() const;
  void reset();

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, Snapshot> waiting_;  // lo -> chunk, past the prefix
  Snapshot prefix_;
};

// Splits [0, n) into consecutive chunks that `threads` threads claim in
// order from a shared counter, each thread sizing its next chunk by how long
// its last one took, towards `target`: from 1 item, doubling while chunks
// take under half the target, halving while they take over twice it, and
// never more than a quarter of the items left per thread, so the threads
// finish together. body(thread, lo, hi) works through [lo, hi) and returns
// how many items it finished from lo; fewer than hi - lo means it stopped,
// and that thread claims no more. Returns the length of the longest prefix
// of [0, n) that was finished, so work stopped midway (Ctrl-C) still leaves
// a whole prefix. Which thread does which item never changes what an item
// computes; a caller that must show progress inside a long chunk reports it
// from its body, and one that must know the prefix as it grows keeps its own
// FinishedPrefix there.
template <class Body>
std::uint64_t for_each_timed_chunk(unsigned threads, std::uint64_t n, const Body& body,
                                   std::chrono::nanoseconds target = kChunkTarget) {
  using Clock = std::chrono::steady_clock;
  constexpr std::uint64_t kMaxChunk = std::uint64_t{1} << 24;
  threads = std::max(1u, threads);
  std::atomic<std::uint64_t> next{0};
  FinishedPrefix finished;
  on_threads(threads, [&](unsigned thread) {
    std::uint64_t size = 1;
    for (;;) {
      const std::uint64_t left = n - std::min(n, next.load(std::memory_order_relaxed));
      const std::uint64_t claim = std::max<std::uint64_t>(1, std::min(size, left / (4 * std::uint64_t{threads})));
      const std::uint64_t lo = next.fetch_add(claim, std::memory_order_relaxed);
      if (lo >= n) return;
      const std::uint64_t hi = std::min(n, lo + claim);
      const auto start = Clock::now();
      const std::uint64_t done = body(thread, lo, hi);
      finished.add(lo, done);
      if (done < hi - lo) return;
      const auto took = Clock::now() - start;
      if (took < target / 2) size = std::min(kMaxChunk, claim * 2);
      else if (took > target * 2) size = std::max<std::uint64_t>(1, claim / 2);
      else size = claim;
    }
  });
  return std::min(finished.get().count, n);
}

// Threads to use when the user gave none: every core.
unsigned default_threads() noexcept;

}  // namespace ecmpsim
