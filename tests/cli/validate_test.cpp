// `ecmpsim validate`: a small table whose errors are worked by hand from
// NCCL 2.23.4's constants (the fabric of tests/cli/hosts_cli_test.cpp), the
// parameters from the config, a calibration file and a fit, its outputs,
// its agreement with `run`, and its refusals (one line, exit 2, no file).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_capture.h"
#include "tests/support/temp_files.h"

namespace validate_test {

namespace {

namespace fs = std::filesystem;

fs::path temp_dir() { return ecmpsim::test_support::temp_dir("ecmpsim_validate_test"); }
using ecmpsim::test_support::read_text;

// 4 nodes x 8 GPUs, 8 x 400G NICs each on a non-blocking rail fabric, the
// NVLink cap lifted, NCCL_ALGO=Ring NCCL_PROTO=Simple, 16 channels (8 searched).
fs::path config(std::uint32_t nics) {
  const fs::path path = temp_dir() / ("rail4x8_" + std::to_string(nics) + ".toml");
  std::ofstream(path) << "[fabric]\nkind = \"rail\"\nnodes = 4\nnics_per_node = " << nics
                      << "\ngpus_per_node = 8\nspines = 1\nrail_leaf_nodes = 0\n"
                         "[workload]\nchannels = 16\nsearch_channels = 8\nnccl_algo = \"Ring\"\nnccl_proto = \"Simple\"\n"
                         "[hosts]\nintra_busbw_gbs = 100000\n";
  return path;
}

struct Measured {
  std::uint64_t size;
  double us;
};
// The measured times, chosen round; one size below 1 MiB, one in 1-64 MiB, two from 64 MiB.
const Measured kTable[] = {{65536, 330}, {4194304, 520}, {268435456, 1600}, {1073741824, 6000}};

// nccl-tests' all_reduce_perf output of kTable on 32 ranks (no Rank lines: the config's counts).
fs::path table(const std::string& name, const Measured* rows, std::size_t n) {
  const fs::path path = temp_dir() / name;
  std::ofstream out(path);
  out << "# nThread 1 nGpus 1 minBytes 65536 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20\n"
         "#\n#                                                              out-of-place                       in-place\n"
         "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n"
         "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)\n";
  for (std::size_t i = 0; i < n; ++i) {
    const double alg = static_cast<double>(rows[i].size) / rows[i].us / 1000;
    char line[200];
    std::snprintf(line, sizeof line, "%12llu  %12llu     float     sum      -1  %7.2f  %6.2f  %6.2f       0  %7.2f  %6.2f  %6.2f       0\n",
                  static_cast<unsigned long long>(rows[i].size), static_cast<unsigned long long>(rows[i].size / 4),
                  rows[i].us, alg, alg * 62 / 32, rows[i].us, alg, alg * 62 / 32);
    out << line;
  }
  return path;
}

// By hand: Ring Simple on 32 ranks, 4 nodes: latency (baseLat 8.4 + 56 intra
// steps x hwLat[NVLINK] 3.4 + 6 network steps x (hwLat[NET] 14 + 2 x
// net_latency_us)) x 1.4 (the ring plateau) = 395.92 us at latency 0; busBw
// 8 x 50 GB/s x 4096/4178 (RoCEv2 goodput) x nic_efficiency, algBw = busBw x 32/62.
double by_hand(std::uint64_t size, double efficiency, double latency_us) {
  const double lat = (8.4 + 56 * 3.4 + 6 * (14 + 2 * latency_us)) * 1.4;
  const double alg = 8 * 50.0 * 4096 / 4178 * efficiency * 32 / 62;
  return lat + static_cast<double>(size) / (1000 * alg);
}

nlohmann::json validate_json(std::vector<std::string> args) {
  args.insert(args.begin(), "validate");
  args.insert(args.end(), {"-f", "json"});
  const CliResult r = cli_run(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("validate: a table's errors per size and per band, worked by hand") {
  const fs::path t = table("hand.txt", kTable, 4);
  const auto doc = validate_json({t.string(), "--config", config(8).string()});
  CHECK(doc["parameters"] == "config");
  REQUIRE(doc["tables"].size() == 1);
  const auto& rows = doc["tables"][0]["rows"];
  REQUIRE(rows.size() == 4);
  // 65536 B: 396.244 us predicted against 330 (+20.07%); busbw 0.3204 against 0.3848 GB/s (-16.72%).
  // 4 MiB: 416.643 against 520 (-19.88%); 1 GiB: 5700.977 against 6000 (-4.98%).
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    const double want = by_hand(kTable[i].size, 1, 0);
    CHECK(rows[i]["size"] == kTable[i].size);
    CHECK(rows[i]["measured_us"].get<double>() == kTable[i].us);
    CHECK(rows[i]["predicted_us"].get<double>() == doctest::Approx(want).epsilon(1e-9));
    CHECK(rows[i]["time_error"].get<double>() == doctest::Approx(want / kTable[i].us - 1).epsilon(1e-9));
    CHECK(rows[i]["busbw_error"].get<double>() == doctest::Approx(kTable[i].us / want - 1).epsilon(1e-9));
    CHECK(rows[i]["measured_busbw_gbs"].get<double>() ==
          doctest::Approx(static_cast<double>(kTable[i].size) / kTable[i].us / 1000 * 62 / 32).epsilon(1e-9));
    CHECK(rows[i]["algo"] == "Ring");
    CHECK(rows[i]["fitted"] == false);
  }
  CHECK(rows[0]["time_error"].get<double>() == doctest::Approx(0.2007).epsilon(1e-3));
  CHECK(rows[0]["busbw_error"].get<double>() == doctest::Approx(-0.1672).epsilon(1e-3));
  CHECK(rows[0]["measured_busbw_gbs"].get<double>() == doctest::Approx(0.3848).epsilon(1e-3));
  CHECK(rows[1]["band"] == "1MiB_64MiB");
  // Bands: one size each below 64 MiB; from 64 MiB |time error| 7.64% and
  // 4.98% (median 6.31%, max 7.64%), |busbw error| 7.09% and 5.25%.
  const auto& bands = doc["tables"][0]["bands"];
  REQUIRE(bands.size() == 3);
  CHECK(bands[0]["band"] == "lt_1MiB");
  CHECK(bands[0]["sizes"] == 1);
  CHECK(bands[0]["time_error"]["median_abs"].get<double>() == doctest::Approx(0.2007).epsilon(1e-3));
  CHECK(bands[1]["busbw_error"]["max_abs"].get<double>() == doctest::Approx(0.2481).epsilon(1e-3));
  CHECK(bands[2]["sizes"] == 2);
  const double e256 = by_hand(268435456, 1, 0) / 1600 - 1, e1g = by_hand(1073741824, 1, 0) / 6000 - 1;
  CHECK(bands[2]["time_error"]["median_abs"].get<double>() == doctest::Approx((std::abs(e256) + std::abs(e1g)) / 2));
  CHECK(bands[2]["time_error"]["median_abs"].get<double>() == doctest::Approx(0.0631).epsilon(2e-3));
  CHECK(bands[2]["time_error"]["max_abs"].get<double>() == doctest::Approx(0.0764).epsilon(1e-3));
  CHECK(bands[2]["busbw_error"]["median_abs"].get<double>() == doctest::Approx(0.0617).epsilon(2e-3));
  CHECK(bands[2]["busbw_error"]["max_abs"].get<double>() == doctest::Approx(0.0709).epsilon(1e-3));
  CHECK(doc["bands"] == bands);  // one table: the overall bands are its own
  // Negative control: the same table on nodes whose GPUs share 4 NICs (half
  // the busBw) is predicted otherwise, 1 GiB now 86% slow.
  const auto four = validate_json({t.string(), "--config", config(4).string()});
  const double slow = four["tables"][0]["rows"][3]["time_error"];
  CHECK(slow == doctest::Approx(by_hand(1073741824, 0.5, 0) / 6000 - 1).epsilon(1e-9));
  CHECK(std::abs(slow - e1g) > 0.5);
}

TEST_CASE("validate: parameters from a calibration file, and from a fit on another table") {
  const fs::path t = table("hand.txt", kTable, 4);
  const fs::path snippet = temp_dir() / "half.toml";
  std::ofstream(snippet) << "# comment\n[calibration]\nnic_efficiency = 0.5\nnet_latency_us = 10\n";
  const auto doc = validate_json({t.string(), "--config", config(8).string(), "--calibration", snippet.string()});
  CHECK(doc["parameters"] == "calibration");
  CHECK(doc["calibration"] == snippet.string());
  // Latency (282.8 + 6 x 2 x 10) x 1.4 = 563.92 us, half the busBw: 1 GiB 11174.04 us, +86.2%.
  const auto& rows = doc["tables"][0]["rows"];
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(rows[i]["predicted_us"].get<double>() == doctest::Approx(by_hand(kTable[i].size, 0.5, 10)).epsilon(1e-9));
  CHECK(rows[3]["time_error"].get<double>() == doctest::Approx(0.8623).epsilon(1e-3));
  // The same prediction as `run` on the config with the file appended.
  const fs::path appended = temp_dir() / "appended.toml";
  std::ofstream(appended) << read_text(config(8)) << read_text(snippet);
  const CliResult run = cli_run({"run", appended.string(), "-b", "64K", "-e", "1G", "-f", "json"});
  REQUIRE_MESSAGE(run.code == 0, run.err);
  // Named: a range-for over a member of the temporary parse would read freed memory (ASan).
  const nlohmann::json run_doc = nlohmann::json::parse(run.out);
  for (const auto& row : run_doc["scenarios"][0]["sizes"])
    if (row["size"] == 1073741824) CHECK(row["time_us"].get<double>() == doctest::Approx(rows[3]["predicted_us"].get<double>()));
  // Fit on the table's three largest sizes (a table made at efficiency 0.8,
  // latency 5 by hand), score the hand table: no row of it is fitted.
  std::vector<Measured> exact;
  for (const Measured& m : kTable) exact.push_back({m.size, std::round(by_hand(m.size, 0.8, 5) * 100) / 100});
  const fs::path fit_table = table("fit.txt", exact.data(), exact.size());
  const auto fit = validate_json({t.string(), fit_table.string(), "--config", config(8).string(), "--fit-on",
                                  fit_table.string(), "--fit-sizes", "4M:"});
  CHECK(fit["parameters"] == "fit");
  CHECK(fit["fit"]["nic_efficiency"].get<double>() == doctest::Approx(0.8).epsilon(1e-3));
  CHECK(fit["fit"]["net_latency_us"].get<double>() == doctest::Approx(5).epsilon(1e-2));
  CHECK(fit["fit"]["fit_min"] == 4194304);
  REQUIRE(fit["tables"].size() == 2);
  for (const auto& row : fit["tables"][0]["rows"]) CHECK(row["fitted"] == false);
  const auto& own = fit["tables"][1]["rows"];
  CHECK(own[0]["fitted"] == false);
  CHECK(own[1]["fitted"] == true);
  CHECK(own[3]["fitted"] == true);
  CHECK(std::abs(own[3]["time_error"].get<double>()) < 1e-3);
  CHECK(fit["bands"][2]["sizes"] == 4);
  CHECK(fit["bands"][2]["fitted"] == 2);
  CHECK(fit["bands"][1]["fitted"] == 1);
}

TEST_CASE("validate: table, summary and CSV") {
  const fs::path t = table("hand.txt", kTable, 4);
  const CliResult text = cli_run({"validate", t.string(), "--config", config(8).string()});
  REQUIRE_MESSAGE(text.code == 0, text.err);
  CHECK(text.out.rfind("parameters: each table's config\n", 0) == 0);
  CHECK(text.out.find("    65536     330.00     396.24       20.1%") != std::string::npos);
  CHECK(text.out.find(">= 64 MiB      2       0                 6.3%     7.6%                  6.2%     7.1%\n") !=
        std::string::npos);
  const CliResult brief = cli_run({"validate", t.string(), "--config", config(8).string(), "-f", "summary"});
  REQUIRE(brief.code == 0);
  CHECK(brief.out.find("    65536 ") == std::string::npos);
  CHECK(brief.out.find(">= 64 MiB") != std::string::npos);
  const CliResult csv = cli_run({"validate", t.string(), "--config", config(8).string(), "-f", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("source,config,size,band,measured_us,predicted_us,time_error,measured_busbw_gbs,"
                      "predicted_busbw_gbs,busbw_error,algo,proto,fitted\n" + t.string() + "," + config(8).string() +
                          ",65536,lt_1MiB,330,",
                      0) == 0);
  CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 5);
}

TEST_CASE("validate refuses: one line naming the file, line or flag, exit 2, no output file") {
  const fs::path t = table("hand.txt", kTable, 4), out = temp_dir() / "scores.json";
  fs::remove(out);
  const std::string c = config(8).string();
  const auto refused = [&](std::vector<std::string> args, const std::string& want) {
    args.insert(args.begin(), "validate");
    args.insert(args.end(), {"-o", out.string()});
    const CliResult r = cli_run(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == want);
    CHECK(!fs::exists(out));
  };
  refused({t.string(), "--config", c, "--fit-sizes", "64M:"},
          "ecmpsim: --fit-sizes: sizes to fit on need a table to fit: give --fit-on\n");
  refused({t.string(), "--config", c, "--fit-config", c},
          "ecmpsim: --fit-config: a config to fit on needs a table to fit: give --fit-on\n");
  const fs::path snippet = temp_dir() / "bad.toml";
  std::ofstream(snippet) << "[calibration]\nnic_efficiency = 0.5\n[hosts]\nroce_mtu = 1024\n";
  refused({t.string(), "--config", c, "--calibration", snippet.string(), "--fit-on", t.string()},
          "ecmpsim: --calibration: the parameters come from a calibration file or from a fit on --fit-on, not both\n");
  refused({t.string(), "--config", c, "--calibration", snippet.string()},
          "ecmpsim: " + snippet.string() +
              ":3:1: hosts: a calibration file holds only a [calibration] table (as `calibrate` writes it), not 'hosts'\n");
  std::ofstream(snippet) << "[calibration]\nnic_efficiency = 1.5\n";
  const CliResult range = cli_run({"validate", t.string(), "--config", c, "--calibration", snippet.string()});
  CHECK(range.code == 2);
  CHECK(range.err.rfind("ecmpsim: " + snippet.string() + ":2:", 0) == 0);
  CHECK(range.err.find("nic_efficiency") != std::string::npos);
  // A 4-node table against a 2-node config names the table's line.
  const fs::path two = temp_dir() / "two.toml";
  std::ofstream(two) << "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 8\ngpus_per_node = 8\nspines = 1\n"
                        "rail_leaf_nodes = 0\n";
  const std::string vp = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/vp-h100-4n-all_reduce.txt";
  refused({t.string(), vp, "--config", two.string()}, "ecmpsim: " + vp + ":43: nccl-tests ran 32 ranks; job job0 has 16\n");
  // The output may not replace an input.
  const CliResult self = cli_run({"validate", t.string(), "--config", c, "-o", t.string()});
  CHECK(self.code == 2);
  CHECK(self.err.find("this file is the command's input") != std::string::npos);
  CHECK(read_text(t).rfind("# nThread", 0) == 0);
}

}  // namespace validate_test
