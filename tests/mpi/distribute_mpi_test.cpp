// Runs under mpirun: distributes an index space whose per-index cost varies
// by a factor of ~64, and checks on rank 0 that the collected array equals the
// same function computed directly in one process, for several fixed chunk
// sizes (including chunks that do not divide the total and a total below the
// rank count) and for chunks sized by time, from 1 index up to whatever a few
// milliseconds hold; then the stops: a chunk finished in part ends the result exactly
// there, a stop flag set everywhere before the start finishes nothing, and an
// exception on one rank is thrown on every rank.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/base/error.h"
#include "sim/base/splitmix.h"
#include "sim/mpi/distribute.h"

namespace {

using ecmpsim::mpi::Session;

// Costs 1..64 rounds, so chunks differ in cost as sweep variants do.
void value_of(std::uint64_t i, double* out) {
  std::uint64_t x = i;
  // SplitMix64 (sim/base/splitmix.h): a value nobody could place by accident.
  for (std::uint64_t r = 0, n = 1 + ecmpsim::splitmix64(i) % 64; r < n; ++r) x = ecmpsim::splitmix64(x);
  out[0] = static_cast<double>(i);
  out[1] = static_cast<double>(x >> 11) * 0x1.0p-53;
}

int failures = 0;

void fail(const Session& s, const std::string& what) {
  std::fprintf(stderr, "rank %d: %s\n", s.rank(), what.c_str());
  ++failures;
}

// Distributes [0, total) in chunks as `chunking` says, evaluation stopping at
// index `stop_at` (none when >= total); checks the prefix length and its
// values on rank 0.
void check_case(const Session& s, std::uint64_t total, ecmpsim::mpi::Chunking chunking, std::uint64_t stop_at) {
  const std::string name = "total " + std::to_string(total) + " chunk " + std::to_string(chunking.first) +
                           " target " + std::to_string(chunking.target.count()) + " ns stop at " +
                           std::to_string(stop_at);
  std::vector<double> got(s.rank() == 0 ? total * 2 : 0, -1.0);
  std::uint64_t others_max = 0;
  const std::uint64_t done = ecmpsim::mpi::distribute(
      s, total, 2, chunking, got,
      [&](std::uint64_t b, std::uint64_t e, std::span<double> out) {
        const std::uint64_t end = std::min(e, std::max(b, stop_at));
        for (std::uint64_t i = b; i < end; ++i) value_of(i, &out[(i - b) * 2]);
        return end - b;
      },
      nullptr, [&](std::uint64_t others) { others_max = std::max(others_max, others); });
  const std::uint64_t want = std::min(total, stop_at);
  if (done != want) fail(s, name + ": finished prefix " + std::to_string(done) + ", expected " + std::to_string(want));
  if (s.rank() != 0) return;
  std::vector<double> direct(want * 2);
  for (std::uint64_t i = 0; i < want; ++i) value_of(i, &direct[i * 2]);
  if (!std::equal(direct.begin(), direct.end(), got.begin())) fail(s, name + ": values differ from one process's");
  if (others_max > total) fail(s, name + ": others finished more than the total");
}

}  // namespace

int main(int argc, char** argv) {
  Session s(argc, argv);
  using ecmpsim::mpi::Chunking;
  using std::chrono::microseconds;
  for (std::uint64_t chunk : {1, 97, 10'000}) check_case(s, 10'000, {chunk}, ~0ULL);
  check_case(s, 2, {1}, ~0ULL);
  check_case(s, 0, {8}, ~0ULL);
  for (std::uint64_t stop_at : {0, 1, 4'321, 9'999}) check_case(s, 10'000, {97}, stop_at);
  // Sized by time: chunks of every size from 1 up, different on every rank and run.
  for (const microseconds target : {microseconds(1), microseconds(200), microseconds(20'000)}) {
    check_case(s, 100'000, {1, target}, ~0ULL);
    check_case(s, 100'000, {3, target}, 54'321);
  }

  // A stop requested everywhere before the start: nobody claims anything.
  const std::atomic<bool> stop{true};
  std::vector<double> out(s.rank() == 0 ? 200 : 0);
  const auto none = ecmpsim::mpi::distribute(
      s, 100, 2, {10}, out, [](std::uint64_t b, std::uint64_t e, std::span<double>) { return e - b; }, &stop);
  if (none != 0) fail(s, "a stop before the start still finished " + std::to_string(none));

  // An exception on the last rank only: every rank throws, tagged with that rank.
  const int last = s.size() - 1;
  std::string caught;
  try {
    std::vector<double> sink(s.rank() == 0 ? 2000 : 0);
    ecmpsim::mpi::distribute(s, 1000, 2, {1}, sink, [&](std::uint64_t b, std::uint64_t e, std::span<double>) {
      if (s.rank() == last) throw std::runtime_error("broken chunk");
      return e - b;
    });
  } catch (const std::runtime_error& e) {
    caught = e.what();
  }
  const std::string want = s.rank() == last ? "broken chunk" : "rank " + std::to_string(last) + ": broken chunk";
  if (caught != want) fail(s, "an exception on rank " + std::to_string(last) + " surfaced as '" + caught + "'");

  // Bad input on ranks 0 and 1: rank 0 rethrows its own error, every other rank throws it tagged.
  try {
    ecmpsim::mpi::raise_first_failure(
        s, s.rank() <= 1 ? std::make_exception_ptr(ecmpsim::InputError({"a.toml", 3, 1, {}}, "bad")) : nullptr);
    fail(s, "raise_first_failure returned although rank 0 failed");
  } catch (const ecmpsim::InputError& e) {
    const std::string want_text = s.rank() == 0 ? "a.toml:3:1: bad" : "rank 0: a.toml:3:1: bad";
    if (e.describe() != want_text) fail(s, "InputError surfaced as '" + e.describe() + "'");
  }
  ecmpsim::mpi::raise_first_failure(s, nullptr);

  const std::uint64_t ranks = ecmpsim::mpi::sum_to_root(s, 1);
  if (s.rank() == 0 && ranks != static_cast<std::uint64_t>(s.size())) fail(s, "sum_to_root");
  return failures == 0 ? 0 : 1;
}
