// `ecmpsim plan`: on a fabric small enough to work by hand, the fraction of
// variants meeting the target per choice is the probability theory's, and
// equals the count of `sweep`'s own rows; the first choice meeting the
// confidence wins, in the order given; a target no choice meets says so
// (choice null); checkpoints and shards give the uninterrupted decision;
// bad --choose / --target are one-line errors, exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli_capture.h"

namespace plan_test {
namespace {

namespace fs = std::filesystem;

// Two hosts on two leaves, 4 spines; 1 channel: each direction's flows are
// its QPs, hashed by an ideal hash (xxh3) over the leaf's 4 uplinks, and each
// spine has one link down, so a link carries two flows exactly when two flows
// of one direction pick one spine.
const std::string kBins = R"([fabric]
leaves = 2
spines = 4
hosts_per_leaf = 1
[workload]
nodes = 2
channels = 1
sport_model = "range"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "xxh3"
)";

fs::path dir() {
  const fs::path d = fs::temp_directory_path() / "ecmpsim_plan_test";
  fs::create_directories(d);
  return d;
}

std::string config() {
  const fs::path p = dir() / "bins.toml";
  std::ofstream(p) << kBins;
  return p.string();
}

nlohmann::json plan(std::vector<std::string> extra) {
  std::vector<std::string> args{"plan", config(), "-f", "json", "-j", "2"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = cli_run(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("plan: the fraction of variants with no shared link is the balls-into-bins probability per choice") {
  // m flows per direction into 4 uplinks: P(no two share) = 4!/(4-m)!/4^m;
  // both directions are hashed independently: squared. qps 1: 1; qps 2:
  // (3/4)^2 = 9/16; qps 4: (24/256)^2.
  const auto doc = plan({"--choose", "qps=1,2,4", "--target", "max_flows<=1", "--seeds", "0:4000",
                         "--confidence", "0.5"});
  const double expected[] = {1.0, 9.0 / 16, (24.0 / 256) * (24.0 / 256)};
  REQUIRE(doc["rows"].size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& row = doc["rows"][i];
    CHECK(row["variants"] == 4000);
    const double p = expected[i], sigma = std::sqrt(p * (1 - p) / 4000);
    INFO("qps " << row["value"] << ": " << row["fraction"] << " against " << p);
    CHECK(std::abs(row["fraction"].get<double>() - p) <= 4 * sigma + 1e-12);
  }
  CHECK(doc["rows"][0]["fraction"] == 1.0);  // one flow per direction: never shared
  CHECK(doc["rows"][0]["p90"] == 1.0);
  CHECK(doc["rows"][2]["p50"] == 2.0);       // four flows on four links: mostly shared
  CHECK(doc["choice"] == 1);
  CHECK(doc["axis"] == "qps");
  CHECK(doc["target"]["op"] == "<=");
}

TEST_CASE("plan: the fractions are the counts of sweep's own per-variant rows") {
  const auto doc = plan({"--choose", "qps=2,4", "--target", "max_flows<=1", "--seeds", "0:500"});
  const CliResult csv = cli_run({"sweep", config(), "--qps", "2,4", "--seeds", "0:500", "-f", "csv", "-j", "1"});
  REQUIRE(csv.code == 0);
  std::istringstream in(csv.out);
  std::string line;
  std::getline(in, line);
  REQUIRE(line.rfind("index,scenario,qps,seed,seed_mode,fim,max_mean,cov,jain,max_flows,", 0) == 0);
  std::map<std::string, std::uint64_t> meeting, variants;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
    ++variants[cells[2]];
    meeting[cells[2]] += std::stod(cells[9]) <= 1 ? 1 : 0;
  }
  for (const auto& row : doc["rows"]) {
    const std::string qps = std::to_string(row["value"].get<int>());
    CHECK(row["variants"] == variants[qps]);
    CHECK(row["meeting"] == meeting[qps]);
  }
  CHECK(meeting["2"] > 0);  // the check above is not vacuous: some variants meet, some do not
  CHECK(meeting["2"] < variants["2"]);
}

TEST_CASE("plan: the first choice in the order given that meets the confidence wins, even before a better one") {
  // qps 2 meets max_flows <= 1 in about 56% of variants, qps 1 in all.
  auto doc = plan({"--choose", "qps=2,1", "--target", "max_flows<=1", "--seeds", "0:1000", "--confidence", "0.5"});
  CHECK(doc["choice"] == 2);
  CHECK(doc["rows"][1]["fraction"] == 1.0);
  doc = plan({"--choose", "qps=2,1", "--target", "max_flows<=1", "--seeds", "0:1000", "--confidence", "0.9"});
  CHECK(doc["choice"] == 1);
  CHECK(doc["rows"][0]["meets"] == false);
  CHECK(doc["rows"][1]["meets"] == true);
}

TEST_CASE("plan: a target no choice meets says so, choice null, with the best choice") {
  // Every flow crosses a link: max_flows >= 1 in every variant.
  const auto doc = plan({"--choose", "qps=1,2", "--target", "max_flows<1", "--seeds", "0:100"});
  CHECK(doc["choice"].is_null());
  for (const auto& row : doc["rows"]) CHECK(row["meeting"] == 0);
  CHECK(doc["decision"].get<std::string>().rfind("no choice meets max_flows < 1", 0) == 0);
  const CliResult table =
      cli_run({"plan", config(), "--choose", "qps=1,2", "--target", "max_flows<1", "--seeds", "0:100"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("\ndecision: no choice meets max_flows < 1 in 90.0% of variants: best is qps = 1") !=
        std::string::npos);
}

TEST_CASE("plan: merged shards and a resumed checkpoint give the uninterrupted run's output") {
  const fs::path d = dir() / "ck";
  fs::remove_all(d);
  fs::create_directories(d);
  const std::vector<std::string> base{"plan", config(), "--choose", "qps=1,2,4", "--target", "max_flows<=1",
                                      "--seeds", "0:300", "-f", "json", "-j", "1"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = cli_run(args);
    INFO(r.err);
    CHECK(r.code == 0);
    return r.out;
  };
  const std::string whole = with({});
  const std::string ck = (d / "plan.ck").string();
  with({"--shard", "0/2", "--checkpoint", ck});
  with({"--shard", "1/2", "--checkpoint", ck});
  const fs::path out = d / "merged.json";
  with({"--resume", ck, "--out", out.string()});
  std::ifstream in(out);
  const std::string merged((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(merged == whole);
  CHECK(nlohmann::json::parse(merged)["choice"] == 1);
}

TEST_CASE("plan: bad --choose, --target and --confidence are one-line errors naming the flag, exit 2") {
  const std::string c = config();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--choose", "qps", "--target", "fim<=2"}, "ecmpsim: --choose: 'qps' is not AXIS=V1,V2,..."},
      {{"--choose", "seeds=1,2", "--target", "fim<=2"}, "ecmpsim: --choose: 'seeds' is an unknown to sweep over"},
      {{"--choose", "qps=1,1", "--target", "fim<=2"}, "ecmpsim: --choose: '1' is given twice"},
      {{"--choose", "qps=0,1", "--target", "fim<=2"}, "ecmpsim: --choose: '0' is not an integer in [1, 128]"},
      {{"--choose", "qps=1", "--target", "fim"}, "ecmpsim: --target: 'fim' has no comparison"},
      {{"--choose", "qps=1", "--target", "foo>=1"}, "ecmpsim: --target: unknown metric 'foo'"},
      {{"--choose", "qps=1", "--target", "fim<=x"}, "ecmpsim: --target: 'x' after <= is not a finite number"},
      {{"--choose", "qps=1", "--target", "fim>="}, "ecmpsim: --target: no number after >=: write METRIC>=X"},
      {{"--choose", "qps=1", "--target", "busbw_at>=1"}, "ecmpsim: --target: metric busbw_at needs a size table"},
      {{"--choose", "qps=1", "--target", "fim<=2", "--confidence", "0"}, "ecmpsim: --confidence: expected a fraction"},
      {{"--choose", "qps=1", "--qps", "2", "--target", "fim<=2"}, "ecmpsim: --qps: the axis --choose sweeps"},
      {{"--choose", "qps=1", "--target", "fim<=2", "--metric", "cov"}, "ecmpsim: --metric: a plan's metric"},
  };
  for (const auto& [extra, want] : cases) {
    std::vector<std::string> args{"plan", c};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = cli_run(args);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.rfind(want, 0) == 0);
  }
}

}  // namespace plan_test
