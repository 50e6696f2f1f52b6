#include <doctest/doctest.h>

#include <algorithm>

#include "sim/seeds.h"
#include "workloads/placement.h"
#include "workloads/splitmix.h"

using namespace ecmpsim;

TEST_CASE("SplitMix64 reproduces the reference outputs for seed 1234567") {
  // Vigna's splitmix64.c seeded with 1234567 (the sequence quoted by the
  // reference implementations' test suites).
  workloads::SplitMix64 g(1234567);
  CHECK(g.next() == 6457827717110365317ULL);
  CHECK(g.next() == 3203168211198807973ULL);
  CHECK(g.next() == 9817491932198370423ULL);
  CHECK(g.next() == 4593380528125082431ULL);
  CHECK(g.next() == 16408922859458223821ULL);
  CHECK(workloads::splitmix64_at(1234567, 3) == 9817491932198370423ULL);
}

TEST_CASE("derived seeds: same keeps the seed, per-tier and per-switch take SplitMix64 outputs") {
  CHECK(derive_seed(1234567, SeedMode::Same, 2, 5) == 1234567u);
  // per-tier: tier 1 -> the 2nd output; per-switch: switch 3 -> the 4th output (low 32 bits).
  CHECK(derive_seed(1234567, SeedMode::PerTier, 1, 9) == static_cast<std::uint32_t>(3203168211198807973ULL));
  CHECK(derive_seed(1234567, SeedMode::PerSwitch, 1, 3) == static_cast<std::uint32_t>(4593380528125082431ULL));
}

TEST_CASE("random placement is a seeded permutation of the endpoints") {
  const std::vector<std::uint32_t> tor_of{0, 0, 1, 1, 2, 2, 3, 3};
  const auto a = workloads::place(workloads::Placement::Random, tor_of, 8, 42);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(workloads::place(workloads::Placement::Random, tor_of, 8, 42) == a);
  CHECK(workloads::place(workloads::Placement::Random, tor_of, 8, 43) != a);
  CHECK(workloads::place(workloads::Placement::Random, tor_of, 3, 42).size() == 3);
}
