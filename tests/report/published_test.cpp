// The catalogue of published results (sim/report/published.h): the
// precisions' intervals on hand-worked figures; the verdict rule on hand-made
// distributions, a case on each side of each of its boundaries (p10, p90,
// the width of p10-p90, min, max) and the precision that decides the issue's
// "~100 GB/s at 97.6"; the nearest-rank summary on a hand-made list; the metrics on a
// fabric where the answer is known without ecmpsim (one spine: ECMP has one
// path, so the completion is the ideal, every link delivers the NIC's speed,
// a static table or more QPs change nothing, and no published gap can be
// reproduced: the negative control); the
// catalogue's rows against its configs; and `reproduce --list`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/base/error.h"
#include "sim/config/config.h"
#include "sim/app/catalogue.h"
#include "sim/report/published.h"
#include "tests/support/cli_capture.h"

namespace published_test {

using namespace ecmpsim;

namespace {

Distribution hand_made() {
  Distribution d;
  d.cases = 100;
  d.min = 10;
  d.p10 = 20;
  d.p50 = 30;
  d.p90 = 40;
  d.max = 50;
  return d;
}

// 2 leaves x 2 hosts, one spine: every cross-leaf flow has exactly one path.
constexpr const char* kOneSpine = R"(
[fabric]
kind = "leaf-spine"
leaves = 2
spines = 1
hosts_per_leaf = 2
host_speed_gbps = 100
fabric_speed_gbps = 200
[workload]
collective = "ring-allreduce"
placement = "strided"
message_bytes = "64MiB"
channels = 2
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
)";

PublishedExperiment row(PublishedMetric m, double published, std::uint8_t axes) {
  return {"test", "hand-made", "hand-made", published, Precision::Stated, 0, m, "test.toml", "ecmp", "", 0, 0, 0, 0, axes, 4,
          "nothing: one path"};
}

}  // namespace

TEST_CASE("the precisions: each figure's interval, worked by hand") {
  const auto check = [](Interval i, double lo, double hi) {
    CHECK(i.lo == doctest::Approx(lo).epsilon(1e-12));
    CHECK(i.hi == doctest::Approx(hi).epsilon(1e-12));
  };
  check(published_interval(9.70, Precision::Stated, 2), 9.695, 9.705);  // half of 0.01 either side
  check(published_interval(30, Precision::Stated, 0), 29.5, 30.5);
  check(published_interval(212.644, Precision::Stated, 3), 212.6435, 212.6445);
  check(published_interval(100, Precision::About, 0), 95, 105);  // a multiple of 10: rounded to 10
  check(published_interval(70, Precision::About, 0), 65, 75);
  check(published_interval(95, Precision::About, 0), 92.5, 97.5);  // a multiple of 5: rounded to 5
  check(published_interval(58, Precision::About, 0), 57.5, 58.5);  // rounded to 1
  check(published_interval(2.5, Precision::About, 1), 2.25, 2.75);  // 25 tenths: a multiple of 5 tenths
  check(published_interval(40, Precision::UpTo, 0), 0, 45);         // the best run: anything from none to ~40
  check(published_interval(-40, Precision::About, 0), -45, -35);
}

TEST_CASE("the verdict rule: a case on each side of each boundary") {
  const Distribution d = hand_made();  // min 10, p10 20, p90 40, max 50: p10-p90 spans 20
  // Narrow at magnitude 40 (20 <= 0.5 x 40): the figure must meet p10-p90.
  CHECK(verdict_of({15, 20}, 40, d) == Verdict::Reproduced);        // touches p10 (closed)
  CHECK(verdict_of({15, 19.999}, 40, d) == Verdict::NotReproduced);  // just below p10, inside min-max
  CHECK(verdict_of({40, 45}, 40, d) == Verdict::Reproduced);        // touches p90
  CHECK(verdict_of({40.001, 45}, 40, d) == Verdict::NotReproduced);  // just above p90
  // The width: 20 against half the magnitude.
  CHECK(verdict_of({30, 30}, 40, d) == Verdict::Reproduced);         // 20 = 0.5 x 40
  CHECK(verdict_of({30, 30}, 39.99, d) == Verdict::Undetermined);    // 20 > 0.5 x 39.99
  // Wide (magnitude 30: 20 > 15): inside min-max is undetermined, outside is not reproduced.
  CHECK(verdict_of({5, 10}, 30, d) == Verdict::Undetermined);        // touches min
  CHECK(verdict_of({5, 9.999}, 30, d) == Verdict::NotReproduced);
  CHECK(verdict_of({50, 55}, 30, d) == Verdict::Undetermined);       // touches max
  CHECK(verdict_of({50.001, 55}, 30, d) == Verdict::NotReproduced);
  CHECK(verdict_of({30, 30}, 30, d) == Verdict::Undetermined);       // inside p10-p90, still wide
  CHECK(verdict_of({0, 100}, 1000, Distribution{}) == Verdict::NotReproduced);  // no defined case
}

