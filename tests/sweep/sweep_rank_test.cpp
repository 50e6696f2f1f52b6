// Ranking one sweep axis over nuisance axes: the statistics of values chosen
// by hand, the order, the gap against the spread (a warning and its negative
// control), and the checks on --rank-by / --over.
#include <doctest/doctest.h>

#include <string>

#include "sim/base/error.h"
#include "sim/config/config.h"
#include "sim/sweep/sweep_rank.h"

namespace sweep_rank_test {

using namespace ecmpsim;

namespace {

const char* kSmall = R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 2
[workload]
placement = "strided"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "xxh3"
)";

Spec small_spec() { return parse_config(kSmall, "small.toml"); }

// 2 seeds x 4 QP bases: variant index = qpn * 2 + seed (the seed varies fastest).
VariantSpace two_seeds_four_bases(const Spec& spec) {
  SweepSpec axes;
  axes.seeds = UintRange{0, 2, 1};
  axes.qpn_base = UintRange{256, 260, 1};
  return VariantSpace(spec, axes);
}

// FIM of seed s at QP base q is fim[s][q]; the other metrics 0.
ValueTable table(const VariantSpace& space, const double (&fim)[2][4]) {
  ValueTable t;
  t.resize(space.size());
  for (std::uint64_t i = 0; i < space.size(); ++i) {
    for (double& v : t[i]) v = 0;
    t[i][static_cast<std::size_t>(SweepMetric::Fim)] = fim[i % 2][i / 2];
  }
  return t;
}

RankSpec seeds_over_qpn(SweepMetric metric = SweepMetric::Fim) {
  RankSpec r;
  r.axis = SweepAxis::Seeds;
  r.over = {SweepAxis::QpnBase};
  r.metric = metric;
  return r;
}

}  // namespace

TEST_CASE("per-seed mean, p10, p90, min and max over the QP bases, best first; a gap within the spread warns") {
  const Spec spec = small_spec();
  const VariantSpace space = two_seeds_four_bases(spec);
  // Seed 0: 4, 1, 3, 2 (mean 2.5); seed 1: 2, 5, 3, 4 (mean 3.5). Nearest rank
  // of 4 values: p10 is rank ceil(0.4) = 1, p90 rank ceil(3.6) = 4, so each
  // seed's p90 - p10 is 3, the spread 3, and the gap 1 is within it.
  const double fim[2][4] = {{4, 1, 3, 2}, {2, 5, 3, 4}};
  const ValueTable t = table(space, fim);
  const SweepRanking r = rank_sweep(space, t, check_rank_spec(space, seeds_over_qpn()), false);
  REQUIRE(r.metrics == std::vector<SweepMetric>{SweepMetric::Fim});
  REQUIRE(r.groups.size() == 1);
  const RankGroup& g = r.groups[0];
  REQUIRE(g.ranked.size() == 2);
  CHECK(g.ranked[0].value == 0);
  CHECK(g.ranked[0].samples == 4);
  const RankStats& best = g.ranked[0].stats[0];
  CHECK(best.mean == doctest::Approx(2.5));
  CHECK(best.min == 1);
  CHECK(best.max == 4);
  CHECK(best.p10 == 1);
  CHECK(best.p90 == 4);
  CHECK(g.ranked[1].value == 1);
  CHECK(g.ranked[1].stats[0].mean == doctest::Approx(3.5));
  CHECK(g.gap == doctest::Approx(1));
  CHECK(g.spread == doctest::Approx(3));
  CHECK(g.within_spread);
  const auto notes = rank_notes(space, r);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("within the noise") != std::string::npos);
  CHECK(notes[0].find("seed 0, mean 2.5000") != std::string::npos);
  CHECK(notes[0].find("seed 1, mean 3.5000") != std::string::npos);
}

