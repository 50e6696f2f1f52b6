// The flow model against a packet-level simulator (issue 45 item 3): ecmpsim's
// efficiency (ideal / completion) over seeds against csg-htsim's recorded runs
// of the same flows (tests/data/htsim/results.csv, README.md there). Each group
// (config, mode, QPs) compares mean, p10 and p90 within the tolerance derived in
// docs/prediction.md ("Against a packet-level simulator"), fixed before the
// htsim runs were looked at: the fluid model's error bar measured on Linux
// (0.05) plus two standard errors of the difference of the two samples (the
// two simulators hash differently, so each seed is a different draw of paths).
// Groups whose mode has "+paths" ran htsim on ecmpsim's own paths
// (force_paths.py; "+nopfc" also without PFC pauses): there each seed is
// compared with itself, within the error bar alone. Groups the docs list as
// disagreeing are checked to stay outside it, so that a change that closes
// (or widens) the gap is seen. The forcing itself is checked against htsim's
// own runs (forcing.csv), and the sprayed runs (go-back-N) against ecmpsim's
// split flows.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace htsim_crosscheck_test {

namespace {

const std::string kDir = ECMPSIM_SOURCE_DIR "/tests/data/htsim/";

struct Row {
  std::string config, mode;
  int seed = 0, qps = 0, flows = 0;
  double ideal_s = 0, efficiency = 0;
};

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');) f.push_back(c);
  return f;
}

// A run counts as a sample when htsim finished every connection: "K/K" or
// "aborted K/K" (htsim_roce can stop on an assertion of its own, README.md;
// after the last connection finished, the completion stands).
bool finished(std::string done) {
  if (done.rfind("aborted ", 0) == 0) done = done.substr(8);
  const auto slash = done.find('/');
  return slash != std::string::npos && done.substr(0, slash) == done.substr(slash + 1);
}

