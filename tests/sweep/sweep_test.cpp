#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"
#include "sim/base/text.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <span>
#include <thread>
#include <atomic>
#include <chrono>
#include <sstream>

#include "hashing/hasher.h"
#include "sim/config/config.h"
#include "sim/config/ranges.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_stats.h"

namespace sweep_test {

using namespace ecmpsim;

namespace {

std::string temp_config(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ecmpsim_sweep_test_" + name + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

// 4 leaves x 2 hosts, 4 spines, 2 parallel links per pair: leaves choose among 8
// uplinks and spines among 2 downlinks, so seeds at both tiers matter.
const char* kVaried = R"(
[fabric]
leaves = 4
spines = 4
hosts_per_leaf = 2
links_per_pair = 2
[workload]
placement = "contiguous"
channels = 3
qps_per_connection = 2
[[scenario]]
name = "ecmp"
[scenario.hash]
fields = ["src-ip", "dst-ip", "proto", "src-port", "dst-port"]
[[scenario]]
name = "inport"
[scenario.hash]
fields = ["src-ip", "src-port", "in-port"]
offset = 3
[[scenario]]
name = "static"
routing = "static"
policy = "dst-mod"
)";

}  // namespace

TEST_CASE("ranges: half-open, with step; empty, reversed and malformed ones are errors") {
  const SourcePos at{{}, 0, 0, "--seeds"};
  const UintRange r = parse_range("10:20:3", 100, at);
  CHECK(r.size() == 4);  // 10, 13, 16, 19
  CHECK(r.at(3) == 19);
  CHECK(parse_range("0:101", 100, at).size() == 101);
  CHECK_THROWS_WITH_AS(parse_range("5:5", 100, at), doctest::Contains("empty"), InputError);
  CHECK_THROWS_WITH_AS(parse_range("9:5", 100, at), doctest::Contains("reversed"), InputError);
  CHECK_THROWS_AS(parse_range("1:5:0", 100, at), InputError);
  CHECK_THROWS_AS(parse_range("1-5", 100, at), InputError);
  CHECK_THROWS_AS(parse_range("0:102", 100, at), InputError);
}

TEST_CASE("nearest-rank percentiles, worked by hand") {
  // n = 10: p50 -> rank ceil(5) = 5, p90 -> rank 9, p99 -> rank ceil(9.9) = 10.
  const std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(nearest_rank(v, 50) == 5);
  CHECK(nearest_rank(v, 90) == 9);
  CHECK(nearest_rank(v, 99) == 10);
  CHECK(nearest_rank(v, 0) == 1);
  // n = 3: p50 -> rank ceil(1.5) = 2.
  CHECK(nearest_rank(std::vector<double>{7, 8, 9}, 50) == 8);
}

TEST_CASE("every variant of every axis matches ecmpsim run's own trace exactly") {
  const Spec spec = parse_config(kVaried, "varied.toml");
  for (const SeedMode mode : {SeedMode::Same, SeedMode::PerTier, SeedMode::PerSwitch}) {
    SweepSpec axes;
    axes.scenarios = {"ecmp", "inport", "static"};
    axes.seeds = UintRange{0, 3, 1};
    axes.seed_mode = mode;
    axes.algos = {"crc16-ccitt"};
    axes.qps = {1, 2};
    axes.qpn_base = UintRange{0x100, 0x300, 0x100};
    axes.sport_base = UintRange{1000, 1002, 1};
    axes.placement_seeds = UintRange{7, 9, 1};
    const Sweep sweep(spec, axes);
    REQUIRE(sweep.space().size() == 3 * 3 * 2 * 2 * 2 * 2);
    const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
    REQUIRE(run.done == sweep.space().size());
    for (std::uint64_t i = 0; i < run.done; i += 7) {
      Spec s = spec;
      apply_overrides(s, sweep.space().at(i));
      const Simulation sim(s);
      const ScenarioResult r = sim.run(sim.spec().scenarios.front());
      INFO("variant " << i);
      CHECK(run.values[i][0] == r.flows.fim);
      CHECK(run.values[i][1] == r.flows.max_mean);
      CHECK(run.values[i][2] == r.flows.cov);
      CHECK(run.values[i][3] == r.flows.jain);
      CHECK(run.values[i][4] == r.flows.max);
      CHECK(run.values[i][5] == r.predicted.all.slowdown);
      // Every job's busbw column is run's busbw of that job, the same formula bit for bit.
      REQUIRE(run.values.jobs() == r.predicted.jobs.size());
      for (std::size_t j = 0; j < run.values.jobs(); ++j)
        CHECK(run.values[i][busbw_column(j)] == r.predicted.jobs[j].busbw.value);
    }
  }
}

TEST_CASE("results do not depend on the thread count or on how chunks are sized") {
  const Spec spec = parse_config(kVaried, "varied.toml");
  SweepSpec axes;
  axes.seeds = UintRange{0, 40, 1};
  axes.seed_mode = SeedMode::PerSwitch;
  axes.qps = {1, 2};
  axes.algos = {"crc16-ccitt", "xxh3"};
  const Sweep sweep(spec, axes);
  const std::uint64_t n = sweep.space().size();
  std::vector<double> first;
  for (unsigned threads : {1u, 2u, 3u})
    for (const std::chrono::nanoseconds target : {std::chrono::nanoseconds(1), std::chrono::nanoseconds(kChunkTarget),
                                                  std::chrono::nanoseconds(std::chrono::hours(1))}) {
      SweepControl control;
      control.chunk_target = target;
      const SweepRun run = run_sweep(sweep, 0, n, threads, &control);
      REQUIRE(run.done == n);
      CHECK(control.finished.load() == n);
      const std::span<const double> all(run.values.data(), n * run.values.width());
      if (first.empty()) first.assign(all.begin(), all.end());
      CAPTURE(threads);
      CAPTURE(target.count());
      CHECK(std::equal(all.begin(), all.end(), first.begin(), first.end()));
    }
}

TEST_CASE("progress moves inside a chunk, not only at its end") {
  // One thread and a target of an hour: chunks double up to a quarter of
  // what is left, so their ends are known in advance (1, 2, 4, ... then
  // left / 4). A count seen between two ends was reported from inside a chunk.
  const Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  SweepSpec axes;
  axes.seeds = UintRange{0, 20000, 1};
  axes.algos = {"xxh3"};
  const Sweep sweep(spec, axes);
  const std::uint64_t n = sweep.space().size();
  std::set<std::uint64_t> ends;
  for (std::uint64_t lo = 0, size = 1; lo < n;) {
    const std::uint64_t claim = std::max<std::uint64_t>(1, std::min(size, (n - lo) / 4));
    lo = std::min(n, lo + claim);
    ends.insert(lo);
    size = claim * 2;
  }
  SweepControl control;
  control.chunk_target = std::chrono::hours(1);
  std::atomic<bool> running{true};
  std::set<std::uint64_t> seen;
  std::thread watcher([&] {
    while (running.load()) seen.insert(control.finished.load());
  });
  const SweepRun run = run_sweep(sweep, 0, n, 1, &control);
  running.store(false);
  watcher.join();
  REQUIRE(run.done == n);
  std::size_t inside = 0;
  for (std::uint64_t v : seen) inside += v > 0 && !ends.count(v);
  CHECK(inside > 0);
}

TEST_CASE("every variant's predicted slowdown equals ecmpsim run's flow model, on an oversubscribed fabric") {
  // paper16 under xxh3: seeds that stack flows on a 400G uplink slow the ring down.
  const Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  SweepSpec axes;
  axes.scenarios = {"ecmp"};
  axes.seeds = UintRange{0, 60, 1};
  axes.algos = {"xxh3"};
  const Sweep sweep(spec, axes);
  const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
  REQUIRE(run.done == 60);
  std::set<double> distinct;
  for (std::uint64_t i = 0; i < run.done; ++i) {
    Spec s = spec;
    apply_overrides(s, sweep.space().at(i));
    const Simulation sim(s);
    const ScenarioResult r = sim.run(sim.spec().scenarios.front());
    INFO("variant " << i);
    CHECK(run.values[i][5] == r.predicted.all.slowdown);
    CHECK(run.values[i][busbw_column(0)] == r.predicted.all.busbw.value);  // the only job
    CHECK(run.values[i][5] >= 1);
    distinct.insert(run.values[i][5]);
  }
  CHECK(distinct.size() > 3);
}

TEST_CASE("the catalogue's seed_affine flag: the XOR shortcut holds for exactly the flagged algorithms") {
  std::mt19937_64 rng(12345);
  int affine = 0, mixing = 0;
  for (const hashing::Algorithm& a : hashing::catalogue()) {
    bool shortcut_always = true;
    for (std::size_t len : {1u, 4u, 12u, 13u, 16u, 37u, 48u, 64u}) {
      std::vector<std::uint8_t> key(len), zeros(len, 0);
      for (int trial = 0; trial < 200; ++trial) {
        for (auto& b : key) b = static_cast<std::uint8_t>(rng());
        const auto seed = static_cast<std::uint32_t>(rng());
        const std::uint64_t shortcut = a.fn(key, 0) ^ a.fn(zeros, seed) ^ a.fn(zeros, 0);
        shortcut_always = shortcut_always && a.fn(key, seed) == shortcut;
      }
    }
    // Flagged: the identity held on every key; not flagged: a key broke it.
    CHECK_MESSAGE(a.seed_affine == shortcut_always, a.name);
    ++(a.seed_affine ? affine : mixing);
  }
  CHECK(affine == 12);  // the CRCs, the XOR folds and Linux bonding's fold
  CHECK(mixing == 9);   // Toeplitz, lookup3, xxHash and the kernel's SipHash
}

TEST_CASE("sweep JSON is byte-identical for 1, 2 and 4 threads") {
  const std::string cfg = temp_config("det", kVaried);
  std::vector<std::string> base{"sweep",     cfg,           "--seeds", "0:40", "--seed-mode", "per-switch",
                                "--qpn-base", "256:1256:250", "--qps",  "1,2", "--format",    "json",
                                "--threshold", "0.3"};
  std::string first;
  for (const char* t : {"1", "2", "4"}) {
    auto args = base;
    args.insert(args.end(), {"--threads", t});
    const CliResult r = cli_run(args);
    REQUIRE(r.code == 0);
    if (first.empty()) first = r.out;
    CHECK(r.out == first);
  }
  const auto doc = nlohmann::json::parse(first);
  CHECK(doc["samples"] == 40 * 4 * 2 * 2);
  // Two ECMP scenarios ("ecmp", "inport"), each summarized on its own.
  REQUIRE(doc["scenarios"].size() == 2);
  for (const auto& sc : doc["scenarios"]) {
    CHECK(sc["samples"] == 40 * 4 * 2);
    for (const char* k : {"fim", "max_mean", "cov", "jain", "max_flows", "slowdown"})
      for (const char* s : {"min", "mean", "p50", "p90", "p99", "max", "histogram"}) CHECK(sc["metrics"][k].contains(s));
    CHECK(sc["metrics"]["fim"]["min"] < sc["metrics"]["fim"]["max"]);  // the axes do change the outcome
  }
}

TEST_CASE("the reported best and worst variants reproduce with ecmpsim run and their args") {
  const std::string cfg = temp_config("best", kVaried);
  const CliResult r = cli_run({"sweep", cfg, "--seeds", "0:200", "--seed-mode", "per-tier", "--qpn-base", "256:260",
                            "--algos", hashing::find("jenkins") ? "crc16-ccitt,jenkins" : "crc16-ccitt", "--format",
                            "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["ranked_by"] == "fim");
  // 2 ECMP scenarios x 2 algorithms, each with its own best and worst.
  REQUIRE(doc["scenarios"].size() == (hashing::find("jenkins") ? 4u : 2u));
  for (const auto& sc : doc["scenarios"]) {
    for (const char* which : {"best", "worst"}) {
      std::vector<std::string> args{"run", cfg, "--format", "json"};
      for (const auto& a : sc[which]["args"]) args.push_back(a.get<std::string>());
      CHECK(sc[which]["values"]["scenario"] == sc["scenario"]);
      CHECK(sc[which]["values"]["algo"] == sc["algo"]);
      const CliResult run = cli_run(args);
      REQUIRE(run.code == 0);
      const auto out = nlohmann::json::parse(run.out);
      REQUIRE(out["scenarios"].size() == 1);
      const auto& got = out["scenarios"][0];
      CHECK(got["metrics"]["fim"].get<double>() == sc[which]["metrics"]["fim"].get<double>());
      CHECK(got["metrics"]["max_flows"].get<double>() == sc[which]["metrics"]["max_flows"].get<double>());
      CHECK(got["predicted"]["slowdown"].get<double>() == sc[which]["metrics"]["slowdown"].get<double>());
      CHECK(got["predicted"]["busbw_gbps"].get<double>() == sc[which]["busbw"][0]["gbps"].get<double>());
    }
    CHECK(sc["best"]["metrics"]["fim"].get<double>() == sc["metrics"]["fim"]["min"].get<double>());
    CHECK(sc["worst"]["metrics"]["fim"].get<double>() == sc["metrics"]["fim"]["max"].get<double>());
  }
}

TEST_CASE("--metric ranks best and worst by that metric; Jain's index is best when highest") {
  // paper16 under an ideal hash: collisions on the 400G uplinks vary with the seed.
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";
  for (const char* metric : {"slowdown", "jain", "max_flows"}) {
    const CliResult r = cli_run({"sweep", cfg, "--seeds", "0:150", "--algos", "xxh3", "--metric", metric,
                                 "--threshold", "1.2", "--format", "json"});
    REQUIRE(r.code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CAPTURE(metric);
    CHECK(doc["ranked_by"] == metric);
    CHECK(doc["threshold"]["metric"] == metric);
    const bool high = std::string(metric) == "jain";
    const auto& m = doc["metrics"][metric];
    CHECK(doc["best"]["metrics"][metric] == (high ? m["max"] : m["min"]));
    CHECK(doc["worst"]["metrics"][metric] == (high ? m["min"] : m["max"]));
    CHECK(m["min"].get<double>() < m["max"].get<double>());  // the seeds do change it
    std::vector<std::string> args{"run", cfg, "--format", "json"};
    for (const auto& a : doc["best"]["args"]) args.push_back(a.get<std::string>());
    const CliResult run = cli_run(args);
    REQUIRE(run.code == 0);
    const auto out = nlohmann::json::parse(run.out)["scenarios"][0];
    CHECK(out["predicted"]["slowdown"] == doc["best"]["metrics"]["slowdown"]);
    CHECK(out["metrics"]["jain"] == doc["best"]["metrics"]["jain"]);
  }
}

TEST_CASE("--no-slowdown leaves the predicted slowdown out of every format") {
  const std::string cfg = temp_config("noslow", kVaried);
  const CliResult json = cli_run({"sweep", cfg, "--seeds", "0:20", "--no-slowdown", "--pooled", "--format", "json"});
  REQUIRE(json.code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["metrics"].contains("fim"));
  CHECK_FALSE(doc["metrics"].contains("slowdown"));
  CHECK_FALSE(doc["best"]["metrics"].contains("slowdown"));
  CHECK_FALSE(doc.contains("busbw"));
  for (const auto& sc : doc["scenarios"]) {
    CHECK_FALSE(sc["metrics"].contains("slowdown"));
    CHECK_FALSE(sc["worst"].contains("busbw"));
  }
  const CliResult csv = cli_run({"sweep", cfg, "--seeds", "0:20", "--no-slowdown", "--format", "csv"});
  REQUIRE(csv.code == 0);
  const std::string header = csv.out.substr(0, csv.out.find('\n'));
  CHECK(header.find("fim") != std::string::npos);
  CHECK(header.find("slowdown") == std::string::npos);
  CHECK(header.find("busbw") == std::string::npos);
  const CliResult with = cli_run({"sweep", cfg, "--seeds", "0:20", "--format", "csv"});
  REQUIRE(with.code == 0);
  CHECK(with.out.substr(0, with.out.find('\n')).find("slowdown") != std::string::npos);
  const CliResult table = cli_run({"sweep", cfg, "--seeds", "0:20", "--no-slowdown"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("predicted slowdown") == std::string::npos);
}

TEST_CASE("bad sweep input: one line on stderr, exit 2, nothing on stdout") {
  const std::string cfg = temp_config("bad", kVaried);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"sweep", cfg, "--seeds", "5:5"},
           {"sweep", cfg, "--seeds", "9:3"},
           {"sweep", cfg, "--seeds", "0:20000000"},
           {"sweep", cfg, "--seeds", "0:100", "--max-variants", "50"},
           {"sweep", cfg, "--algos", "crc16-ccitt,nosuch"},
           {"sweep", cfg, "--scenario", "nosuch"},
           {"sweep", cfg, "--nosuch-axis", "1:2"},
           {"run", cfg, "--algo", "nosuch"},
           {"sweep", cfg, "--metric", "nosuch"},
           {"sweep", cfg, "--metric", "slowdown", "--no-slowdown"},
       }) {
    const CliResult r = cli_run(args);
    INFO(args[2] << " " << (args.size() > 3 ? args[3] : ""));
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(cli_run({"sweep", cfg, "--seeds", "0:100", "--max-variants", "50", "--force", "--format", "csv"}).code == 0);
}

TEST_CASE("a static table that dead-ends: sweep names the file, scenario, switch and destination, as run does") {
  const std::string cfg = temp_config("dead", R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 1
[workload]
nodes = 2
channels = 2
[[scenario]]
name = "pinned"
routing = "static"
routes = [
  { switch = "leaf0", dst = "10.0.1.0/24", via = "spine1" },
  { switch = "leaf1", dst = "10.0.0.1", via = "spine0" },
  { switch = "spine0", dst = "10.0.0.0/23", via = "leaf0" },
]
)");
  // spine1 has no route for leaf1's block: host0 -> host1 reaches it and stops.
  // No explicit route decided: both name the [[scenario]] table (line 9).
  const std::string want =
      "ecmpsim: " + cfg + ":9:1: scenario 'pinned': no route on switch 'spine1' for destination host1 (10.0.1.1)\n";
  const CliResult sweep = cli_run({"sweep", cfg, "--seeds", "0:4"});
  CHECK(sweep.code == 2);
  CHECK(sweep.out.empty());
  CHECK(sweep.err == want);
  const CliResult run = cli_run({"run", cfg});
  CHECK(run.code == 2);
  CHECK(run.err == want);
}

namespace {

// Exact max-load distribution of m labelled balls thrown uniformly into n bins:
// P(max <= k) = #{assignments with every bin <= k} / n^m, the count by a DP
// over bins: f_b(t) = sum_{j <= min(k, t)} f_{b-1}(t - j) * C(t, j) (which j of
// the t balls placed so far sit in bin b). Exact in 64-bit integers for n^m < 2^64.
double balls_max_at_most(unsigned m, unsigned n, unsigned k) {
  std::vector<std::vector<std::uint64_t>> c(m + 1, std::vector<std::uint64_t>(m + 1, 0));
  for (unsigned t = 0; t <= m; ++t) {
    c[t][0] = 1;
    for (unsigned j = 1; j <= t; ++j) c[t][j] = c[t - 1][j - 1] + (j <= t - 1 ? c[t - 1][j] : 0);
  }
  std::vector<std::uint64_t> f(m + 1, 0);
  f[0] = 1;
  for (unsigned b = 0; b < n; ++b) {
    std::vector<std::uint64_t> g(m + 1, 0);
    for (unsigned t = 0; t <= m; ++t)
      for (unsigned j = 0; j <= std::min(k, t); ++j) g[t] += f[t - j] * c[t][j];
    f = g;
  }
  return static_cast<double>(f[m]) / std::pow(static_cast<double>(n), m);
}

}  // namespace

TEST_CASE("balls into bins: the DP matches hand-worked cases") {
  // 2 balls, 2 bins: max 1 iff they split, 2 of 4 assignments.
  CHECK(balls_max_at_most(2, 2, 1) == doctest::Approx(0.5));
  // 3 balls, 3 bins: max 1 iff a permutation, 3! / 27.
  CHECK(balls_max_at_most(3, 3, 1) == doctest::Approx(6.0 / 27));
  // 16 balls, 4 bins, max 4 iff 4 in each: 16! / (4!)^4 / 4^16 = 63063000 / 4294967296.
  CHECK(balls_max_at_most(16, 4, 4) == doctest::Approx(63063000.0 / 4294967296.0));
  CHECK(balls_max_at_most(16, 4, 16) == doctest::Approx(1.0));
}

TEST_CASE("an ideal hash (xxh3) over 20,000 seeds gives the exact balls-into-bins max-load distribution") {
  REQUIRE(hashing::find("xxh3") != nullptr);
  // Two hosts on two leaves, 4 spines: each direction's 16 flows (16 channels,
  // distinct source ports) are hashed by its leaf over the 4 uplinks, and each
  // spine has one link down. The most loaded link carries M = max(X, Y), X and
  // Y independent max loads of 16 balls in 4 bins: P(M <= k) = P(X <= k)^2.
  const Spec spec = parse_config(R"(
[fabric]
leaves = 2
spines = 4
hosts_per_leaf = 1
[workload]
nodes = 2
channels = 16
sport_model = "range"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "xxh3"
)",
                                 "bins.toml");
  SweepSpec axes;
  constexpr unsigned kSeeds = 20000, m = 16, n = 4;
  axes.seeds = UintRange{0, kSeeds, 1};
  const Sweep sweep(spec, axes);
  REQUIRE(sweep.base().flows().size() == 2 * m);
  const SweepRun run = run_sweep(sweep, 0, kSeeds, 2);
  REQUIRE(run.done == kSeeds);
  std::vector<double> observed(m + 1, 0), expected(m + 1, 0);
  for (std::uint64_t i = 0; i < run.values.size(); ++i)
    observed[static_cast<std::size_t>(run.values[i][static_cast<std::size_t>(SweepMetric::MaxFlows)])] += 1;
  for (unsigned k = 1; k <= m; ++k) {
    const double hi = std::pow(balls_max_at_most(m, n, k), 2), lo = std::pow(balls_max_at_most(m, n, k - 1), 2);
    expected[k] = kSeeds * (hi - lo);
  }
  // Pool categories so every expected count is at least 5: low tail into the
  // first, high tail into the last.
  std::vector<double> obs, exp;
  double po = 0, pe = 0;
  for (unsigned k = 0; k <= m; ++k) {
    po += observed[k];
    pe += expected[k];
    if (pe >= 5) {
      obs.push_back(po);
      exp.push_back(pe);
      po = pe = 0;
    }
  }
  obs.back() += po;
  exp.back() += pe;
  double chi2 = 0;
  for (std::size_t i = 0; i < obs.size(); ++i) chi2 += (obs[i] - exp[i]) * (obs[i] - exp[i]) / exp[i];
  // Critical values of chi-square at p = 0.001 for 1..12 degrees of freedom.
  const double critical[] = {0, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458,
                             24.322, 26.124, 27.877, 29.588, 31.264, 32.909};
  const std::size_t df = obs.size() - 1;  // no parameters estimated from the data
  REQUIRE(df >= 3);
  REQUIRE(df <= 12);
  INFO("chi2 = " << chi2 << " with " << df << " degrees of freedom");
  CHECK(chi2 < critical[df]);
}

TEST_CASE("per-hop MAC keys and a configured Toeplitz key: every sweep variant matches run's trace") {
  const std::string cfg = std::string(kVaried) + R"(
[[scenario]]
name = "macs"
[scenario.hash]
fields = ["SRC_MAC", "DST_MAC", "L4_SRC_PORT"]
[scenario.hash.spine]
fields = ["src-ip", "dst-mac", "in-port", "src-port"]
[[scenario]]
name = "rss"
[scenario.hash]
algo = "toeplitz"
rss_key = "3d:c4:3e:b4:47:92:04:5d:5e:7c:12:bb:4f:61:92:2c:0e:8f:ee:02:64:2d:95:1a:6b:c1:a1:71:3b:80:63:e1:5e:d9:b2:07:24:95:43:34"
)";
  const Spec spec = parse_config(cfg, "varied.toml");
  SweepSpec axes;
  axes.scenarios = {"macs", "rss", "ecmp"};
  axes.seeds = UintRange{0, 6, 1};
  axes.seed_mode = SeedMode::PerSwitch;
  axes.sport_base = UintRange{1000, 1002, 1};
  const Sweep sweep(spec, axes);
  const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
  REQUIRE(run.done == 3 * 6 * 2);
  std::set<double> macs_fim, ecmp_fim;
  for (std::uint64_t i = 0; i < run.done; ++i) {
    Spec s = spec;
    apply_overrides(s, sweep.space().at(i));
    const Simulation sim(s);
    const ScenarioSpec& scenario = sim.spec().scenarios.front();
    const ScenarioResult r = sim.run(scenario);
    INFO("variant " << i << " " << scenario.name);
    CHECK(run.values[i][0] == r.flows.fim);
    CHECK(run.values[i][4] == r.flows.max);
    CHECK(run.values[i][5] == r.predicted.all.slowdown);
    if (scenario.name == "macs") macs_fim.insert(r.flows.fim);
    if (scenario.name == "ecmp") ecmp_fim.insert(r.flows.fim);
  }
  // Negative control: the MAC key routes differently from the five-tuple one.
  CHECK(macs_fim != ecmp_fim);
}

TEST_CASE("adaptive scenarios take neither seeds nor algorithms; planned ports are re-planned per seed; both match run") {
  const Spec spec = load_config(ECMPSIM_SOURCE_DIR "/configs/paper16-whatifs.toml");
  SweepSpec axes;
  axes.scenarios = {"planned", "local", "global"};
  axes.seeds = UintRange{0, 3, 1};
  axes.algos = {"crc16-ccitt", "xxh3"};
  axes.qps = {1, 2};
  const Sweep sweep(spec, axes);
  // planned: 2 algorithms x 2 QP counts x 3 seeds; local and global: 2 QP counts each.
  REQUIRE(sweep.space().size() == 12 + 2 + 2);
  CHECK(sweep.space().hashless() == std::vector<std::string>{"local", "global"});
  const SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
  REQUIRE(run.done == 16);
  for (std::uint64_t i = 0; i < run.done; ++i) {
    const Overrides o = sweep.space().at(i);
    CAPTURE(i);
    CHECK(o.seed.has_value() == (i < 12));
    CHECK(o.algo.has_value() == (i < 12));
    Spec s = spec;
    apply_overrides(s, o);
    const Simulation sim(s);
    const ScenarioResult r = sim.run(sim.spec().scenarios.front());
    CHECK(run.values[i][0] == r.flows.fim);
    CHECK(run.values[i][4] == r.flows.max);
    CHECK(run.values[i][5] == r.predicted.all.slowdown);
  }
}

TEST_CASE("ecmpsim sweep says an adaptive scenario hashes nothing instead of repeating one value per seed") {
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16-whatifs.toml";
  const CliResult t = cli_run({"sweep", cfg, "--scenario", "local", "--seeds", "0:100"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("note       'local' hashes nothing (adaptive or spray): one variant per workload, not one per "
                   "seed or algorithm\n") != std::string::npos);
  CHECK(t.out.find("variants   1 of 1\n") != std::string::npos);
  const CliResult j = cli_run({"sweep", cfg, "--scenario", "local", "--seeds", "0:100", "--format", "json"});
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["variants"] == 1);
  CHECK(doc["axes"]["not_hashed"] == nlohmann::json::array({"local"}));
  // Without a seed or algorithm axis there is nothing to say.
  const auto plain = nlohmann::json::parse(cli_run({"sweep", cfg, "--scenario", "local", "--qps", "1,2", "--format",
                                                    "json"}).out);
  CHECK(plain["variants"] == 2);
  CHECK_FALSE(plain["axes"].contains("not_hashed"));
}

TEST_CASE("a spraying scenario sweeps one variant per workload, its slowdown from split flows as run predicts") {
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16-whatifs.toml";
  const CliResult r =
      cli_run({"sweep", cfg, "--scenario", "spray", "--seeds", "0:10", "--qps", "1,2", "--format", "csv"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\n2,") == std::string::npos);  // two variants: no seed axis
  const CliResult j = cli_run({"sweep", cfg, "--scenario", "spray", "--seeds", "0:10", "--qps", "1,2", "--format",
                               "json"});
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["variants"] == 2);
  CHECK(doc["axes"]["not_hashed"] == nlohmann::json::array({"spray"}));
  // Every flow spreads a quarter over each spine: 4 (or 8 with 2 QPs) on every link, FIM 0.
  CHECK(doc["metrics"]["fim"]["max"] == 0.0);
  // The kernel's slowdown of each variant is run's for the same overrides.
  for (const char* qps : {"1", "2"}) {
    const CliResult one = cli_run({"run", cfg, "--scenario", "spray", "--qps", qps, "--format", "json"});
    REQUIRE(one.code == 0);
    const double want = nlohmann::json::parse(one.out)["scenarios"][0]["predicted"]["slowdown"].get<double>();
    CHECK(r.out.find("," + format_number(want)) != std::string::npos);
  }
}
}  // namespace sweep_test
