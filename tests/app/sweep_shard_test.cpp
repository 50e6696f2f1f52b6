// Job-array shards (sim/app/sweep_shard.h): the N shards of a sweep hold
// every variant exactly once, each shard sampling the whole numbering, for
// any total and N; --shard I/N and --shard slurm (the task's place from
// Slurm's array variables, ids not starting at 0 and in steps) parse to the
// right shard or are refused naming why.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/base/error.h"
#include "sim/app/sweep_shard.h"

namespace sweep_shard_test {

namespace {

using ecmpsim::InputError;
using ecmpsim::VariantRange;
using ecmpsim::app::Shard;

// How many shards hold each variant of [0, total).
std::vector<int> holders(std::uint64_t total, std::uint64_t n) {
  std::vector<int> count(total, 0);
  for (std::uint64_t i = 0; i < n; ++i)
    for (const VariantRange& r : ecmpsim::app::shard_ranges(total, {i, n}))
      for (std::uint64_t v = r.begin; v < r.end; ++v) ++count[v];
  return count;
}

ecmpsim::app::Shard slurm(std::map<std::string, std::string> vars) {
  return ecmpsim::app::parse_shard("slurm", [&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

std::string slurm_error(std::map<std::string, std::string> vars) {
  try {
    slurm(std::move(vars));
  } catch (const InputError& e) {
    return e.describe();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the shards of a sweep hold every variant once, each sampling the whole numbering") {
  for (const std::uint64_t total : {1ULL, 2ULL, 7ULL, 100ULL, 1000ULL, 12345ULL})
    for (const std::uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 64ULL, 200ULL}) {
      INFO(total << " variants, " << n << " shards");
      const std::vector<int> count = holders(total, n);
      CHECK(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }));
    }
  // 3 shards of 12,000 variants: 64 blocks each, from the first block to the last.
  for (std::uint64_t i = 0; i < 3; ++i) {
    const auto r = ecmpsim::app::shard_ranges(12000, {i, 3});
    CHECK(r.size() == 64);
    CHECK(r.front().begin == i * 12000 / 192);
    CHECK(r.back().end == (189 + i + 1) * 12000 / 192);
  }
  // Negative control: a shard of the wrong count misses or repeats variants.
  std::vector<int> mixed(100, 0);
  for (std::uint64_t i = 0; i < 3; ++i)
    for (const VariantRange& r : ecmpsim::app::shard_ranges(100, {i, i == 2 ? 4ULL : 3ULL}))
      for (std::uint64_t v = r.begin; v < r.end; ++v) ++mixed[v];
  CHECK(!std::all_of(mixed.begin(), mixed.end(), [](int c) { return c == 1; }));
}

TEST_CASE("--shard I/N and --shard slurm") {
  const auto none = [](const char*) -> const char* { return nullptr; };
  const Shard s = ecmpsim::app::parse_shard("2/5", none);
  CHECK(s.index == 2);
  CHECK(s.count == 5);
  for (const char* bad : {"5/5", "1", "a/3", "1/0", "-1/3", "1/3/4", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(ecmpsim::app::parse_shard(bad, none), InputError);
  }
  // sbatch --array=0-3: ids 0..3.
  Shard t = slurm({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"}});
  CHECK((t.index == 3 && t.count == 4));
  // sbatch --array=1-4: ids need not start at 0.
  t = slurm({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "1"}});
  CHECK((t.index == 0 && t.count == 4));
  // sbatch --array=1-7:2: ids 1, 3, 5, 7.
  t = slurm({{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "4"}, {"SLURM_ARRAY_TASK_MIN", "1"},
             {"SLURM_ARRAY_TASK_STEP", "2"}});
  CHECK((t.index == 2 && t.count == 4));
  CHECK(slurm_error({{"SLURM_ARRAY_TASK_COUNT", "4"}}) ==
        "--shard: --shard slurm needs SLURM_ARRAY_TASK_ID (set by Slurm in a job-array task: sbatch --array=0-N)");
  // sbatch --array=1,2,9: ids that are no range are refused, not mapped to a wrong shard.
  CHECK(slurm_error({{"SLURM_ARRAY_TASK_ID", "9"}, {"SLURM_ARRAY_TASK_COUNT", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}}) ==
        "--shard: SLURM_ARRAY_TASK_ID 9 is not one of 3 ids from 1 in steps of 1: give the array a range (sbatch "
        "--array=0-2), or --shard I/N");
  CHECK(slurm_error({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "3"}}) ==
        "--shard: SLURM_ARRAY_TASK_ID is 'x', not a task number");
}

}  // namespace sweep_shard_test
