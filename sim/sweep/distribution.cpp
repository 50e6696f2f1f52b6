#include "sim/sweep/distribution.h"

#include <algorithm>
#include <cmath>

#include "sim/base/error.h"
#include "sim/base/parallel.h"
#include "sim/base/parse.h"

namespace ecmpsim {

Summary summarize(std::span<const double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
  };
  s.min = v.front();
  s.max = v.back();
  s.mean = sum / static_cast<double>(v.size());
  s.p50 = rank(0.50);
  s.p90 = rank(0.90);
  s.p99 = rank(0.99);
  return s;
}

SeedRange parse_seed_range(std::string_view text, std::string_view flag) {
  const auto colon = text.find(':');
  const SourcePos at{{}, 0, 0, std::string(flag)};
  if (colon == std::string_view::npos)
    throw InputError(at, "expected A:B (seeds A up to but not including B), got \"" + std::string(text) + "\"");
  constexpr std::uint64_t kMax = 1ULL << 32;
  const auto a = parse_uint(text.substr(0, colon), kMax);
  const auto b = parse_uint(text.substr(colon + 1), kMax);
  if (!a || !b) throw InputError(at, "seeds must be integers in 0..2^32, got \"" + std::string(text) + "\"");
  if (*a >= *b) throw InputError(at, "empty or reversed seed range \"" + std::string(text) + "\"");
  return {*a, *b};
}

std::string format_seed_range(const SeedRange& r) { return std::to_string(r.first) + ":" + std::to_string(r.end); }

SeedDistribution sweep_seeds(const Simulation& sim, const ScenarioSpec& scenario, SeedRange seeds) {
  SeedDistribution d;
  d.scenario = scenario.name;
  d.seeds = seeds;
  const std::size_t n = seeds.size();
  d.fim.resize(n);
  d.max_mean.resize(n);
  d.slowdown.resize(n);
  // Threads claim blocks of 64 seeds; every seed's result goes to its own slot.
  for_each_chunk(default_threads(), n, 64, [&](unsigned, std::uint64_t, std::uint64_t lo, std::uint64_t hi) {
    ScenarioSpec variant = scenario;
    for (std::uint64_t i = lo; i < hi; ++i) {
      variant.hash.seed = static_cast<std::uint32_t>(seeds.first + i);
      const ScenarioResult res = sim.run(variant);
      d.fim[i] = res.flows.fim;
      d.max_mean[i] = res.flows.max_mean;
      d.slowdown[i] = res.predicted.all.slowdown;
    }
    return true;
  });
  for (std::size_t i = 1; i < n; ++i) {
    if (d.fim[i] < d.fim[d.best]) d.best = i;
    if (d.fim[i] > d.fim[d.worst]) d.worst = i;
  }
  return d;
}

}  // namespace ecmpsim
