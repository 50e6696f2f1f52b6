// Issue 50 item 3: wherever both bus bandwidths appear (run's predicted block
// beside its size table, sweep's per-job busbw beside busbw_at / busbw_avg,
// the report's scenario metrics beside its size charts), each carries its
// label, and the help's worked example states the numbers run prints.
#include <doctest/doctest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/output/busbw_figures.h"
#include "tests/support/cli_capture.h"

namespace busbw_labels_test {

namespace {

const std::string kPaper16 = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";
const std::string kFabric(ecmpsim::busbw_label(ecmpsim::BusbwFigure::FabricBound));
const std::string kNccl(ecmpsim::busbw_label(ecmpsim::BusbwFigure::NcclTests));

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

void check_has_all(const std::string& text, const std::vector<std::string>& all) {
  for (const std::string& what : all) {
    INFO(what);
    CHECK(has(text, what));
  }
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

TEST_CASE("the two labels differ, and neither is a part of the other") {
  CHECK(kFabric != kNccl);
  CHECK_FALSE(has(kFabric, kNccl));
  CHECK_FALSE(has(kNccl, kFabric));
}

TEST_CASE("run: the predicted block says fabric-bound, the size table says nccl-tests; the help's example is run's") {
  const CliResult table = cli_run({"run", kPaper16, "-b", "16G", "-e", "16G"});
  REQUIRE(table.code == 0);
  check_has_all(table.out, {kFabric + " (Gb/s)", kFabric + " (GB/s)", "# busbw is the " + kNccl + ": compare with a measured",
                            kFabric + ": compare with the NICs' line rate"});
  // Negative control: without a size table, only the fabric-bound figure, so only its label.
  const CliResult plain = cli_run({"run", kPaper16});
  REQUIRE(plain.code == 0);
  CHECK(has(plain.out, kFabric));
  CHECK_FALSE(has(plain.out, kNccl));

  // The help's numbers are the ones run computes for the same config.
  const CliResult json = cli_run({"run", kPaper16, "-b", "16G", "-e", "16G", "--format", "json"});
  REQUIRE(json.code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  const auto& ecmp = doc["scenarios"][0];
  const auto& stat = doc["scenarios"][1];
  REQUIRE(ecmp["name"] == "ecmp");
  REQUIRE(stat["name"] == "static");
  const double fabric_static = stat["predicted"]["busbw_gbps"].get<double>();
  const double nccl_static = stat["sizes"][0]["busbw_gbs"].get<double>();
  // Independently: the static table loads every link evenly, so the fabric bound is
  // the 400 Gb/s NIC; nccl-tests' figure stays under its RoCEv2 goodput, 4096/4178 of it.
  CHECK(fabric_static == doctest::Approx(400));
  CHECK(nccl_static < 50.0 * 4096 / 4178);
  CHECK(nccl_static > 0.99 * 50.0 * 4096 / 4178);
  const CliResult help = cli_run({"run", "--help"});
  REQUIRE(help.code == 0);
  check_has_all(help.out,
                {fixed(fabric_static, 1) + " Gb/s (" + fixed(fabric_static / 8, 2) + " GB/s) static",
        fixed(ecmp["predicted"]["busbw_gbps"].get<double>(), 1) + " Gb/s (" +
            fixed(ecmp["predicted"]["busbw_gbps"].get<double>() / 8, 2) + " GB/s) ecmp",
        fixed(nccl_static, 2) + " GB/s static", fixed(ecmp["sizes"][0]["busbw_gbs"].get<double>(), 2) + " GB/s ecmp",
        fixed(50.0 * 4096 / 4178, 2) + " GB/s at MTU 4096", kFabric + " (the predicted block",
        kNccl + " (the size table's busbw column"});
}

TEST_CASE("sweep: busbw_at and busbw_avg say nccl-tests, each job's busbw says fabric-bound") {
  const CliResult sized = cli_run({"sweep", kPaper16, "--seeds", "0:4", "--algos", "xxh3", "-b", "1M", "-e", "16M"});
  REQUIRE(sized.code == 0);
  // The statistics' rows, the best and worst lines, and the legends.
  check_has_all(sized.out, {kNccl + "@size (GB/s)", kNccl + " avg (GB/s)", kFabric + " (Gb/s)", kFabric + " (GB/s)",
                            "  " + kFabric + " ", "(" + kNccl + ": compare with", "(" + kFabric + ": compare with"});
  // Negative control: no size table, no nccl-tests figure and no such label.
  const CliResult plain = cli_run({"sweep", kPaper16, "--seeds", "0:4", "--algos", "xxh3"});
  REQUIRE(plain.code == 0);
  CHECK(has(plain.out, kFabric));
  CHECK_FALSE(has(plain.out, kNccl));
}

TEST_CASE("report: the scenario metrics say fabric-bound, the size charts and tables say nccl-tests") {
  const CliResult page = cli_run({"report", kPaper16, "-b", "1M", "-e", "16M", "--seeds", "0:4", "--out", "-"});
  REQUIRE(page.code == 0);
  check_has_all(page.out, {kFabric + " (Gb/s)", kNccl + " (GB/s)", kNccl + " against message size",
                           "Its busbw is the " + kNccl + ": compare with"});
}

}  // namespace busbw_labels_test
