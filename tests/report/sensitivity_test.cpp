// `ecmpsim reproduce`'s sensitivity and verdict: a case checked against
// `ecmpsim run` of a config written with that case's assumptions, the
// per-assumption ranges against the cases, and a fabric where no assumption
// can give the paper's 30% (one spine: ECMP has no choice, so it routes as
// the static table does and the reduction is 0 or undefined everywhere).
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace sensitivity_test {

using json = nlohmann::json;

namespace {

std::string paper16_with(const std::string& placement, unsigned channels, unsigned qpn_base) {
  return R"(
[fabric]
kind = "leaf-spine"
leaves = 4
spines = 4
hosts_per_leaf = 4
host_speed_gbps = 400
fabric_speed_gbps = 400
[workload]
collective = "ring-allreduce"
nodes = 16
placement = ")" + placement + R"("
message_bytes = "1GiB"
channels = )" + std::to_string(channels) + R"(
qpn_base = )" + std::to_string(qpn_base) + R"(
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
fields = ["src-ip", "dst-ip", "proto", "src-port", "dst-port"]
[[scenario]]
name = "static"
routing = "static"
policy = "dst-mod"
)";
}

std::string write(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("ecmpsim_sensitivity_" + name + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

json reproduce_json(const std::string& config, const std::string& seeds) {
  const CliResult r = cli_run({"reproduce", config, "--seeds", seeds, "--out", "-", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // With --out - the page goes to standard output and the JSON to standard error.
  json doc = json::parse(r.err);
  // The page carries the verdict under the FlowTracer table and in its data.
  CHECK(r.out.find("<p class=\"note\" id=\"flowtracer-verdict\">") != std::string::npos);
  CHECK(r.out.find("\"verdict\": \"" + doc["verdict"].get<std::string>().substr(0, 20)) != std::string::npos);
  return doc;
}

double run_fim(const std::string& config, std::vector<std::string> extra) {
  std::vector<std::string> args{"run", config, "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = cli_run(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return json::parse(r.out)["scenarios"][0]["metrics"]["fim"].get<double>();
}

}  // namespace

TEST_CASE("a sensitivity case is the comparison `ecmpsim run` gives on a config with that case's assumptions") {
  const std::string base = write("strided", paper16_with("strided", 4, 256));
  const json doc = reproduce_json(base, "0:4");
  const json& sens = doc["sensitivity"];
  CHECK(sens["seeds"] == "0:4");
  CHECK(doc["verdict"] == sens["verdict"]);
  // 6 placements (strided, contiguous, 4 random seeds) x 4 hashes (crc16-ccitt, the config's, crc32,
  // toeplitz, xxh3) x 3 channel counts (4, 2, 8) x 8 QP bases.
  CHECK(sens["cases"].size() == 6 * 4 * 3 * 8);
  // Contiguous placement, xxh3, 2 channels, the second QP base (256 + 4099).
  const unsigned qpn = 256 + 4099;
  const json* found = nullptr;
  for (const json& c : sens["cases"])
    if (c["placement"] == "contiguous" && c["hash"] == "xxh3" && c["channels"] == 2 && c["qpn_base"] == qpn) found = &c;
  REQUIRE(found != nullptr);
  const std::string variant = write("contiguous", paper16_with("contiguous", 2, qpn));
  double sum = 0;
  for (int seed = 0; seed < 4; ++seed)
    sum += run_fim(variant, {"--scenario", "ecmp", "--algo", "xxh3", "--seed", std::to_string(seed)});
  const double ecmp = sum / 4, stat = run_fim(variant, {"--scenario", "static"});
  CHECK((*found)["ecmp_fim_mean"].get<double>() == doctest::Approx(ecmp));
  CHECK((*found)["static_fim"].get<double>() == doctest::Approx(stat));
  CHECK((*found)["reduction"].get<double>() == doctest::Approx(1 - stat / ecmp));
  // The config's own case is the headline (same seeds).
  for (const json& c : sens["cases"])
    if (c["placement"] == "strided" && c["hash"] == "crc16-ccitt" && c["channels"] == 4 && c["qpn_base"] == 256)
      CHECK(c["reduction"].get<double>() == doctest::Approx(doc["comparison"]["reduction_vs_mean"].get<double>()));
  // Each assumption value's range is over the cases with that value; 30% inside iff min <= 0.3 <= max.
  for (const json& r : sens["by_value"]) {
    const std::string key = r["assumption"] == "hash" ? "hash" : r["assumption"].get<std::string>();
    double lo = INFINITY, hi = -INFINITY;
    for (const json& c : sens["cases"]) {
      const std::string v = c[key].is_string() ? c[key].get<std::string>() : c[key].dump();
      if (v != r["value"] || c["reduction"].is_null()) continue;
      lo = std::min(lo, c["reduction"].get<double>());
      hi = std::max(hi, c["reduction"].get<double>());
    }
    CAPTURE(r.dump());
    CHECK(r["min"].get<double>() == lo);
    CHECK(r["max"].get<double>() == hi);
    CHECK(r["paper_inside"] == (lo <= 0.3 && 0.3 <= hi));
  }
}

TEST_CASE("negative control: with one spine no assumption reaches 30%, and the verdict says so") {
  // A 6-node job on 16 hosts leaves links idle, so FIM is above 0 and the reduction defined (0).
  std::string text = paper16_with("strided", 4, 256);
  text.replace(text.find("spines = 4"), 10, "spines = 1");
  text.replace(text.find("nodes = 16"), 10, "nodes = 6");
  const json doc = reproduce_json(write("one_spine", text), "0:2");
  const json& sens = doc["sensitivity"];
  CHECK(sens["paper_inside"] == false);
  bool defined = false;
  for (const json& c : sens["cases"]) {
    CAPTURE(c.dump());
    CHECK(c["ecmp_fim_mean"] == c["static_fim"]);  // no choice: the same routes
    defined = defined || c["ecmp_fim_mean"].get<double>() > 0;
  }
  REQUIRE(defined);
  CHECK(sens["max"].get<double>() == 0);
  for (const json& r : sens["by_value"]) CHECK(r["paper_inside"] == false);
  const std::string verdict = doc["verdict"];
  CHECK(verdict.rfind("not reproduced", 0) == 0);
  const CliResult table = cli_run({"reproduce", write("one_spine", text), "--seeds", "0:2", "--out", "/dev/null"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("\nverdict: not reproduced") != std::string::npos);
}
}  // namespace sensitivity_test
