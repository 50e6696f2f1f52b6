// The one place threads are started: body(i) for every i in [0, threads),
// concurrently, each call on its own thread (when the machine allows) and
// returning when all have returned.
//
// Release and ASan builds run the calls as TBB tasks in an arena of exactly
// `threads` threads. The ThreadSanitizer build (-DECMPSIM_TSAN=ON) starts
// std::threads instead: Debian's libtbb is not built with TSan, which would
// miss TBB's own synchronization and report every task join as a race. The
// bodies, and all they share, are the same code in both builds.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#ifdef ECMPSIM_STD_THREADS
#include <exception>
#include <thread>
#else
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#endif

namespace ecmpsim {

template <class Body>
void on_threads(unsigned threads, const Body& body) {
  if (threads == 0) threads = 1;
#ifdef ECMPSIM_STD_THREADS
  // An exception leaves its thread as TBB's does: every thread is joined,
  // then the lowest-numbered thread's exception is rethrown.
  std::vector<std::exception_ptr> errors(threads);
  auto guarded = [&body, &errors](unsigned t) {
    try {
      body(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
  guarded(0u);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
#else
  // global_control lets `threads` exceed the core count (TBB otherwise caps its workers there).
  const tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<unsigned>(0, threads, 1),
        [&](const tbb::blocked_range<unsigned>& r) {
          for (unsigned t = r.begin(); t < r.end(); ++t) body(t);
        },
        tbb::simple_partitioner());
  });
#endif
}

// Splits [0, n) into consecutive chunks that `threads` threads claim in
// order from a shared counter, each thread sizing its next chunk by how long
// its last one took (about 10 ms: from 1 item, doubling while chunks run
// short, halving when they run long). body(thread, lo, hi) works through
// [lo, hi) and returns how many items it finished from lo; fewer than
// hi - lo means it stopped, and that thread claims no more. Returns the
// length of the longest prefix of [0, n) that was finished, so work stopped
// midway (Ctrl-C) still leaves a whole prefix, and a caller watching a
// progress counter sees it move at least every few tens of milliseconds
// whatever an item costs.
template <class Body>
std::uint64_t for_each_timed_chunk(unsigned threads, std::uint64_t n, const Body& body) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kShort = std::chrono::milliseconds(5), kLong = std::chrono::milliseconds(40);
  constexpr std::uint64_t kMaxChunk = 1 << 16;
  threads = std::max(1u, threads);
  std::atomic<std::uint64_t> next{0};
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> finished(threads);  // per thread: {lo, count}
  on_threads(threads, [&](unsigned thread) {
    std::uint64_t size = 1;
    for (std::uint64_t lo; (lo = next.fetch_add(size, std::memory_order_relaxed)) < n;) {
      const std::uint64_t hi = std::min(n, lo + size);
      const auto start = Clock::now();
      const std::uint64_t done = body(thread, lo, hi);
      finished[thread].emplace_back(lo, done);
      if (done < hi - lo) return;
      const auto took = Clock::now() - start;
      if (took < kShort) size = std::min(kMaxChunk, size * 2);
      else if (took > kLong && size > 1) size /= 2;
    }
  });
  std::vector<std::pair<std::uint64_t, std::uint64_t>> all;
  for (const auto& f : finished) all.insert(all.end(), f.begin(), f.end());
  std::sort(all.begin(), all.end());
  std::uint64_t prefix = 0;
  for (const auto& [lo, count] : all) {
    if (lo != prefix) break;
    prefix += count;
  }
  return std::min(prefix, n);
}

// Threads to use when the user gave none: every core.
unsigned default_threads() noexcept;

}  // namespace ecmpsim
