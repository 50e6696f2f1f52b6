// `ecmpsim sweep --rank-by AXIS --over AXES`: the per-seed statistics checked
// against `ecmpsim run` of every variant (the simulation, not the sweep
// kernel), the warning when the seeds differ less than the QP numbering
// moves the metric, and its negative control, two algorithms whose gap is
// worked by hand.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"
#include "tests/support/two_hosts_config.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rank_output_test {

using json = nlohmann::json;

namespace {

const std::string kPaper16 = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";

json run_json(std::vector<std::string> args) {
  args.insert(args.end(), {"--format", "json"});
  const CliResult r = cli_run(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return json::parse(r.out);
}

// Nearest rank of ascending `v`: rank ceil(p/100 * n).
double rank_of(std::vector<double> v, unsigned p) {
  std::sort(v.begin(), v.end());
  const std::size_t rank = (p * v.size() + 99) / 100;
  return v[std::max<std::size_t>(rank, 1) - 1];
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

bool any_note_with(const json& notes, const std::string& words) {
  for (const auto& n : notes)
    if (n.get<std::string>().find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("two xxh3 seeds over ten QP bases: each seed's statistics are those of `ecmpsim run` of its variants") {
  const json doc = run_json({"sweep", kPaper16, "--algos", "xxh3", "--seeds", "0:2", "--qpn-base", "256:276:2",
                             "--rank-by", "seeds", "--over", "qpn-base", "--metric", "slowdown"});
  const json& ranking = doc["ranking"];
  CHECK(ranking["rank_by"] == "seeds");
  CHECK(ranking["over"] == json::array({"qpn-base"}));
  CHECK(ranking["metric"] == "slowdown");
  REQUIRE(ranking["groups"].size() == 1);
  const json& group = ranking["groups"][0];
  CHECK(group["scenario"] == "ecmp");
  CHECK(group["algo"] == "xxh3");
  REQUIRE(group["ranked"].size() == 2);
  double range_sum = 0;
  std::vector<double> means;
  for (const json& entry : group["ranked"]) {
    const auto seed = entry["value"].get<unsigned>();
    std::vector<double> fim, slowdown;
    for (unsigned q = 256; q < 276; q += 2) {
      const json run = run_json({"run", kPaper16, "--scenario", "ecmp", "--algo", "xxh3", "--seed",
                                 std::to_string(seed), "--qpn-base", std::to_string(q)});
      const json& scenario = run["scenarios"][0];
      fim.push_back(scenario["metrics"]["fim"].get<double>());
      slowdown.push_back(scenario["predicted"]["slowdown"].get<double>());
    }
    CAPTURE(seed);
    CHECK(entry["samples"] == 10);
    for (const auto& [name, v] : {std::pair{"fim", fim}, std::pair{"slowdown", slowdown}}) {
      const json& m = entry["metrics"][name];
      CHECK(m["mean"].get<double>() == doctest::Approx(mean_of(v)));
      CHECK(m["p10"].get<double>() == doctest::Approx(rank_of(v, 10)));
      CHECK(m["p90"].get<double>() == doctest::Approx(rank_of(v, 90)));
      CHECK(m["min"].get<double>() == doctest::Approx(rank_of(v, 0)));
      CHECK(m["max"].get<double>() == doctest::Approx(*std::max_element(v.begin(), v.end())));
    }
    means.push_back(mean_of(slowdown));
    range_sum += rank_of(slowdown, 90) - rank_of(slowdown, 10);
  }
  CHECK(means[0] <= means[1]);  // best first
  const double gap = means[1] - means[0], spread = range_sum / 2;
  CHECK(group["gap"].get<double>() == doctest::Approx(gap));
  CHECK(group["spread"].get<double>() == doctest::Approx(spread));
  CHECK(group["within_spread"] == (gap <= spread));
  CHECK(any_note_with(doc["notes"], "within the noise") == (gap <= spread));
}

TEST_CASE("CRC seeds only rename uplinks, the QP numbering moves FIM: the ranking warns in the table and the JSON") {
  const std::vector<std::string> args{"sweep", kPaper16, "--seeds", "0:4", "--qpn-base", "256:264", "--rank-by",
                                      "seeds"};
  const json doc = run_json(args);
  const json& group = doc["ranking"]["groups"][0];
  CHECK(doc["ranking"]["over"] == json::array({"qpn-base"}));  // the default: every other swept axis
  CHECK(group["gap"].get<double>() == 0);                    // every seed the same numbers
  CHECK(group["spread"].get<double>() > 0);
  CHECK(group["within_spread"] == true);
  CHECK(any_note_with(doc["notes"], "ranking seeds by mean fim for scenario 'ecmp' is within the noise"));
  const CliResult table = cli_run(args);
  REQUIRE(table.code == 0);
  CHECK(table.out.find("note       ranking seeds by mean fim") != std::string::npos);
  CHECK(table.out.find("seeds ranked by mean fim over qpn-base: scenario 'ecmp'") != std::string::npos);
  CHECK(table.out.find("WITHIN the spread") != std::string::npos);
}

TEST_CASE("negative control: two algorithms 1.0 apart in slowdown, over seeds that change nothing, do not warn") {
  // Two hosts on two leaves, two spines, two flows per direction from one NIC
  // (tests/support/two_hosts_config.h works it): crc16-ccitt puts both on
  // one 400G uplink for every seed (slowdown 2), crc16-arc spreads them
  // (slowdown 1). Gap 1, spread 0.
  const auto path = std::filesystem::temp_directory_path() / "ecmpsim_rank_output_two_hosts.toml";
  std::ofstream(path) << kTwoHostsToml;
  const std::vector<std::string> args{"sweep", path.string(), "--algos", "crc16-ccitt,crc16-arc", "--seeds", "0:5",
                                      "--rank-by", "algos", "--over", "seeds", "--metric", "slowdown"};
  const json doc = run_json(args);
  const json& group = doc["ranking"]["groups"][0];
  CHECK(group["scenario"] == "ecmp");
  CHECK_FALSE(group.contains("algo"));  // ranked, not fixed
  REQUIRE(group["ranked"].size() == 2);
  CHECK(group["ranked"][0]["value"] == "crc16-arc");
  CHECK(group["ranked"][0]["metrics"]["slowdown"]["mean"].get<double>() == doctest::Approx(1));
  CHECK(group["ranked"][1]["value"] == "crc16-ccitt");
  CHECK(group["ranked"][1]["metrics"]["slowdown"]["mean"].get<double>() == doctest::Approx(2));
  CHECK(group["gap"].get<double>() == doctest::Approx(1));
  CHECK(group["spread"].get<double>() == doctest::Approx(0));
  CHECK(group["within_spread"] == false);
  CHECK_FALSE(any_note_with(doc["notes"], "within the noise"));
  const CliResult table = cli_run(args);
  CHECK(table.out.find("the gap exceeds the spread") != std::string::npos);
  CHECK(table.out.find("within the noise") == std::string::npos);
}

TEST_CASE("--rank-by and --over: errors, and the axes listed in --help") {
  CHECK(cli_run({"sweep", kPaper16, "--seeds", "0:2", "--over", "qpn-base"}).code == 2);
  CHECK(cli_run({"sweep", kPaper16, "--seeds", "0:2", "--rank-by", "seed"}).code != 0);
  const CliResult csv = cli_run({"sweep", kPaper16, "--seeds", "0:2", "--qpn-base", "256:258", "--rank-by", "seeds",
                                 "--format", "csv"});
  CHECK(csv.code == 2);
  CHECK(csv.err.find("CSV holds one row per variant") != std::string::npos);
  const CliResult unknown = cli_run({"sweep", kPaper16, "--seeds", "0:2", "--qpn-base", "256:258", "--rank-by",
                                     "seeds", "--over", "qpn"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("unknown axis 'qpn'") != std::string::npos);
  const CliResult help = cli_run({"sweep", "--help"});
  for (const char* axis : {"scenario", "algos", "placement-seeds", "qps", "qpn-base", "sport-base", "seeds"})
    CHECK_MESSAGE(help.out.find(std::string(axis) + ": the ") != std::string::npos, axis);
}
}  // namespace rank_output_test