// htsim's balanced ceiling (ceiling.csv): its efficiency with no link shared,
// below 1 by the RoCE header and the ACKs ecmpsim's payload-only model leaves
// out; htsim's efficiencies are divided by it.
double read_ceiling() {
  std::ifstream in(kDir + "ceiling.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  REQUIRE(std::getline(in, line));
  const auto f = fields(line);
  REQUIRE(f.size() == 6);
  const double c = std::stod(f[4]);
  REQUIRE(c > 0.9);
  REQUIRE(c < 1.0);
  return c;
}

std::vector<Row> read_results() {
  std::ifstream in(kDir + "results.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);  // header
  REQUIRE(line.rfind("config,mode,seed,qps,flows,ideal_s,", 0) == 0);
  std::vector<Row> rows;
  const double ceiling = read_ceiling();
  while (std::getline(in, line)) {
    const auto f = fields(line);
    REQUIRE(f.size() == 13);
    if (!finished(f[9])) continue;
    rows.push_back({f[0], f[1], std::stoi(f[2]), std::stoi(f[3]), std::stoi(f[4]), std::stod(f[5]), std::stod(f[8]) / ceiling});
  }
  return rows;
}

struct Dist {
  double mean = 0, sd = 0, p10 = 0, p90 = 0;
};

// p10 and p90 by linear interpolation between order statistics (numpy's default).
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Dist dist(const std::vector<double>& v) {
  Dist d;
  for (double x : v) d.mean += x;
  d.mean /= static_cast<double>(v.size());
  for (double x : v) d.sd += (x - d.mean) * (x - d.mean);
  d.sd = std::sqrt(d.sd / static_cast<double>(v.size() - 1));
  d.p10 = quantile(v, 0.1);
  d.p90 = quantile(v, 0.9);
  return d;
}

struct Group {
  std::string key;
  Dist ecmpsim, htsim;
  double tol_mean = 0, tol_q = 0;
  bool paired = false;       // htsim on ecmpsim's paths: seed against seed
  double max_seed_diff = 0;  // paired: the largest |ecmpsim - htsim| of one seed
  bool agrees() const {
    if (paired) return max_seed_diff <= tol_mean;
    return std::abs(ecmpsim.mean - htsim.mean) <= tol_mean && std::abs(ecmpsim.p10 - htsim.p10) <= tol_q &&
           std::abs(ecmpsim.p90 - htsim.p90) <= tol_q;
  }
};

// ecmpsim's efficiency for one recorded run: the recorded (true fabric's) ideal
// over the completion ecmpsim predicts for CONFIG (which a negative control
// replaces) at the run's placement seed and QPs.
double ecmpsim_efficiency(const std::string& config, const Row& r, bool check_inputs) {
  const auto res = cli_run({"run", config, "--placement-seed", std::to_string(r.seed), "--qps", std::to_string(r.qps),
                            "--format", "json"});
  REQUIRE(res.code == 0);
  const auto doc = nlohmann::json::parse(res.out);
  const auto& s = doc["scenarios"][0];
  if (check_inputs) {  // the recorded htsim run had ecmpsim's flows as its input
    CHECK(s["flows"].size() == static_cast<std::size_t>(r.flows));
    CHECK(s["predicted"]["ideal_s"].get<double>() == doctest::Approx(r.ideal_s).epsilon(1e-12));
  }
  return r.ideal_s / s["predicted"]["completion_s"].get<double>();
}

constexpr double kModelBar = 0.05;  // docs/prediction.md: the Linux emulation's error bar
constexpr double kZ = 2.0;          // two standard errors
constexpr double kQuantileSe = 1.71;  // SE(p10 or p90) / SE(mean) for a normal sample

std::vector<Group> compare(const std::vector<Row>& rows, const std::map<std::string, std::string>& config_override,
                           bool check_inputs) {
  std::map<std::string, std::vector<const Row*>> by;
  for (const auto& r : rows) by[r.config + " " + r.mode + " qps=" + std::to_string(r.qps)].push_back(&r);
  std::vector<Group> out;
  for (const auto& [key, rs] : by) {
    std::vector<double> e, h;
    for (const Row* r : rs) {
      const auto it = config_override.find(r->config);
      const std::string cfg = it != config_override.end() ? it->second : kDir + r->config;
      e.push_back(ecmpsim_efficiency(cfg, *r, check_inputs));
      h.push_back(r->efficiency);
    }
    if (e.size() < 3) continue;  // too few seeds recorded for a distribution yet
    Group g{key, dist(e), dist(h)};
    g.paired = key.find("+paths") != std::string::npos;
    if (g.paired) {  // same paths: only the rate model differs, seed by seed
      for (std::size_t i = 0; i < e.size(); ++i) g.max_seed_diff = std::max(g.max_seed_diff, std::abs(e[i] - h[i]));
      g.tol_mean = g.tol_q = kModelBar;
    } else {
      const double se =
          std::sqrt((g.ecmpsim.sd * g.ecmpsim.sd + g.htsim.sd * g.htsim.sd) / static_cast<double>(e.size()));
      g.tol_mean = kModelBar + kZ * se;
      g.tol_q = kModelBar + kZ * kQuantileSe * se;
    }
    out.push_back(g);
  }
  return out;
}

// The groups docs/prediction.md reports as outside the tolerance, with why.
// Each "+paths" one agrees again with PFC off ("+paths+nopfc", also compared):
// htsim's pauses, not the rate model, make the gap.
const std::vector<std::string> kDisagreeing = {
    // PFC head-of-line blocking under 15-to-1 incast: htsim 0.10 below on ecmpsim's paths
    "paper16_alltoall.toml streams qps=1",
    "paper16_alltoall.toml streams+paths qps=1",
    // PFC pauses on the ring's colliding spine links: single seeds up to 0.15 below
    "paper16_ring.toml ring-steps+paths qps=1",
    "paper16_ring.toml ring-steps+paths qps=4",
    "paper16_ring.toml streams qps=8",
    "paper16_ring.toml streams+paths qps=1",
    "paper16_ring.toml streams+paths qps=2",
    "paper16_ring.toml streams+paths qps=4",
    "paper16_ring.toml streams+paths qps=8",
    "paper16_ring.toml streams+paths qps=16",
    // the hash: CRC-16 over the rail's five-tuples spreads them better than
    // htsim's (ecmpsim with xxh3: 0.34, htsim 0.33), and PFC on some seeds
    "rail_ring.toml streams qps=1",
    "rail_ring.toml streams+paths qps=1",
};

bool listed_as_disagreeing(const std::string& key) {
  for (const auto& k : kDisagreeing)
    if (key == k) return true;
  return false;
}

}  // namespace

TEST_CASE("ecmpsim's efficiency over seeds agrees with htsim's recorded runs where the docs say it does") {
  const auto groups = compare(read_results(), {}, true);
  REQUIRE(!groups.empty());
  for (const auto& g : groups) {
    CAPTURE(g.key);
    INFO("ecmpsim mean/p10/p90 " << g.ecmpsim.mean << " " << g.ecmpsim.p10 << " " << g.ecmpsim.p90 << "; htsim "
                                 << g.htsim.mean << " " << g.htsim.p10 << " " << g.htsim.p90 << "; largest seed gap "
                                 << g.max_seed_diff << "; tol " << g.tol_mean << " / " << g.tol_q);
    CHECK(g.agrees() != listed_as_disagreeing(g.key));
  }
  for (const auto& k : kDisagreeing) {  // a listed group that is no longer compared is a stale entry
    CAPTURE(k);
    CHECK(std::any_of(groups.begin(), groups.end(), [&](const Group& g) { return g.key == k; }));
  }
}

// paper16_ring.toml with FROM replaced by TO, written to a file of its own.
std::filesystem::path altered_ring(const std::string& from, const std::string& to, const std::string& tag) {
  std::ifstream in(kDir + "paper16_ring.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string cfg = text.str();
  const auto at = cfg.find(from);
  REQUIRE(at != std::string::npos);
  cfg.replace(at, from.size(), to);
  const auto path = std::filesystem::temp_directory_path() /
                    ("ecmpsim_htsim_" + tag + "." + std::to_string(::getpid()) + ".toml");
  std::ofstream(path) << cfg;
  return path;
}

// Every group of paper16's ring whose mode contains MODE, compared with ecmpsim on the altered config.
std::vector<Group> ring_against(const std::filesystem::path& cfg, const std::string& mode) {
  std::vector<Row> ring;
  for (const auto& r : read_results())
    if (r.config == "paper16_ring.toml" && r.mode.find(mode) != std::string::npos) ring.push_back(r);
  REQUIRE(!ring.empty());
  auto groups = compare(ring, {{"paper16_ring.toml", cfg.string()}}, false);
  std::filesystem::remove(cfg);
  REQUIRE(!groups.empty());
  return groups;
}

TEST_CASE("negative control: a wrong spine capacity moves ecmpsim outside the tolerance") {
  // paper16's spines at 200 Gb/s instead of 400: every cross-leaf flow slows.
  for (const auto& g : ring_against(altered_ring("fabric_speed_gbps = 400", "fabric_speed_gbps = 200", "capacity"), "")) {
    CAPTURE(g.key);
    CHECK_FALSE(g.agrees());
  }
}

TEST_CASE("negative control: ecmpsim on other paths no longer matches htsim on ecmpsim's paths seed by seed") {
  // xxh3 instead of CRC-16 (chosen before this control was run): other
  // spines for the same flows, against the runs that agree (PFC off).
  for (const auto& g : ring_against(altered_ring("crc16-ccitt", "xxh3", "other_paths"), "+paths+nopfc")) {
    CAPTURE(g.key);
    CHECK_FALSE(g.agrees());
  }
}

// Go-back-N under spraying (docs/prediction.md): ecmpsim's split flows reach
// the ideal on every seed, htsim's sprayed runs never finish within 16x it.
TEST_CASE("sprayed, ecmpsim predicts the ideal and htsim's go-back-N does not come near it") {
  std::ifstream in(kDir + "results.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  int sprayed = 0;
  while (std::getline(in, line)) {
    const auto f = fields(line);
    REQUIRE(f.size() == 13);
    if (f[0] != "paper16_ring_spray.toml") continue;
    ++sprayed;
    CAPTURE(line);
    CHECK_FALSE(finished(f[9]));
    const auto res = cli_run({"run", kDir + f[0], "--placement-seed", f[2], "--qps", f[3], "--format", "json"});
    REQUIRE(res.code == 0);
    const auto p = nlohmann::json::parse(res.out)["scenarios"][0]["predicted"];
    CHECK(p["completion_s"].get<double>() == doctest::Approx(p["ideal_s"].get<double>()).epsilon(1e-12));
  }
  CHECK(sprayed >= 3);
}

// force_paths.py's forcing, checked by htsim (forcing.csv, probe_forcing.py):
// a perfect matching forced onto distinct spines runs at the balanced ceiling
// (within the model's bar), the same flows forced two to a spine take twice as
// long (within 5%); each is the other's control.
TEST_CASE("htsim runs the flows forced onto ecmpsim's spines on those spines") {
  std::ifstream in(kDir + "forcing.csv");
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  std::map<std::string, std::map<std::string, double>> eff;  // topo seed -> kind -> efficiency
  const double ceiling = read_ceiling();
  while (std::getline(in, line)) {
    const auto f = fields(line);
    REQUIRE(f.size() == 13);
    REQUIRE(finished(f[9]));
    eff[f[4] + " hosts, seed " + f[2]][f[1]] = std::stod(f[8]);
  }
  REQUIRE(eff.size() >= 2);
  for (const auto& [key, kinds] : eff) {
    CAPTURE(key);
    REQUIRE(kinds.count("matching") == 1);
    REQUIRE(kinds.count("pairs") == 1);
    CHECK(std::abs(kinds.at("matching") / ceiling - 1.0) <= kModelBar);
    CHECK(kinds.at("matching") / kinds.at("pairs") == doctest::Approx(2.0).epsilon(0.05));
  }
}

}  // namespace htsim_crosscheck_test