TEST_CASE("the verdict rule: the precision decides \"~100 GB/s\" against a narrow 97.6") {
  Distribution d;
  d.cases = 10;
  d.min = 96;
  d.p10 = d.p50 = d.p90 = d.max = 97.6;
  // "~100" is 95 to 105: it meets 97.6 and p10-p90 is narrow.
  CHECK(verdict_of(published_interval(100, Precision::About, 0), 100, d) == Verdict::Reproduced);
  // The same figure read as exact (99.5 to 100.5) lies above every case: the negative control.
  CHECK(verdict_of(published_interval(100, Precision::Stated, 0), 100, d) == Verdict::NotReproduced);
}

TEST_CASE("the distribution: nearest-rank percentiles, NaNs left out") {
  const Distribution d = distribution_of({7, 3, 10, 1, std::nan(""), 5, 2, 9, 4, 8, 6});
  CHECK(d.cases == 10);
  CHECK(d.min == 1);
  CHECK(d.p10 == 1);  // rank ceil(0.1 x 10) = 1
  CHECK(d.p50 == 5);  // rank 5
  CHECK(d.p90 == 9);  // rank 9
  CHECK(d.max == 10);
}

TEST_CASE("one path: effective Gb/s is the NIC speed and the gap to ideal is 0 in every case") {
  const Spec spec = parse_config(kOneSpine, "one-spine.toml");
  const std::uint8_t axes = axis_bit(UnknownAxis::HashAlgo) | axis_bit(UnknownAxis::HashSeed) |
                            axis_bit(UnknownAxis::QpnBase);
  const PublishedExperiment eff = row(PublishedMetric::EffectiveGbps, 70, axes);
  const PublishedResult r = app::run_published(eff, spec);
  CHECK(r.cases.size() == 4 * 4 * 4);  // QP bases x algos (the config's crc16-ccitt once) x seeds
  CHECK(r.dist.min == doctest::Approx(100));
  CHECK(r.dist.max == doctest::Approx(100));
  CHECK(r.verdict == Verdict::NotReproduced);
  CHECK(r.reason.find("below every case") != std::string::npos);  // 70 < 100
  CHECK(r.reason.find("nothing: one path") != std::string::npos);
  for (const AxisEffect& a : r.effects) CHECK(a.spread == doctest::Approx(0));

  const PublishedResult gap = app::run_published(row(PublishedMetric::IdealGap, 30, axes), spec);
  CHECK(gap.dist.max == doctest::Approx(0).epsilon(1e-9));
  CHECK(gap.verdict == Verdict::NotReproduced);
  // ...and a published 0 lies inside: the rule reproduces what the model gives.
  CHECK(app::run_published(row(PublishedMetric::IdealGap, 0, axes), spec).verdict == Verdict::Reproduced);
}

TEST_CASE("one path: FIM 0 leaves the reduction undefined; more QPs speed nothing up") {
  const Spec spec = parse_config(std::string(kOneSpine) + "[[scenario]]\nname = \"static\"\nrouting = \"static\"\n"
                                                          "policy = \"dst-mod\"\n",
                                 "one-spine.toml");
  const std::uint8_t axes = axis_bit(UnknownAxis::HashAlgo) | axis_bit(UnknownAxis::Placement);
  PublishedExperiment fim = row(PublishedMetric::FimReduction, 30, axes);
  fim.treatment = "static";
  // Both leaves' single uplinks carry the same flows: ECMP's FIM is 0, so no
  // reduction is defined, and an undefined metric reproduces nothing.
  const PublishedResult r = app::run_published(fim, spec);
  REQUIRE(r.cases.size() == 4 * 5);  // algos x placements (strided, random 0-3)
  CHECK(std::isnan(r.cases.front().value));
  CHECK(r.dist.cases == 0);
  CHECK(r.verdict == Verdict::NotReproduced);
  CHECK(r.reason == "no case defines the metric");
  // The treatment with 4 QPs per connection: the same bytes on the same one
  // path, so the same completion.
  PublishedExperiment qps = row(PublishedMetric::CompletionGain, 40, axes);
  qps.treatment = "ecmp";
  qps.qps = 1;
  qps.treatment_qps = 4;
  const PublishedResult g = app::run_published(qps, spec);
  CHECK(g.dist.min == doctest::Approx(0));
  CHECK(g.dist.max == doctest::Approx(0));
  CHECK(g.verdict == Verdict::NotReproduced);
}

