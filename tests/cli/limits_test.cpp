#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "sim/config/config.h"
#include "sim/base/limits.h"
#include "sim/model/simulation.h"
#include "tests/support/cli_capture.h"

namespace limits_test {

namespace {

const std::string kPaper16 = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";

}  // namespace

TEST_CASE("endpoint_count, counted from the spec, is what build_fabric builds for every shipped config") {
  for (const auto& entry : std::filesystem::directory_iterator(ECMPSIM_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    CAPTURE(entry.path().string());
    const ecmpsim::Spec spec = ecmpsim::load_config(entry.path().string());
    CHECK(ecmpsim::endpoint_count(spec.fabric) == ecmpsim::build_fabric(spec.fabric).endpoints().size());
  }
}

TEST_CASE("--max-hosts: paper16 has 4 leaves x 4 hosts x 1 NIC = 16 endpoints") {
  CHECK(cli_run({"run", kPaper16, "--max-hosts", "16", "--format", "summary"}).code == 0);
  const auto r = cli_run({"run", kPaper16, "--max-hosts", "15"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + kPaper16 + ": --max-hosts: the fabric has 16 NIC endpoints, more than the limit of 15\n");
  CHECK(cli_run({"flows", kPaper16, "--max-hosts", "15"}).code == 2);
  CHECK(cli_run({"sweep", kPaper16, "--seeds", "0:2", "--max-hosts", "15"}).code == 2);
}

TEST_CASE("--max-flows: paper16's ring is 16 nodes x 4 channels x 1 QP = 64 flows") {
  CHECK(cli_run({"flows", kPaper16, "--max-flows", "64"}).code == 0);
  const auto r = cli_run({"run", kPaper16, "--max-flows", "63"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + kPaper16 + ": --max-flows: job 'job0' takes the workload past 63 flows\n");
  CHECK(cli_run({"flows", kPaper16, "--max-flows", "63"}).code == 2);
  CHECK(cli_run({"report", kPaper16, "--out", "-", "--max-flows", "63"}).code == 2);
  // Imports: the CSV holds 5 flows.
  const std::string csv = ECMPSIM_SOURCE_DIR "/tests/data/paper16_flows.csv";
  CHECK(cli_run({"run", kPaper16, "--flows", csv, "--max-flows", "5", "--format", "summary"}).code == 0);
  const auto imp = cli_run({"run", kPaper16, "--flows", csv, "--max-flows", "4"});
  CHECK(imp.code == 2);
  CHECK(imp.err == "ecmpsim: " + csv + ": --max-flows: the import holds 5 flows, more than the limit of 4\n");
}

TEST_CASE("--max-capture-bytes: a capture one byte over the limit is refused before it is read") {
  const std::string pcap = ECMPSIM_SOURCE_DIR "/tests/data/roce_mixed.pcap";
  const auto size = std::filesystem::file_size(pcap);
  CHECK(cli_run({"run", kPaper16, "--flows", pcap, "--max-capture-bytes", std::to_string(size), "--format",
                 "summary"}).code == 0);
  const auto r = cli_run({"run", kPaper16, "--flows", pcap, "--max-capture-bytes", std::to_string(size - 1)});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + pcap + ": --max-capture-bytes: the file has " + std::to_string(size) +
                     " bytes, more than the limit of " + std::to_string(size - 1) + "\n");
}

TEST_CASE("a limit of zero or a non-number is a usage error naming the flag") {
  for (const char* flag : {"--max-hosts", "--max-flows", "--max-capture-bytes"}) {
    CAPTURE(flag);
    for (const char* value : {"0", "-3", "lots"}) {
      const auto r = cli_run({"run", kPaper16, flag, value});
      CHECK(r.code == 2);
      CHECK(r.err.find(flag) != std::string::npos);
    }
  }
}
}  // namespace limits_test
