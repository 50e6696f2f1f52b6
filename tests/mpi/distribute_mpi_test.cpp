// Runs under mpirun: distributes an index space whose per-index cost varies
// by a factor of ~64, and checks on rank 0 that the gathered array equals the
// same function computed directly in one process, for several chunk sizes
// (including chunks that do not divide the total and a total below the rank count).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "sim/mpi/distribute.h"

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a value nobody could place by accident.
std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Costs 1..64 rounds, so chunks differ in cost as sweep variants do.
void value_of(std::uint64_t i, double* out) {
  std::uint64_t x = i;
  for (std::uint64_t r = 0, n = 1 + splitmix(i) % 64; r < n; ++r) x = splitmix(x);
  out[0] = static_cast<double>(i);
  out[1] = static_cast<double>(x >> 11) * 0x1.0p-53;
}

}  // namespace

int main(int argc, char** argv) {
  ecmpsim::mpi::Session session(argc, argv);
  int failures = 0;
  const std::uint64_t cases[][2] = {{10'000, 1}, {10'000, 97}, {10'000, 10'000}, {2, 1}, {0, 8}};
  for (const auto& c : cases) {
    const std::uint64_t total = c[0], chunk = c[1];
    std::uint64_t claimed_max = 0;
    const auto got = ecmpsim::mpi::distribute(
        session, total, 2, chunk,
        [](std::uint64_t b, std::uint64_t e, std::span<double> out) {
          for (std::uint64_t i = b; i < e; ++i) value_of(i, &out[(i - b) * 2]);
        },
        [&](std::uint64_t claimed) { claimed_max = std::max(claimed_max, claimed); });
    if (session.rank() != 0) {
      if (!got.empty()) ++failures;
      continue;
    }
    std::vector<double> want(total * 2);
    for (std::uint64_t i = 0; i < total; ++i) value_of(i, &want[i * 2]);
    if (got != want) {
      std::fprintf(stderr, "distribute(total=%llu, chunk=%llu) differs from the direct computation\n",
                   static_cast<unsigned long long>(total), static_cast<unsigned long long>(chunk));
      ++failures;
    }
    if (claimed_max > total) ++failures;
  }
  const std::uint64_t ranks = ecmpsim::mpi::sum_to_root(session, 1);
  if (session.rank() == 0 && ranks != static_cast<std::uint64_t>(session.size())) ++failures;
  return failures == 0 ? 0 : 1;
}
