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
#include <cstdint>

#ifdef ECMPSIM_STD_THREADS
#include <thread>
#include <vector>
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
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&body, t] { body(t); });
  body(0u);
  for (std::thread& t : pool) t.join();
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

// Splits [0, n) into chunks of `chunk` items that `threads` threads claim in
// order from a shared counter: body(thread, k, lo, hi) for chunk k = [lo, hi).
// A body that returns false claims no more chunks on its thread.
template <class Body>
void for_each_chunk(unsigned threads, std::uint64_t n, std::uint64_t chunk, const Body& body) {
  std::atomic<std::uint64_t> next{0};
  const std::uint64_t chunks = (n + chunk - 1) / chunk;
  on_threads(threads, [&](unsigned thread) {
    for (std::uint64_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < chunks;)
      if (!body(thread, k, k * chunk, std::min(n, (k + 1) * chunk))) return;
  });
}

// Threads to use when the user gave none: every core.
unsigned default_threads() noexcept;

}  // namespace ecmpsim