TEST_CASE("case 0 holds the config's own assumptions, first in every axis") {
  const Spec spec = parse_config(kOneSpine, "one-spine.toml");
  const PublishedResult r = app::run_published(
      row(PublishedMetric::EffectiveGbps, 100, axis_bit(UnknownAxis::HashSeed) | axis_bit(UnknownAxis::Channels)),
      spec);
  REQUIRE(r.axes.size() == 2);
  CHECK(r.cases.front().values == std::vector<std::string>{"2", "0"});
  CHECK(r.cases.size() == 3 * 4);  // channels 2, 1, 4 x seeds 0-3
}

TEST_CASE("a row naming a scenario the config lacks is an error naming the config") {
  const Spec spec = parse_config(kOneSpine, "one-spine.toml");
  PublishedExperiment e = row(PublishedMetric::FimReduction, 30, 0);
  e.treatment = "static";
  try {
    (void)app::run_published(e, spec);
    FAIL("no error");
  } catch (const InputError& err) {
    CHECK(std::string(err.what()).find("'static'") != std::string::npos);
    CHECK(err.where().file == "one-spine.toml");
  }
}

TEST_CASE("the catalogue: unique names, every config shipped and used, the issue's six sources") {
  std::set<std::string> names, configs;
  for (const PublishedExperiment& e : published_experiments()) {
    CHECK(names.insert(std::string(e.name)).second);
    CHECK(find_published(e.name) == &e);
    CHECK(std::filesystem::is_regular_file(std::string(ECMPSIM_SOURCE_DIR) + "/" + std::string(e.config)));
    CHECK_FALSE(e.lacks.empty());
    configs.insert(std::string(e.config));
  }
  for (const auto& f : std::filesystem::directory_iterator(std::string(ECMPSIM_SOURCE_DIR) + "/configs/published"))
    CHECK(configs.count("configs/published/" + f.path().filename().string()) == 1);
  CHECK(configs.size() >= 6);
  CHECK(find_published("nope") == nullptr);
}

TEST_CASE("reproduce --list names every experiment with its source; csv one row each") {
  const CliResult list = cli_run({"reproduce", "--list"});
  CHECK(list.code == 0);
  for (const PublishedExperiment& e : published_experiments()) {
    CHECK(list.out.find(std::string(e.name)) != std::string::npos);
    CHECK(list.out.find(std::string(e.source)) != std::string::npos);
  }
  const CliResult csv = cli_run({"reproduce", "--list", "--format", "csv"});
  CHECK(csv.code == 0);
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == static_cast<long>(published_experiments().size() + 1));
  const CliResult bad = cli_run({"reproduce", "configs/paper16.toml", "--format", "csv"});
  CHECK(bad.code == 2);
  const CliResult unknown = cli_run({"reproduce", "tolly"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("reproduce --list") != std::string::npos);
}

TEST_CASE("reproduce NAME: the compiled-in config from any directory; the JSON's verdict follows the rule") {
  const auto here = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  const CliResult r = cli_run({"reproduce", "nccl169-3n", "--format", "json"});
  std::filesystem::current_path(here);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["name"] == "nccl169-3n");
  CHECK(j["config"] == "configs/published/nccl-tests-169.toml");
  CHECK(j["unit"] == "GB/s");
  Distribution d;
  d.cases = j["distribution"]["cases"];
  d.min = j["distribution"]["min"];
  d.p10 = j["distribution"]["p10"];
  d.p50 = j["distribution"]["p50"];
  d.p90 = j["distribution"]["p90"];
  d.max = j["distribution"]["max"];
  CHECK(d.cases == j["cases"]);
  CHECK(d.min <= d.p10);
  CHECK(d.p10 <= d.p50);
  CHECK(d.p50 <= d.p90);
  CHECK(d.p90 <= d.max);
  const Interval figure{j["interval"]["lo"], j["interval"]["hi"]};
  CHECK(figure.lo < j["published"].get<double>());
  CHECK(figure.hi > j["published"].get<double>());
  CHECK(j["precision"] == "about");
  CHECK(j["verdict"] == std::string(name_of(kVerdicts, verdict_of(figure, j["published"], d))));
  CHECK(j["effects"].size() == j["axes"].size());
}

}  // namespace published_test
