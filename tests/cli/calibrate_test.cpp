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
#include "tests/support/temp_files.h"

namespace calibrate_test {

namespace {

namespace fs = std::filesystem;

const std::string kData = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/";

fs::path temp_dir() { return ecmpsim::test_support::temp_dir("ecmpsim_calibrate_test"); }
using ecmpsim::test_support::read_text;

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

TEST_CASE("calibrate: each parameter with its interval, bound and the values that fit alike") {
  const auto doc = calibrate_json("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", ":");
  const auto& p = doc["parameters"];
  REQUIRE(p.size() == 3);
  CHECK(p[0]["key"] == "nic_efficiency");
  CHECK(p[1]["key"] == "intra_busbw_gbs");
  CHECK(p[2]["key"] == "net_latency_us");
  CHECK(doc["fit"]["resamples"] == 100);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const double v = p[k]["value"];
    CHECK(p[k]["lo"].get<double>() <= v);
    CHECK(p[k]["hi"].get<double>() >= v);
    CHECK(p[k]["alike_lo"].get<double>() <= v);
    CHECK(p[k]["alike_hi"].get<double>() >= v);
  }
  CHECK(p[0]["value"] == doc["fit"]["nic_efficiency"]);
  CHECK(p[2]["value"] == doc["fit"]["net_latency_us"]);
  // The efficiency is pinned and inside its range, with an interval of some width.
  CHECK(p[0]["constrained"] == true);
  CHECK(p[0]["bound"] == "none");
  CHECK(p[0]["hi"].get<double>() - p[0]["lo"].get<double>() > 1e-3);
  // No gpu: every algorithm's busbw is min(goodput x nic_efficiency, ceiling)
  // (sim/model/nccl_bandwidth.cpp), so the ceiling is unseen down to
  // goodput x nic_efficiency and stays at the intra link's 370.8.
  CHECK(p[1]["value"] == 370.8);
  CHECK(p[1]["constrained"] == false);
  CHECK(p[1]["bound"] == "upper");
  CHECK(p[1]["cause"] == "not reached: the network limits every size");
  const double knee = doc["goodput_busbw_gbs"].get<double>() * doc["fit"]["nic_efficiency"].get<double>();
  CHECK(p[1]["alike_lo"].get<double>() == doctest::Approx(knee).epsilon(1e-4));
  // The text: one line per parameter, the unseen ceiling with its cause.
  const CliResult table = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("fit (90% interval over 100 resamples of the sizes):\n  nic_efficiency  0.") != std::string::npos);
  CHECK(table.out.find("  intra_busbw_gbs 370.80 [370.80, 370.80] unconstrained: 337.") != std::string::npos);
  // Negative control: fitted on sizes >= 1 MiB only, the latency has nothing to fit and says so.
  const auto big = calibrate_json("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml", "1M:");
  CHECK(big["parameters"][2]["cause"] == "no latency below 1 MiB to fit");
  CHECK(p[2]["cause"] == "");
}

