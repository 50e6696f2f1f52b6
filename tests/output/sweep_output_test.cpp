// The sweep's writers: each scenario and algorithm summarized on its own, the
// pooled view only on request, and every job's bus bandwidth beside the
// slowdown, on a fabric small enough to work the numbers by hand.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"
#include "tests/support/two_hosts_config.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace sweep_output_test {

using json = nlohmann::json;

namespace {

// kTwoHostsToml (tests/support/two_hosts_config.h, where its numbers are
// worked) with a second scenario, "arc", on crc16-arc.
const std::string kTwoHosts = std::string(kTwoHostsToml) + R"([[scenario]]
name = "arc"
base = "ecmp"
[scenario.hash]
algo = "crc16-arc"
)";

std::string write(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ecmpsim_sweep_output_" + name);
  std::ofstream(path) << text;
  return path.string();
}

json sweep_json(std::vector<std::string> args) {
  args.insert(args.begin(), "sweep");
  args.insert(args.end(), {"--format", "json"});
  const CliResult r = cli_run(args);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

void check_constant(const json& m, double v) {
  for (const char* k : {"min", "mean", "p50", "p90", "p99", "max"}) CHECK(m[k].get<double>() == doctest::Approx(v));
}

}  // namespace

TEST_CASE("two algorithms: each summarized on its own with its hand-worked busbw; pooled only on request") {
  const std::string cfg = write("algos.toml", kTwoHosts);
  const json doc = sweep_json({cfg, "--scenario", "ecmp", "--algos", "crc16-ccitt,crc16-arc", "--seeds", "0:5"});
  CHECK_FALSE(doc.contains("metrics"));  // a distribution over both describes neither
  CHECK_FALSE(doc.contains("best"));
  REQUIRE(doc["scenarios"].size() == 2);
  const json& together = doc["scenarios"][0];
  const json& apart = doc["scenarios"][1];
  CHECK(together["algo"] == "crc16-ccitt");
  CHECK(apart["algo"] == "crc16-arc");
  for (const json* s : {&together, &apart}) {
    CHECK((*s)["scenario"] == "ecmp");
    CHECK((*s)["samples"] == 5);
    REQUIRE((*s)["busbw"].size() == 1);
    CHECK((*s)["busbw"][0]["job"] == "job0");
  }
  check_constant(together["busbw"][0]["gbps"], 400);
  check_constant(together["busbw"][0]["GBps"], 50);
  check_constant(together["metrics"]["slowdown"], 2);
  check_constant(together["metrics"]["max_flows"], 2);
  check_constant(apart["busbw"][0]["gbps"], 800);
  check_constant(apart["busbw"][0]["GBps"], 100);
  check_constant(apart["metrics"]["slowdown"], 1);
  check_constant(apart["metrics"]["max_flows"], 1);
  // Best and worst stay within their own algorithm's variants (0..4 and 5..9).
  CHECK(together["best"]["index"].get<int>() < 5);
  CHECK(apart["worst"]["index"].get<int>() >= 5);
  CHECK(apart["best"]["busbw"][0]["GBps"].get<double>() == doctest::Approx(100));

  const json pooled = sweep_json({cfg, "--scenario", "ecmp", "--algos", "crc16-ccitt,crc16-arc", "--seeds", "0:5",
                                  "--pooled"});
  CHECK(pooled["scenarios"] == doc["scenarios"]);
  CHECK(pooled["busbw"][0]["gbps"]["mean"].get<double>() == doctest::Approx(600));  // (400 + 800) / 2
  CHECK(pooled["busbw"][0]["gbps"]["min"].get<double>() == doctest::Approx(400));
  CHECK(pooled["busbw"][0]["GBps"]["max"].get<double>() == doctest::Approx(100));
  CHECK(pooled["metrics"]["slowdown"]["mean"].get<double>() == doctest::Approx(1.5));
}

