#include "sim/base/parallel.h"

#ifdef ECMPSIM_STD_THREADS
#include <exception>
#include <sched.h>
#include <thread>
#else
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#endif

namespace ecmpsim {

void on_threads_erased(unsigned threads, void (*call)(const void*, unsigned), const void* body) {
  if (threads == 0) threads = 1;
#ifdef ECMPSIM_STD_THREADS
  std::vector<std::exception_ptr> errors(threads);
  auto guarded = [&](unsigned t) {
    try {
      call(body, t);
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
          for (unsigned t = r.begin(); t < r.end(); ++t) call(body, t);
        },
        tbb::simple_partitioner());
  });
#endif
}

void FinishedPrefix::add(std::uint64_t lo, std::uint64_t count, std::uint64_t weight) {
  const std::lock_guard<std::mutex> lock(mutex_);
  waiting_.emplace(lo, Snapshot{count, weight});
  // A chunk that stopped short leaves a gap no later chunk fills: the prefix ends there.
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == prefix_.count; it = waiting_.erase(it)) {
    prefix_.count += it->second.count;
    prefix_.weight += it->second.weight;
  }
}

FinishedPrefix::Snapshot FinishedPrefix::get() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return prefix_;
}

void FinishedPrefix::reset() {
  const std::lock_guard<std::mutex> lock(mutex_);
  waiting_.clear();
  prefix_ = {};
}

unsigned default_threads() noexcept {
#ifdef ECMPSIM_STD_THREADS
  // The cores this process may run on (as TBB counts them), not the machine's.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
#else
  const int n = tbb::info::default_concurrency();
  return n > 0 ? static_cast<unsigned>(n) : 1;
#endif
}

}  // namespace ecmpsim