TEST_CASE("a file of several runs: refused with their list and lines, --run N fits one") {
  // The all_reduce file (78 lines) then the all_gather file (78 lines): two runs.
  const fs::path sweep = temp_dir() / "sweep.txt";
  std::ofstream(sweep) << read_text(kData + "vp-h100-4n-all_reduce.txt") << read_text(kData + "vp-h100-4n-all_gather.txt");
  const CliResult both = cli_run({"calibrate", sweep.string(), "--config", kData + "vp-h100-4n.toml"});
  CHECK(both.code == 2);
  CHECK(both.out.empty());
  CHECK(both.err == "ecmpsim: " + sweep.string() +
                        ":79: holds 2 runs of nccl-tests; choose one with --run N: 1: lines 1-78, all_reduce_perf, 32 "
                        "ranks on 4 nodes, 8 B to 8.00 GiB (31 sizes); 2: lines 79-156, all_gather_perf, 32 ranks on 4 "
                        "nodes, 512 B to 8.00 GiB (25 sizes)\n");
  // Each run fits as its own file does.
  const auto alone = [](const std::string& table, const std::string& config) {
    return calibrate_json(table, config, ":");
  };
  const auto picked = [&](const std::string& run, const std::string& config) {
    const CliResult r = cli_run({"calibrate", sweep.string(), "--config", kData + config, "--run", run, "-f", "json"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return nlohmann::json::parse(r.out);
  };
  const auto one = picked("1", "vp-h100-4n.toml"), two = picked("2", "vp-h100-4n-ag.toml");
  CHECK(one["rows"] == alone("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml")["rows"]);
  CHECK(one["parameters"] == alone("vp-h100-4n-all_reduce.txt", "vp-h100-4n.toml")["parameters"]);
  CHECK(two["rows"] == alone("vp-h100-4n-all_gather.txt", "vp-h100-4n-ag.toml")["rows"]);
  CHECK(two["test"] == "all_gather_perf");
  // Negative control: run 2 on the all-reduce job is refused at its line in
  // the file (line 49 of the all_gather file, 78 + 49 = 127).
  const CliResult wrong = cli_run({"calibrate", sweep.string(), "--config", kData + "vp-h100-4n.toml", "--run", "2"});
  CHECK(wrong.code == 2);
  CHECK(wrong.err == "ecmpsim: " + sweep.string() + ":127: all_gather_perf does not match job job0's ring-allreduce\n");
  const CliResult three = cli_run({"calibrate", sweep.string(), "--config", kData + "vp-h100-4n.toml", "--run", "3"});
  CHECK(three.code == 2);
  CHECK(three.err.rfind("ecmpsim: --run: the file holds 2 runs of nccl-tests, not 3: 1: lines 1-78, ", 0) == 0);
}

TEST_CASE("validate --run N scores (and with --fit-on fits) one run of a file of several, as its own file") {
  const fs::path sweep = temp_dir() / "sweep_validate.txt";
  std::ofstream(sweep) << read_text(kData + "vp-h100-4n-all_reduce.txt") << read_text(kData + "vp-h100-4n-all_gather.txt");
  const std::string config = kData + "vp-h100-4n-ag.toml";
  const CliResult both = cli_run({"validate", sweep.string(), "--config", config});
  CHECK(both.code == 2);
  CHECK(both.err.rfind("ecmpsim: " + sweep.string() + ":79: holds 2 runs of nccl-tests; choose one with --run N: 1: ", 0) == 0);
  const auto scored = [&](const std::string& table, const std::vector<std::string>& more) {
    std::vector<std::string> args{"validate", table, "--config", config, "--fit-on", table, "-f", "json"};
    args.insert(args.end(), more.begin(), more.end());
    const CliResult r = cli_run(args);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return nlohmann::json::parse(r.out);
  };
  const auto picked = scored(sweep.string(), {"--run", "2"});
  const auto alone = scored(kData + "vp-h100-4n-all_gather.txt", {});
  REQUIRE(picked["tables"].size() == 1);
  CHECK(picked["tables"][0]["rows"].size() == 25);
  CHECK(picked["tables"][0]["rows"] == alone["tables"][0]["rows"]);
  CHECK(picked["fit"]["test"] == "all_gather_perf");
  CHECK(picked["fit"]["nic_efficiency"] == alone["fit"]["nic_efficiency"]);
  // Negative controls: run 1 is the all-reduce table, which the all-gather
  // job refuses at its line; there is no run 3.
  const CliResult wrong = cli_run({"validate", sweep.string(), "--config", config, "--run", "1"});
  CHECK(wrong.code == 2);
  CHECK(wrong.err.find("all_reduce_perf does not match job") != std::string::npos);
  const CliResult three = cli_run({"validate", sweep.string(), "--config", config, "--run", "3"});
  CHECK(three.code == 2);
  CHECK(three.err.rfind("ecmpsim: --run: the file holds 2 runs of nccl-tests, not 3: 1: lines 1-78, ", 0) == 0);
}

TEST_CASE("calibrate prints run's notes on the config's workload") {
  // A B200 config: its channels are derived, and run says how.
  const std::string dir = ECMPSIM_SOURCE_DIR "/tests/data/measured/vultr-b200/";
  const CliResult cal = cli_run({"calibrate", dir + "b200-ib-2n-all_reduce.txt", "--config", dir + "b200-ib-2n-all_reduce.toml",
                                 "-f", "summary"});
  REQUIRE_MESSAGE(cal.code == 0, cal.err);
  const CliResult run = cli_run({"run", dir + "b200-ib-2n-all_reduce.toml", "-f", "summary"});
  REQUIRE_MESSAGE(run.code == 0, run.err);
  CHECK(cal.err.find("ecmpsim: note: job 'job0' (B200, NCCL ") == 0);
  CHECK(cal.err == run.err);
  // Negative control: a config without a gpu derives nothing, and neither command says so.
  const CliResult plain = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml",
                                   "-f", "summary"});
  CHECK(plain.err.find("note: job") == std::string::npos);
}

TEST_CASE("the snippet, appended to the config, makes run predict what calibrate printed") {
  const fs::path snippet = temp_dir() / "calibration.toml";
  const CliResult r = cli_run({"calibrate", kData + "vp-h100-4n-all_reduce.txt", "--config", kData + "vp-h100-4n.toml",
                               "--fit-sizes", "256M:", "--snippet", snippet.string(), "-f", "json"});
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  const std::string text = read_text(snippet);
  CHECK(text.find("[calibration]\n") != std::string::npos);
  // The ceiling the table does not see is left to the config, said in a comment.
  CHECK(text.find("\n# intra_busbw_gbs not fitted (370.80 [370.80, 370.80] unconstrained: ") != std::string::npos);
  CHECK(text.find("\nintra_busbw_gbs =") == std::string::npos);
  CHECK(text.find("\nnic_efficiency = ") != std::string::npos);
  const fs::path config = temp_dir() / "calibrated.toml";
  std::ofstream(config) << read_text(kData + "vp-h100-4n.toml") << "\n" << text;
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
    std::ofstream(config) << read_text(kData + c.config) << "\n" << read_text(snippet);
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
