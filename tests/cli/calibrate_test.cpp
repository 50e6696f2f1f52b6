// `ecmpsim calibrate` on real nccl-tests outputs (tests/data/nccl-tests/):
// the fit, its outputs, a snippet that reproduces it through `run`, the
// refusals (file:line, exit 2), and the published prediction errors of
// docs/prediction.md ("Checked against real tables") recomputed so the
// doc cannot drift.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli_capture.h"

namespace calibrate_test {

namespace {

namespace fs = std::filesystem;

const std::string kData = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/";

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_calibrate_test";
  fs::create_directories(dir);
  return dir;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json calibrate_json(const std::string& table, const std::string& config, const std::string& fit) {
  const CliResult r = cli_run({"calibrate", kData + table, "--config", kData + config, "--fit-sizes", fit, "-f", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("calibrate: the fit, its table, JSON and CSV") {
  const auto doc = calibrate_json("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", "256M:");
  CHECK(doc["test"] == "all_reduce_perf");
  CHECK(doc["ranks"] == 32);
  CHECK(doc["nodes"] == 4);
  CHECK(doc["nccl_version"] == "2.24.3");
  REQUIRE(doc["rows"].size() == 31);
  CHECK(doc["rows"][0]["size"] == 8);
  CHECK(doc["rows"][0]["measured_us"] == 38.37);
  CHECK(doc["rows"][0]["fitted"] == false);
  CHECK(doc["rows"][30]["fitted"] == true);
  const double eff = doc["fit"]["nic_efficiency"];
  CHECK(eff > 0.5);
  CHECK(eff < 1.0);
  const CliResult table = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("#       size   measured  predicted    error   algo   proto  fitted") != std::string::npos);
  CHECK(table.out.find("[calibration]\nnic_efficiency = ") != std::string::npos);
  const CliResult csv = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml", "-f", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("size,measured_us,predicted_us,error,algo,proto,fitted\n8,38.37,", 0) == 0);
}

TEST_CASE("the snippet, appended to the config, makes run predict what calibrate printed") {
  const fs::path snippet = temp_dir() / "calibration.toml";
  const CliResult r = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml",
                               "--fit-sizes", "256M:", "--snippet", snippet.string(), "-f", "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const std::string text = read(snippet);
  CHECK(text.find("[calibration]\n") != std::string::npos);
  const fs::path config = temp_dir() / "calibrated.toml";
  std::ofstream(config) << read(kData + "vp-h100-4n.toml") << "\n" << text;
  const CliResult run = cli_run({"run", config.string(), "-b", "8", "-e", "8G", "-f", "json"});
  REQUIRE_MESSAGE(run.code == 0, run.err);
  const auto rows = nlohmann::json::parse(run.out)["scenarios"][0]["sizes"];
  REQUIRE(rows.size() == doc["rows"].size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(i);
    CHECK(rows[i]["size"] == doc["rows"][i]["size"]);
    CHECK(rows[i]["time_us"].get<double>() == doctest::Approx(doc["rows"][i]["predicted_us"].get<double>()).epsilon(1e-9));
  }
  // Negative control: the config without the snippet predicts otherwise at 8 GiB.
  const CliResult plain = cli_run({"run", kData + "vp-h100-4n.toml", "-b", "8G", "-e", "8G", "-f", "json"});
  REQUIRE(plain.code == 0);
  const double t = nlohmann::json::parse(plain.out)["scenarios"][0]["sizes"][0]["time_us"];
  CHECK(std::abs(t / doc["rows"][30]["predicted_us"].get<double>() - 1) > 0.01);
}

TEST_CASE("calibrate refuses what it cannot fit: one line, file:line, exit 2") {
  const fs::path dir = temp_dir();
  const fs::path notes = dir / "notes.txt";
  std::ofstream(notes) << "hello\n";
  const CliResult e1 = cli_run({"calibrate", notes.string(), "--config", kData + "vp-h100-4n.toml"});
  CHECK(e1.code == 2);
  CHECK(e1.out.empty());
  CHECK(e1.err == "ecmpsim: " + notes.string() +
                      ":1: not nccl-tests output: no \"# nThread\" header and no \"#  size  count  type\" column header\n");
  // all_gather's table on an all-reduce job.
  const CliResult e2 = cli_run({"calibrate", kData + "vp-h100-4n-all_gather.txt", "--config", kData + "vp-h100-4n.toml"});
  CHECK(e2.code == 2);
  CHECK(e2.err == "ecmpsim: " + kData + "vp-h100-4n-all_gather.txt:49: all_gather_perf does not match job job0's ring-allreduce\n");
  // Two nodes in the config, four in the table.
  const fs::path two = dir / "two.toml";
  std::ofstream(two) << "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 8\ngpus_per_node = 8\nspines = 1\n"
                        "rail_leaf_nodes = 0\n";
  const CliResult e3 = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", two.string()});
  CHECK(e3.code == 2);
  CHECK(e3.err == "ecmpsim: " + kData + "vp-h100-4n-all_reduce.txt:43: nccl-tests ran 32 ranks; job job0 has 16\n");
  const CliResult e4 = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml",
                                "--fit-sizes", "16G:"});
  CHECK(e4.code == 2);
  CHECK(e4.err.find("--fit-sizes: only 0 of the table's sizes in the fit range") != std::string::npos);
  const CliResult e5 = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml",
                                "--fit-sizes", "1G"});
  CHECK(e5.code == 2);
  CHECK(e5.err == "ecmpsim: --fit-sizes: expected MIN:MAX (either may be empty), e.g. 256M: or 1K:1G\n");
}

