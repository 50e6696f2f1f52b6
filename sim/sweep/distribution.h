// How an ECMP scenario's imbalance is distributed over hash seeds: every seed
// of a range evaluated through the public Simulation API, and the summary
// statistics the report and `ecmpsim reproduce` print.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/simulation.h"

namespace ecmpsim {

// min, mean, percentiles by nearest rank (the ceil(p*n)-th smallest value), max.
struct Summary {
  std::size_t count = 0;
  double min = 0, mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};
Summary summarize(std::span<const double> values);

// Half-open seed range [first, end).
struct SeedRange {
  std::uint64_t first = 0;
  std::uint64_t end = 1000;
  std::uint64_t size() const noexcept { return end - first; }
};
// "A:B" with A < B <= 2^32. Throws InputError naming `flag` otherwise.
SeedRange parse_seed_range(std::string_view text, std::string_view flag);
std::string format_seed_range(const SeedRange& r);

struct SeedDistribution {
  std::string scenario;  // the ECMP scenario whose seed varies
  SeedRange seeds;
  std::vector<double> fim;       // per variant (seed first + i), by flow count
  std::vector<double> max_mean;  // per variant
  std::vector<double> slowdown;  // per variant: predicted completion / ideal
  std::size_t best = 0;          // variant with the lowest FIM (lowest seed on ties)
  std::size_t worst = 0;         // variant with the highest FIM (lowest seed on ties)

  std::uint64_t seed(std::size_t variant) const noexcept { return seeds.first + variant; }
};

// Runs `scenario` (an ECMP scenario of `sim`) once per seed in `seeds`, the
// same seed on every switch, in parallel; the result is the same whatever the
// thread count.
SeedDistribution sweep_seeds(const Simulation& sim, const ScenarioSpec& scenario, SeedRange seeds);

}  // namespace ecmpsim