TEST_CASE("negative control: a gap beyond the spread ranks without a warning; Jain ranks highest first") {
  const Spec spec = small_spec();
  const VariantSpace space = two_seeds_four_bases(spec);
  // Seed 1 is worse by 10 on every base: gap 10, spread 3.
  const double fim[2][4] = {{14, 11, 13, 12}, {4, 1, 3, 2}};
  const ValueTable t = table(space, fim);
  const SweepRanking r = rank_sweep(space, t, check_rank_spec(space, seeds_over_qpn()), false);
  const RankGroup& g = r.groups[0];
  CHECK(g.ranked[0].value == 1);  // the lower FIM first
  CHECK(g.gap == doctest::Approx(10));
  CHECK(g.spread == doctest::Approx(3));
  CHECK_FALSE(g.within_spread);
  CHECK(rank_notes(space, r).empty());
  // The same numbers as Jain's index, where higher is better: seed 0 first.
  ValueTable jain = table(space, fim);
  for (std::uint64_t i = 0; i < jain.size(); ++i)
    jain[i][static_cast<std::size_t>(SweepMetric::Jain)] = jain[i][static_cast<std::size_t>(SweepMetric::Fim)];
  const SweepRanking rj = rank_sweep(space, jain, check_rank_spec(space, seeds_over_qpn(SweepMetric::Jain)), false);
  CHECK(rj.groups[0].ranked[0].value == 0);
  CHECK(rj.metrics == std::vector<SweepMetric>{SweepMetric::Jain, SweepMetric::Fim});
}

TEST_CASE("an interrupted prefix ranks the variants it has") {
  const Spec spec = small_spec();
  const VariantSpace space = two_seeds_four_bases(spec);
  const double fim[2][4] = {{4, 1, 3, 2}, {2, 5, 3, 4}};
  const ValueTable t = table(space, fim);
  // The first 5 variants: seed 0 at bases 0..2 (4, 1, 3), seed 1 at bases 0..1 (2, 5).
  const SweepRanking r = rank_sweep(space, t.view().sub(0, 5), check_rank_spec(space, seeds_over_qpn()), false);
  const RankGroup& g = r.groups[0];
  CHECK(g.ranked[0].samples == 3);
  CHECK(g.ranked[0].stats[0].mean == doctest::Approx(8.0 / 3));
  CHECK(g.ranked[1].samples == 2);
  CHECK(g.ranked[1].stats[0].mean == doctest::Approx(3.5));
}

TEST_CASE("--rank-by and --over are checked against the sweep's axes") {
  const Spec spec = small_spec();
  const VariantSpace space = two_seeds_four_bases(spec);
  auto fails = [&](RankSpec r, const std::string& words) {
    try {
      check_rank_spec(space, std::move(r));
      FAIL("accepted");
    } catch (const InputError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    }
  };
  RankSpec r = seeds_over_qpn();
  r.axis = SweepAxis::Qps;  // one value
  fails(r, "one value on axis qps");
  r = seeds_over_qpn();
  r.over = {SweepAxis::SportBase};  // not swept
  fails(r, "axis sport-base has one value");
  r.over = {SweepAxis::Seeds};
  fails(r, "seeds is the ranked axis");
  // Without --over, every other swept axis is nuisance.
  r.over.clear();
  CHECK(check_rank_spec(space, r).over == std::vector<SweepAxis>{SweepAxis::QpnBase});
  // A third swept axis must be ranked or nuisance.
  SweepSpec axes = space.axes();
  axes.placement_seeds = UintRange{0, 3, 1};
  const VariantSpace three(spec, axes);
  try {
    check_rank_spec(three, seeds_over_qpn());
    FAIL("accepted");
  } catch (const InputError& e) {
    // The engine names the option by key; the command line's spelling is describe()'s default.
    CHECK(e.describe().find("placement-seeds has 3 values but is neither ranked nor in --over") !=
          std::string::npos);
  }
}

TEST_CASE("nothing moved at all (gap 0, spread 0) is not noise: no warning") {
  const Spec spec = small_spec();
  const VariantSpace space = two_seeds_four_bases(spec);
  const double fim[2][4] = {{2, 2, 2, 2}, {2, 2, 2, 2}};
  const ValueTable t = table(space, fim);
  const SweepRanking r = rank_sweep(space, t, check_rank_spec(space, seeds_over_qpn()), false);
  CHECK(r.groups[0].gap == 0);
  CHECK(r.groups[0].spread == 0);
  CHECK_FALSE(r.groups[0].within_spread);
  CHECK(rank_notes(space, r).empty());
}
}  // namespace sweep_rank_test