TEST_CASE("the published errors (docs/prediction.md, \"Checked against real tables\")") {
  // Fit on sizes >= 256 MiB, predict every size: median |error| >= 1 MiB and below.
  const auto ar = calibrate_json("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", "256M:");
  CHECK(ar["median_abs_error"]["ge_1MiB"].get<double>() == doctest::Approx(0.073).epsilon(0.01));
  CHECK(ar["median_abs_error"]["lt_1MiB"].get<double>() == doctest::Approx(1.596).epsilon(0.01));
  const auto ag = calibrate_json("vp-h100-4n-all_gather.txt", "vp-h100-4n-ag.toml", "256M:");
  CHECK(ag["median_abs_error"]["ge_1MiB"].get<double>() == doctest::Approx(0.044).epsilon(0.02));
  CHECK(ag["median_abs_error"]["lt_1MiB"].get<double>() == doctest::Approx(1.434).epsilon(0.01));
  // Fit on one collective's whole table, predict the other's through `run`
  // with the snippet: all_reduce -> all_gather, all_gather -> all_reduce.
  struct Cross {
    std::string fit_table, fit_config, table, config;
    double ge, lt;
  };
  const Cross cross[] = {
      {"vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", "vp-h100-4n-all_gather.txt", "vp-h100-4n-ag.toml", 0.181, 0.105},
      {"vp-h100-4n-all_gather.txt", "vp-h100-4n-ag.toml", "vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", 0.195, 0.400},
  };
  for (const Cross& c : cross) {
    CAPTURE(c.fit_table);
    const fs::path snippet = temp_dir() / "cross.toml", config = temp_dir() / "cross_config.toml";
    REQUIRE(cli_run({"calibrate", kData + c.fit_table, "--config", kData + c.fit_config, "--snippet", snippet.string(),
                     "-f", "summary"}).code == 0);
    std::ofstream(config) << read(kData + c.config) << "\n" << read(snippet);
    const CliResult run = cli_run({"run", config.string(), "-b", "8", "-e", "8G", "-f", "json"});
    REQUIRE(run.code == 0);
    // The measured table, through calibrate's own reader (its rows' measured_us).
    const auto measured = calibrate_json(c.table, c.config, ":")["rows"];
    std::vector<double> ge, lt;
    const auto predicted = nlohmann::json::parse(run.out)["scenarios"][0]["sizes"];
    for (const auto& row : predicted)
      for (const auto& m : measured)
        if (m["size"] == row["size"]) {
          const double e = std::abs(row["time_us"].get<double>() / m["measured_us"].get<double>() - 1);
          (m["size"].get<std::uint64_t>() >= (1u << 20) ? ge : lt).push_back(e);
        }
    const auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    REQUIRE(ge.size() == 14);
    CHECK(median(ge) == doctest::Approx(c.ge).epsilon(0.02));
    CHECK(median(lt) == doctest::Approx(c.lt).epsilon(0.02));
  }
}

}  // namespace calibrate_test
