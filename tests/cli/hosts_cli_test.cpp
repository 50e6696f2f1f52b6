// GPUs per node versus NICs, end to end: the same 4 nodes x 8 GPUs with 8
// or 4 NICs per node on a non-blocking rail fabric, NVLink cap lifted.
// Expected times worked by hand from NCCL 2.23.4's constants and the RoCEv2
// goodput (docs/prediction.md, "Hosts").
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_capture.h"

namespace hosts_cli_test {

namespace {

double time_8g(std::uint32_t nics) {
  const auto path = std::filesystem::temp_directory_path() / ("ecmpsim_hosts_cli_" + std::to_string(nics) + ".toml");
  std::ofstream(path) << "[fabric]\nkind = \"rail\"\nnodes = 4\nnics_per_node = " << nics
                      << "\ngpus_per_node = 8\nspines = 1\nrail_leaf_nodes = 0\n"
                         "[workload]\nchannels = 16\nsearch_channels = 8\n[hosts]\nintra_busbw_gbs = 100000\n";
  const CliResult r = cli_run({"run", path.string(), "-b", "8G", "-e", "8G", "-f", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return nlohmann::json::parse(r.out)["scenarios"][0]["sizes"][0]["time_us"].get<double>();
}

}  // namespace

TEST_CASE("8 GPUs on 8 NICs, then sharing 4: the routed busBw halves") {
  // Ring Simple, 32 ranks on 4 nodes: latency (8.4 + 56 x 3.4 + 6 x 14) x 1.4 = 395.92 us;
  // busBw 8 x 50 x 4096/4178 = 392.149 GB/s, algBw x 32/62.
  const double bus8 = 8 * 50.0 * 4096 / 4178;
  CHECK(time_8g(8) == doctest::Approx(395.92 + 8589934592.0 / (1000 * bus8 * 32 / 62)));  // 42836.4 us
  // Four NICs: two channels' flows on each, half the busBw.
  CHECK(time_8g(4) == doctest::Approx(395.92 + 8589934592.0 / (1000 * bus8 / 2 * 32 / 62)));  // 85276.9 us
}

}  // namespace hosts_cli_test
