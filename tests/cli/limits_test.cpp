#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
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
  for (const char* flag : {"--max-hosts", "--max-flows", "--max-capture-bytes", "--max-switches", "--max-links",
                           "--max-scenarios", "--max-config-bytes"}) {
    CAPTURE(flag);
    for (const char* value : {"0", "-3", "lots"}) {
      const auto r = cli_run({"run", kPaper16, flag, value});
      CHECK(r.code == 2);
      CHECK(r.err.find(flag) != std::string::npos);
    }
  }
}

TEST_CASE("fabric_counts, counted from the spec, is what build_fabric builds for every shipped config") {
  for (const auto& entry : std::filesystem::directory_iterator(ECMPSIM_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".toml") continue;
    CAPTURE(entry.path().string());
    const ecmpsim::Spec spec = ecmpsim::load_config(entry.path().string());
    const ecmpsim::Fabric f = ecmpsim::build_fabric(spec.fabric);
    const ecmpsim::FabricCounts c = ecmpsim::fabric_counts(spec.fabric);
    CHECK(c.switches == f.nodes().size() - f.endpoints().size());
    CHECK(2 * c.cables == f.links().size());  // a cable is two directed links
  }
}

TEST_CASE("--max-switches and --max-links: paper16 has 4 + 4 switches and 16 + 4 x 4 cables") {
  // Worked by hand from configs/paper16.toml: 4 leaves, 4 spines, 4 hosts a leaf, 1 link a leaf-spine pair.
  CHECK(cli_run({"run", kPaper16, "--max-switches", "8", "--max-links", "32", "--format", "summary"}).code == 0);
  const auto sw = cli_run({"run", kPaper16, "--max-switches", "7"});
  CHECK(sw.code == 2);
  CHECK(sw.out.empty());
  CHECK(sw.err == "ecmpsim: " + kPaper16 + ": --max-switches: the fabric has 8 switches, more than the limit of 7\n");
  const auto links = cli_run({"sweep", kPaper16, "--seeds", "0:2", "--max-links", "31"});
  CHECK(links.code == 2);
  CHECK(links.err == "ecmpsim: " + kPaper16 + ": --max-links: the fabric has 32 cables, more than the limit of 31\n");
}

TEST_CASE("the issue's 4,096 x 4,096 leaf-spine with 64 links a pair is refused at once, not OOM-killed") {
  const std::string dir = std::filesystem::temp_directory_path() / "ecmpsim_limits_big";
  std::filesystem::create_directories(dir);
  const std::string cfg = dir + "/big.toml";
  std::ofstream(cfg) << "[fabric]\nkind = \"leaf-spine\"\nleaves = 4096\nspines = 4096\nhosts_per_leaf = 1\n"
                        "links_per_pair = 64\n";
  const auto r = cli_run({"run", cfg});
  std::filesystem::remove_all(dir);
  CHECK(r.code == 2);
  // 4,096 host cables + 4,096 x 4,096 x 64 fabric cables.
  CHECK(r.err == "ecmpsim: " + cfg + ": --max-links: the fabric has 1073745920 cables, more than the limit of 10000000\n");
}

TEST_CASE("--max-config-bytes: a config one byte over the limit is refused before it is read") {
  const auto size = std::filesystem::file_size(kPaper16);
  CHECK(cli_run({"run", kPaper16, "--max-config-bytes", std::to_string(size), "--format", "summary"}).code == 0);
  const auto r = cli_run({"sweep", kPaper16, "--max-config-bytes", std::to_string(size - 1)});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: " + kPaper16 + ": --max-config-bytes: the config file has " + std::to_string(size) +
                     " bytes, more than the limit of " + std::to_string(size - 1) + "\n");
}

TEST_CASE("D9: a size flag takes a unit, as --help shows its default") {
  const auto size = std::filesystem::file_size(kPaper16);
  REQUIRE(size > 1024);
  REQUIRE(size < 64 * 1024);
  // The defaults as --help prints them are accepted.
  CHECK(cli_run({"run", kPaper16, "--max-config-bytes", "64M", "--format", "summary"}).code == 0);
  const std::string pcap = ECMPSIM_SOURCE_DIR "/tests/data/roce_mixed.pcap";
  CHECK(cli_run({"run", kPaper16, "--flows", pcap, "--max-capture-bytes", "4G", "--format", "summary"}).code == 0);
  // 1K is 1024 bytes, and 64KiB 65536: the limit is the size, not a refusal of the unit.
  const auto r = cli_run({"sweep", kPaper16, "--max-config-bytes", "1K"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: " + kPaper16 + ": --max-config-bytes: the config file has " + std::to_string(size) +
                     " bytes, more than the limit of 1024\n");
  CHECK(cli_run({"run", kPaper16, "--max-config-bytes", "64KiB", "--format", "summary"}).code == 0);
  REQUIRE(std::filesystem::file_size(pcap) <= 1024);
  CHECK(cli_run({"run", kPaper16, "--flows", pcap, "--max-capture-bytes", "1k", "--format", "summary"}).code == 0);
}

TEST_CASE("--max-scenarios, and 20,000 scenarios parse in linear time") {
  const std::string dir = std::filesystem::temp_directory_path() / "ecmpsim_limits_scenarios";
  std::filesystem::create_directories(dir);
  const std::string cfg = dir + "/many.toml";
  {
    std::ofstream out(cfg);
    out << "[fabric]\nkind = \"leaf-spine\"\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n";
    for (int i = 0; i < 20000; ++i) out << "[[scenario]]\nname = \"s" << i << "\"\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const ecmpsim::Spec spec = ecmpsim::load_config(cfg);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(spec.scenarios.size() == 20000);
  // The quadratic check compared 2 x 10^8 name pairs here; a hash set makes it
  // a few milliseconds next to toml++'s own parse (generous for sanitizers).
  CHECK(took < 20.0);
  const auto r = cli_run({"flows", cfg, "--max-scenarios", "19999"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: " + cfg + ": --max-scenarios: the config has 20000 scenarios, more than the limit of 19999\n");
  // A duplicate among them is still found, at its table.
  { std::ofstream(cfg, std::ios::app) << "[[scenario]]\nname = \"s17\"\n"; }
  const auto dup = cli_run({"flows", cfg});
  std::filesystem::remove_all(dir);
  CHECK(dup.code == 2);
  CHECK(dup.err.find("duplicate scenario name 's17'") != std::string::npos);
}

TEST_CASE("an error line is cut at a bounded length, its control characters escaped") {
  const std::string name(5000, 'x');
  const auto r = cli_run({name + "\x1b[31m"});
  CHECK(r.code == 2);
  CHECK(r.err.size() < 1100);
  CHECK(r.err.find("... (cut; ") != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  const auto esc = cli_run({"bad\x1b[31mcommand"});
  CHECK(esc.err.rfind("ecmpsim: unknown command 'bad\\x1b[31mcommand'", 0) == 0);
  CHECK(std::count(esc.err.begin(), esc.err.end(), '\n') == 1);
}
}  // namespace limits_test
