// The sweep's per-size metrics (issue 32): busbw_at and busbw_avg of every
// variant are `ecmpsim run`'s size table for that variant (fast kernel and
// the library's general path alike, both channel couplings), the mean over
// sizes is hand-worked on a two-node ring, and a single message_bytes keeps
// the sweep's outputs free of them.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "sim/config/config.h"
#include "sim/model/size_table.h"
#include "sim/sweep/sweep.h"

namespace sweep_sizes_test {

using namespace ecmpsim;

namespace {

std::string temp_config(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ecmpsim_sweep_sizes_test_" + name + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

// 4 leaves x 2 hosts, 2 spines, 1 link per pair: strided ring hops cross the
// spines, where the hash decides who collides; ECMP (fast kernel), planned
// ports and static routing (the general path).
std::string varied(const char* coupling) {
  return std::string(R"(
[fabric]
leaves = 4
spines = 2
hosts_per_leaf = 2
[workload]
placement = "strided"
channels = 2
sizes = { min = "64K", max = "1G", factor = 4 }
size_coupling = ")") + coupling + R"("
[[scenario]]
name = "ecmp"
[[scenario]]
name = "planned"
base = "ecmp"
sports = "planned"
[[scenario]]
name = "static"
routing = "static"
policy = "dst-mod"
)";
}

// busbw_at (at the largest size) and busbw_avg as run's size table gives them.
std::pair<double, double> from_size_table(const Spec& spec, const Overrides& o) {
  Spec s = spec;
  apply_overrides(s, o);
  const Simulation sim(s);
  const std::vector<SizeRow> rows = size_table(sim, sim.run(sim.spec().scenarios.front()));
  REQUIRE(!rows.empty());
  double sum = 0;
  for (const SizeRow& r : rows) sum += r.busbw_gbs;
  return {rows.back().busbw_gbs, sum / static_cast<double>(rows.size())};
}

}  // namespace

TEST_CASE("busbw_at and busbw_avg of every variant are run's size table for that variant") {
  for (const char* coupling : {"lockstep", "independent"}) {
    const Spec spec = parse_config(varied(coupling), "varied.toml");
    SweepSpec axes;
    axes.scenarios = {"ecmp", "planned", "static"};
    axes.seeds = UintRange{0, 6, 1};
    axes.placement_seeds = UintRange{3, 5, 1};
    const Sweep sweep(spec, axes);
    REQUIRE(!sweep.plan(0).sized().empty());
    const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
    REQUIRE(run.done == sweep.space().size());
    std::set<double> distinct;
    for (std::uint64_t i = 0; i < run.done; ++i) {
      INFO(coupling << " variant " << i);
      const auto [at, avg] = from_size_table(spec, sweep.space().at(i));
      CHECK(run.values[i][static_cast<std::size_t>(SweepMetric::BusbwAt)] == at);
      CHECK(run.values[i][static_cast<std::size_t>(SweepMetric::BusbwAvg)] == avg);
      distinct.insert(avg);
    }
    // Negative control: the seeds do move the metric, so equality above is
    // not one constant matched everywhere; and a neighbour's table differs.
    CHECK(distinct.size() > 1);
    std::uint64_t differs = 0;
    for (std::uint64_t i = 0; i + 1 < run.done; ++i)
      differs += run.values[i][static_cast<std::size_t>(SweepMetric::BusbwAvg)] !=
                 from_size_table(spec, sweep.space().at(i + 1)).second;
    CHECK(differs > 0);
  }
}

TEST_CASE("busbw_avg hand-worked: a two-node ring all-reduce, Ring/Simple forced, 1M, 4M, 16M") {
  // Two hosts on two leaves, 100 Gb/s everywhere, one channel: each rank
  // sends S (2(n-1)/n S, n = 2) on its own NIC, so the network busbw is the
  // line rate, 12.5 GB/s, times the hosts' RoCEv2 goodput at MTU 4096,
  // 4096 / (4096 + 82) (docs/prediction.md, Hosts): 12.25466... GB/s under
  // every seed. NCCL 2.23: Ring/Simple latency = baseLat 8.4 + nInterSteps 2
  // x hwLat[NET][Tree row, one GPU per node] 14.0 = 36.4 us, x 1.4 (the ring
  // plateau: S / (1 ch x 2 ranks) >= 64) = 50.96 us; algbw = busBw x nRanks /
  // nSteps = that busBw. time(S) = 50.96 + S x 4178 / (4096 x 12500) us;
  // busbw = algbw x 2(n-1)/n = S / time.
  //   1 MiB: 136.52544 us -> 7.6804440256702335 GB/s
  //   4 MiB: 393.22176 us -> 10.66651041895545 GB/s
  //  16 MiB: 1420.00704 us -> 11.814882269879448 GB/s
  // mean: 10.05394557150171 GB/s.
  const std::string c = temp_config("two", R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 1
host_speed_gbps = 100
fabric_speed_gbps = 100
[workload]
nodes = 2
channels = 1
)");
  const CliResult r = cli_run({"sweep", c, "--seeds", "0:4", "-b", "1M", "-e", "16M", "--stepfactor", "4",
                               "--nccl-algo", "Ring", "--nccl-proto", "Simple", "--metric", "busbw_avg", "--format",
                               "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["ranked_by"] == "busbw_avg");
  const auto& m = doc["metrics"];
  CHECK(m["busbw_avg"]["min"].get<double>() == doctest::Approx(10.05394557150171).epsilon(1e-12));
  CHECK(m["busbw_avg"]["max"].get<double>() == doctest::Approx(10.05394557150171).epsilon(1e-12));
  CHECK(m["busbw_at"]["mean"].get<double>() == doctest::Approx(11.814882269879448).epsilon(1e-12));
  CHECK(doc["sizes"][0]["sizes"] == nlohmann::json::array({1048576, 4194304, 16777216}));
  CHECK(doc["sizes"][0]["busbw_at"] == 16777216);
  // --busbw-at picks the size: 1 MiB's row.
  const CliResult at = cli_run({"sweep", c, "--seeds", "0:2", "-b", "1M", "-e", "16M", "--stepfactor", "4",
                                "--nccl-algo", "Ring", "--nccl-proto", "Simple", "--busbw-at", "1M", "--format", "json"});
  REQUIRE(at.code == 0);
  CHECK(nlohmann::json::parse(at.out)["metrics"]["busbw_at"]["mean"].get<double>() ==
        doctest::Approx(7.6804440256702335).epsilon(1e-12));
  // Negative control: the mean of the busbw is not the busbw of the mean size
  // (7 MiB: 50.96 + 598.95808 us -> 11.29 GB/s), nor the middle size's.
  CHECK(m["busbw_avg"]["mean"].get<double>() != doctest::Approx(11.293780286894004).epsilon(1e-3));
  CHECK(m["busbw_avg"]["mean"].get<double>() != doctest::Approx(10.66651041895545).epsilon(1e-6));
}

TEST_CASE("ranking by busbw: higher is better, in the JSON, CSV and table") {
  const std::string c = temp_config("varied", varied("lockstep"));
  // xxh3: under CRC-16 these seeds only rename the uplinks (one busbw for all).
  const CliResult r = cli_run({"sweep", c, "--scenario", "ecmp", "--algos", "xxh3", "--seeds", "0:16", "--metric",
                               "busbw_at", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& s = doc["metrics"]["busbw_at"];
  CHECK(doc["best"]["metrics"]["busbw_at"] == s["max"]);
  CHECK(doc["worst"]["metrics"]["busbw_at"] == s["min"]);
  CHECK(s["max"].get<double>() > s["min"].get<double>());  // the seeds matter here
  const CliResult csv = cli_run({"sweep", c, "--scenario", "ecmp", "--seeds", "0:2", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.find(",slowdown,busbw_at,busbw_avg,") != std::string::npos);
  const CliResult table = cli_run({"sweep", c, "--scenario", "ecmp", "--seeds", "0:2"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("sizes      job0: 8 sizes, 65536 to 1073741824 B; busbw_at 1073741824 B; lockstep channels") !=
        std::string::npos);
  CHECK(table.out.find("busbw avg (GB/s)") != std::string::npos);
}

TEST_CASE("without sizes no per-size metric appears; asking for one is a one-line error") {
  const std::string plain = temp_config("plain", "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n");
  const CliResult json = cli_run({"sweep", plain, "--seeds", "0:2", "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK(json.out.find("busbw_a") == std::string::npos);
  CHECK_FALSE(nlohmann::json::parse(json.out).contains("sizes"));
  const CliResult csv = cli_run({"sweep", plain, "--seeds", "0:2", "--format", "csv"});
  CHECK(csv.out.find("busbw_a") == std::string::npos);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--metric", "busbw_avg"}, std::vector<std::string>{"--busbw-at", "1M"},
        std::vector<std::string>{"-b", "8", "-e", "64", "--metric", "busbw_at", "--no-slowdown"}}) {
    std::vector<std::string> argv{"sweep", plain, "--seeds", "0:2"};
    argv.insert(argv.end(), args.begin(), args.end());
    const CliResult bad = cli_run(argv);
    INFO(bad.err);
    CHECK(bad.code == 2);
    CHECK(bad.out.empty());
    CHECK(bad.err.find('\n') == bad.err.size() - 1);
    CHECK(bad.err.find("needs") != std::string::npos);
  }
}

TEST_CASE("the vendor prediction of docs/prediction.md: the documented command gives the documented means") {
  // The catalogue's one Tolly setup (docs/published.md), swept by size.
  const std::string c = std::string(ECMPSIM_SOURCE_DIR) + "/configs/published/tolly-225112.toml";
  const CliResult r = cli_run({"sweep", c, "--scenario", "ecmp,planned", "--qpn-base", "256:1256", "--metric",
                               "busbw_avg", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["scenarios"].size() == 2);
  const auto& ecmp = doc["scenarios"][0]["metrics"];
  const auto& planned = doc["scenarios"][1]["metrics"];
  CHECK(ecmp["busbw_avg"]["mean"].get<double>() == doctest::Approx(270.71).epsilon(5e-5));
  CHECK(ecmp["busbw_at"]["mean"].get<double>() == doctest::Approx(286.99).epsilon(5e-5));
  CHECK(planned["busbw_avg"]["min"].get<double>() == doctest::Approx(341.31).epsilon(5e-5));
  CHECK(planned["busbw_at"]["max"].get<double>() == doctest::Approx(367.50).epsilon(5e-5));
}

}  // namespace sweep_sizes_test