TEST_CASE("two scenarios in the table: a section each, the pooled one last and only with --pooled") {
  const std::string cfg = write("scenarios.toml", kTwoHosts);
  const CliResult r = cli_run({"sweep", cfg, "--seeds", "0:3"});
  REQUIRE(r.code == 0);
  const auto first = r.out.find("scenario 'ecmp': 3 of 3 variants\n=");
  const auto second = r.out.find("scenario 'arc': 3 of 3 variants\n=");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  CHECK(r.out.find("pooled") == std::string::npos);
  // busbw beside the slowdown, in Gb/s and in nccl-tests' GB/s: 400 and 50 for ecmp, 800 and 100 for arc.
  const std::string ecmp = r.out.substr(first, second - first), arc = r.out.substr(second);
  CHECK(ecmp.find("fabric-bound busbw (Gb/s)    400.0000  400.0000") != std::string::npos);
  CHECK(ecmp.find("fabric-bound busbw (GB/s)     50.0000") != std::string::npos);
  CHECK(arc.find("fabric-bound busbw (Gb/s)    800.0000") != std::string::npos);
  CHECK(arc.find("fabric-bound busbw 800.00 Gb/s (100.00 GB/s)") != std::string::npos);
  const CliResult pooled = cli_run({"sweep", cfg, "--seeds", "0:3", "--pooled"});
  REQUIRE(pooled.code == 0);
  const auto at = pooled.out.find("every scenario and algorithm pooled: 6 variants\n");
  REQUIRE(at != std::string::npos);
  CHECK(at > pooled.out.find("scenario 'arc'"));
  CHECK(pooled.out.find("fabric-bound busbw (Gb/s)    400.0000  600.0000", at) != std::string::npos);

  // CSV: both busbw columns per variant.
  const CliResult csv = cli_run({"sweep", cfg, "--seeds", "0:3", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("index,scenario,seed,seed_mode,fim,max_mean,cov,jain,max_flows,slowdown,"
                      "busbw_gbps:job0,busbw_GBps:job0\n",
                      0) == 0);
  CHECK(csv.out.find("\n3,arc,0,same,") != std::string::npos);
  CHECK(csv.out.find(",800,100\n") != std::string::npos);
}

TEST_CASE("busbw per job: two jobs get a column each, equal to run's prediction of each job") {
  // job a: ring over host0, host1 (2 channels); job b: ring over host2, host3.
  const std::string cfg = write("jobs.toml", R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 2
[[job]]
name = "a"
nodes = 2
placement = "strided"
channels = 2
[[job]]
name = "b"
nodes = 2
placement = "strided"
channels = 1
message_bytes = "256MiB"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "xxh3"
)");
  const json doc = sweep_json({cfg, "--seeds", "0:20"});
  REQUIRE(doc["busbw"].size() == 2);
  CHECK(doc["busbw"][0]["job"] == "a");
  CHECK(doc["busbw"][1]["job"] == "b");
  for (const char* which : {"best", "worst"}) {
    std::vector<std::string> args{"run", cfg, "--format", "json"};
    for (const auto& a : doc[which]["args"]) args.push_back(a.get<std::string>());
    const CliResult run = cli_run(args);
    REQUIRE(run.code == 0);
    const json jobs = json::parse(run.out)["scenarios"][0]["predicted"]["jobs"];
    REQUIRE(jobs.size() == 2);
    for (std::size_t j = 0; j < 2; ++j) {
      CHECK(doc[which]["busbw"][j]["gbps"].get<double>() == jobs[j]["busbw_gbps"].get<double>());
      CHECK(doc[which]["busbw"][j]["GBps"].get<double>() == jobs[j]["busbw_gbps"].get<double>() / 8);
    }
  }
  const CliResult table = cli_run({"sweep", cfg, "--seeds", "0:20"});
  REQUIRE(table.code == 0);
  for (const char* label : {"fabric-bound busbw a (Gb/s)", "fabric-bound busbw a (GB/s)", "fabric-bound busbw b (Gb/s)",
                            "fabric-bound busbw b (GB/s)"})
    CHECK(table.out.find(std::string("\n") + label) != std::string::npos);
  // Without the flow model there is no busbw to show.
  const json fast = sweep_json({cfg, "--seeds", "0:20", "--no-slowdown"});
  CHECK_FALSE(fast.contains("busbw") );
  CHECK_FALSE(fast["best"].contains("busbw"));
}

TEST_CASE("the report sweeps every ECMP scenario on its own") {
  const std::string cfg = write("report.toml", kTwoHosts);
  const CliResult r = cli_run({"report", cfg, "--seeds", "0:4", "--out", "-"});
  REQUIRE(r.code == 0);
  const std::string open = "<script type=\"application/json\" id=\"ecmpsim-data\">";
  const auto at = r.out.find(open);
  REQUIRE(at != std::string::npos);
  const json data = json::parse(r.out.substr(at + open.size(), r.out.find("</script>", at) - at - open.size()));
  REQUIRE(data["sweeps"].size() == 2);
  CHECK(data["sweeps"][0]["scenario"] == "ecmp");
  CHECK(data["sweeps"][1]["scenario"] == "arc");
  check_constant(data["sweeps"][0]["busbw"][0]["GBps"], 50);
  check_constant(data["sweeps"][1]["busbw"][0]["GBps"], 100);
  CHECK(r.out.find("<section id=\"sweep\">") != std::string::npos);
  CHECK(r.out.find("<section id=\"sweep-2\">") != std::string::npos);
  CHECK(r.out.find("<td>fabric-bound busbw (GB/s)</td><td>100.0000</td>") != std::string::npos);
}
}  // namespace sweep_output_test
