#include <doctest/doctest.h>

#include "sim/routing/seeds.h"

namespace seeds_test {

using namespace ecmpsim;

TEST_CASE("SplitMix64 reproduces the reference outputs for seed 1234567") {
  // Vigna's splitmix64.c seeded with 1234567 (the sequence quoted by the
  // reference implementations' test suites).
  CHECK(splitmix64_output(1234567, 1) == 6457827717110365317ULL);
  CHECK(splitmix64_output(1234567, 2) == 3203168211198807973ULL);
  CHECK(splitmix64_output(1234567, 3) == 9817491932198370423ULL);
  CHECK(splitmix64_output(1234567, 4) == 4593380528125082431ULL);
  CHECK(splitmix64_output(1234567, 5) == 16408922859458223821ULL);
}

TEST_CASE("derived seeds: same keeps the seed, per-tier and per-switch take SplitMix64 outputs") {
  CHECK(derive_seed(1234567, SeedMode::Same, 2, 5) == 1234567u);
  // per-tier: tier 1 -> the 2nd output; per-switch: switch 3 -> the 4th output (low 32 bits).
  CHECK(derive_seed(1234567, SeedMode::PerTier, 1, 9) == static_cast<std::uint32_t>(3203168211198807973ULL));
  CHECK(derive_seed(1234567, SeedMode::PerSwitch, 1, 3) == static_cast<std::uint32_t>(4593380528125082431ULL));
}
}  // namespace seeds_test
