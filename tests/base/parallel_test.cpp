// The time-sized chunk scheduler: every item exactly once, a stop leaves the
// finished prefix, and costly items keep chunks small so progress shows.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "sim/base/parallel.h"

namespace parallel_test {

using ecmpsim::FinishedPrefix;
using ecmpsim::for_each_timed_chunk;

// Worked by hand: chunks [0,3) [3,5) [5,9) [9,10) with weights 1, 2, 4, 8,
// added out of order; the prefix grows only when the gap before a chunk closes.
TEST_CASE("FinishedPrefix: the prefix and its weight as chunks finish in any order") {
  FinishedPrefix p;
  p.add(5, 4, 4);
  CHECK(p.get().count == 0);
  p.add(3, 2, 2);
  CHECK(p.get().count == 0);  // [0, 3) still running
  p.add(0, 3, 1);
  CHECK(p.get().count == 9);
  CHECK(p.get().weight == 7);
  p.add(9, 1, 8);
  CHECK(p.get().count == 10);
  CHECK(p.get().weight == 15);
  // A chunk that stopped short ends the prefix: a later chunk never joins it.
  FinishedPrefix q;
  q.add(0, 2, 1);  // chunk [0, 4) stopped after 2 items
  q.add(4, 4, 9);
  CHECK(q.get().count == 2);
  CHECK(q.get().weight == 1);
  q.reset();
  CHECK(q.get().count == 0);
  q.add(0, 1, 5);
  CHECK(q.get().weight == 5);  // the chunk before the reset is gone
}

// A reader sees the items of the prefix it reads written (what a checkpoint
// saver relies on): items are written, then their chunk added.
TEST_CASE("FinishedPrefix: items below a prefix read while chunks run are written") {
  constexpr std::uint64_t n = 200000;
  std::vector<std::uint64_t> items(n, 0);
  FinishedPrefix prefix;
  std::atomic<bool> over{false};
  std::uint64_t checked = 0, bad = 0;
  std::thread reader([&] {
    while (!over.load()) {
      const std::uint64_t upto = prefix.get().count;
      for (; checked < upto; ++checked) bad += items[checked] != checked + 1;
    }
  });
  const std::uint64_t done = for_each_timed_chunk(2, n, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t i = lo; i < hi; ++i) items[i] = i + 1;
    prefix.add(lo, hi - lo);
    return hi - lo;
  });
  over.store(true);
  reader.join();
  CHECK(done == n);
  CHECK(prefix.get().count == n);
  CHECK(bad == 0);
}

TEST_CASE("for_each_timed_chunk: every item exactly once, for any thread count") {
  for (unsigned threads : {1u, 2u, 3u, 8u})
    for (std::uint64_t n : {0ull, 1ull, 7ull, 1000ull, 300000ull}) {
      std::vector<std::atomic<int>> seen(n);
      const std::uint64_t prefix = for_each_timed_chunk(threads, n, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
        for (std::uint64_t i = lo; i < hi; ++i) seen[i].fetch_add(1);
        return hi - lo;
      });
      CAPTURE(threads);
      CAPTURE(n);
      CHECK(prefix == n);
      CHECK(std::all_of(seen.begin(), seen.end(), [](const std::atomic<int>& s) { return s.load() == 1; }));
    }
}

TEST_CASE("for_each_timed_chunk: a stop leaves exactly the finished prefix") {
  // Item 5000 stops its thread; every item before it was done (by whichever thread claimed it).
  constexpr std::uint64_t kStop = 5000;
  std::vector<std::atomic<int>> done(20000);
  const std::uint64_t prefix = for_each_timed_chunk(2, done.size(), [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t i = lo; i < hi; ++i) {
      if (i == kStop) return i - lo;
      done[i].store(1);
    }
    return hi - lo;
  });
  CHECK(prefix == kStop);
  for (std::uint64_t i = 0; i < kStop; ++i) REQUIRE(done[i].load() == 1);
}

TEST_CASE("for_each_timed_chunk: costly items keep chunks to a few items, so progress moves") {
  // 3 ms per item against a 20 ms target: chunks start at 1 item and stop
  // doubling once they take 10 ms (4 items; a loaded machine only makes them smaller).
  std::atomic<std::uint64_t> largest{0};
  for_each_timed_chunk(
      2, 60,
      [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
        std::uint64_t seen = largest.load();
        while (hi - lo > seen && !largest.compare_exchange_weak(seen, hi - lo)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(3) * (hi - lo));
        return hi - lo;
      },
      std::chrono::milliseconds(20));
  CHECK(largest.load() <= 4);
  // Cheap items grow chunks well past one.
  std::atomic<std::uint64_t> cheap{0};
  for_each_timed_chunk(1, 100000, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t seen = cheap.load();
    while (hi - lo > seen && !cheap.compare_exchange_weak(seen, hi - lo)) {
    }
    return hi - lo;
  });
  CHECK(cheap.load() >= 1024);
}

TEST_CASE("for_each_timed_chunk: no chunk takes more than a quarter of what is left, so threads end together") {
  // One thread, cheap items, the default 0.25 s target: without the cap the
  // chunks would double to 2^16 and the last one hold most of the work.
  constexpr std::uint64_t n = 200000;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> chunks;
  CHECK(for_each_timed_chunk(1, n, [&](unsigned, std::uint64_t lo, std::uint64_t hi) {
          chunks.emplace_back(lo, hi);
          return hi - lo;
        }) == n);
  std::uint64_t largest = 0;
  for (const auto& chunk : chunks) {
    const std::uint64_t lo = chunk.first, hi = chunk.second;
    CAPTURE(lo);
    CHECK(hi - lo <= std::max<std::uint64_t>(1, (n - lo) / 4));
    largest = std::max(largest, hi - lo);
  }
  CHECK(largest >= 1024);  // and cheap items still make large chunks
  CHECK(chunks.back().second - chunks.back().first == 1);
}

TEST_CASE("an exception in any thread reaches the caller") {
  std::atomic<unsigned> ran{0};
  CHECK_THROWS_WITH_AS(ecmpsim::on_threads(4, [&](unsigned t) {
                         ++ran;
                         if (t == 2) throw std::runtime_error("thread 2");
                       }),
                       "thread 2", std::runtime_error);
  CHECK(ran.load() >= 1);
}
}  // namespace parallel_test
