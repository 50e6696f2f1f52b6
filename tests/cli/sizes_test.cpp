// `ecmpsim run` with a size table: the flags and config keys reach every
// output, absent they change nothing, and bad values are one-line errors
// naming the flag or key (exit 2).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_capture.h"

namespace sizes_test {

namespace {

namespace fs = std::filesystem;

const std::string kFabric = "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n";

std::string write_config(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_sizes_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("run -b -e: nccl-tests' rows in the table, JSON and CSV") {
  const std::string c = write_config("plain.toml", kFabric);
  const CliResult json = cli_run({"run", c, "-b", "8", "-e", "1G", "--format", "json"});
  REQUIRE(json.code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  const auto& rows = doc["scenarios"][0]["sizes"];
  REQUIRE(rows.size() == 28);  // 2^3 .. 2^30
  CHECK(rows[0]["size"] == 8);
  CHECK(rows[0]["count"] == 2);
  CHECK(rows[0]["type"] == "float");
  CHECK(rows[0]["proto"] == "LL");
  CHECK(rows[27]["size"] == 1073741824);
  for (const char* key : {"job", "time_us", "algbw_gbs", "busbw_gbs", "algo", "slowdown"}) CHECK(rows[27].contains(key));
  const CliResult table = cli_run({"run", c, "-b", "8", "-e", "64", "--stepfactor", "8"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("#       size         count      type     time   algbw   busbw   algo   proto  slowdown") !=
        std::string::npos);
  const CliResult csv = cli_run({"run", c, "-b", "1M", "-e", "1M", "--nccl-algo", "Tree", "--format", "csv"});
  REQUIRE(csv.code == 0);
  CHECK(csv.out.rfind("scenario,job,size,count,type,time_us,algbw_gbs,busbw_gbs,algo,proto,slowdown\n", 0) == 0);
  CHECK(csv.out.find(",1048576,262144,float,") != std::string::npos);
  CHECK(csv.out.find(",Tree,") != std::string::npos);
}

TEST_CASE("without sizes the outputs carry no size table") {
  const std::string c = write_config("plain.toml", kFabric);
  const CliResult json = cli_run({"run", c, "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK_FALSE(nlohmann::json::parse(json.out)["scenarios"][0].contains("sizes"));
  CHECK(cli_run({"run", c, "--format", "csv"}).out.rfind("scenario,id,from,to,", 0) == 0);
}

TEST_CASE("the config's sizes key, and its errors") {
  const std::string ok = write_config(
      "ok.toml", kFabric + "[workload]\nsizes = { min = \"8\", max = \"16M\", factor = 4 }\nnccl_proto = \"Simple\"\n");
  const CliResult r = cli_run({"run", ok, "--format", "json"});
  REQUIRE(r.code == 0);
  const auto rows = nlohmann::json::parse(r.out)["scenarios"][0]["sizes"];
  CHECK(rows.size() == 11);  // 8 x 4^0 .. 8 x 4^10 = 8 MiB; 8 x 4^11 = 32 MiB > 16M
  for (const auto& row : rows) CHECK(row["proto"] == "Simple");
  struct Bad {
    std::string toml, err;
  };
  const Bad bad[] = {
      {"sizes = { min = \"16\", max = \"8\" }", ":6:9: workload.sizes: min (16) is larger than max (8)"},
      {"sizes = { min = 8, max = 16, factor = 1 }", ":6:39: workload.sizes.factor: expected an integer step factor in [2, 1024]"},
      {"sizes = { min = 0, max = 16 }", ":6:17: workload.sizes.min: size must be positive"},
      {"nccl_algo = \"Fast\"", ":6:13: workload.nccl_algo: expected one of \"Tree\" | \"Ring\" | \"CollNetDirect\" | "
                                 "\"CollNetChain\" | \"NVLS\" | \"NVLSTree\" | \"PAT\""},
      {"nccl_proto = \"ll\"", ":6:14: workload.nccl_proto: expected one of \"LL\" | \"LL128\" | \"Simple\""},
  };
  for (const Bad& b : bad) {
    const std::string c = write_config("bad.toml", kFabric + "[workload]\n" + b.toml + "\n");
    const CliResult e = cli_run({"run", c});
    CHECK(e.code == 2);
    CHECK(e.out.empty());
    CHECK(e.err == "ecmpsim: " + c + b.err + "\n");
  }
}

TEST_CASE("size flags: one-line errors naming the flag") {
  const std::string c = write_config("plain.toml", kFabric);
  struct Bad {
    std::vector<std::string> args;
    std::string prefix;
  };
  const Bad bad[] = {
      {{"-b", "16", "-e", "8"}, "ecmpsim: --minbytes: 16 is larger than --maxbytes 8"},
      {{"-b", "16"}, "ecmpsim: --maxbytes: needed with --minbytes"},
      {{"-b", "0", "-e", "8"}, "ecmpsim: --minbytes: "},
      {{"-b", "8", "-e", "64", "--stepfactor", "1"}, "ecmpsim: --stepfactor: "},
      {{"-b", "8", "-e", "64", "--nccl-proto", "Fast"}, "ecmpsim: --nccl-proto: "},
      {{"--nccl-algo", "Ring"}, "ecmpsim: --nccl-algo: only used with a size table"},
  };
  for (const Bad& b : bad) {
    std::vector<std::string> args{"run", c};
    args.insert(args.end(), b.args.begin(), b.args.end());
    const CliResult e = cli_run(args);
    CHECK(e.code == 2);
    CHECK(e.out.empty());
    CHECK(e.err.rfind(b.prefix, 0) == 0);
    CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
  }
  // Every collective is priced now (all-to-all and send/recv as point-to-point);
  // a release before the tuner tables is refused.
  const std::string old = write_config("old.toml", kFabric + "[workload]\nnccl_version = \"2.17.1\"\n");
  const CliResult e = cli_run({"run", old, "-b", "8", "-e", "64"});
  CHECK(e.code == 2);
  CHECK(e.err.find("sizes: NCCL's tuner is modelled from release 2.18.1 on, not 2.17.1") != std::string::npos);
  const std::string a2a = write_config("a2a.toml", kFabric + "[workload]\ncollective = \"alltoall\"\n");
  const CliResult ok = cli_run({"run", a2a, "-b", "8", "-e", "64", "-f", "csv"});
  CHECK(ok.code == 0);
  CHECK(ok.out.find(",p2p,Simple,") != std::string::npos);
}
}  // namespace sizes_test
