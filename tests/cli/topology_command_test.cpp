// `ecmpsim topology` end to end: the file it writes is the one the library
// built, loads as a config's topology, and `--against` exits 1 with the
// differences listed; `ecmpsim hash --seed-as` and the SAI vocabulary's default.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/fabric/discover.h"

namespace topology_command_test {

namespace {

namespace fs = std::filesystem;

const std::string kMixed = std::string(ECMPSIM_SOURCE_DIR) + "/tests/data/lldp/mixed/";

std::vector<std::string> mixed_files() {
  std::vector<std::string> out;
  for (const char* f : {"host1.json", "host2.kv", "leaf1.txt", "leaf2.json", "spine1.json", "spine2.json"})
    out.push_back(kMixed + f);
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("ecmpsim topology: --out writes the file a config loads; -f json; --against exits 1 on a difference") {
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_topology_command_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> args{"topology"};
  for (const std::string& f : mixed_files()) args.push_back(f);
  args.insert(args.end(), {"--out", (dir / "topo.csv").string(), "-f", "json"});
  const CliResult r = cli_run(args);
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["nodes"].size() == 6);
  CHECK(doc["cables"].size() == 6);
  CHECK(doc["files"][2]["format"] == "sonic-text");
  const std::string csv = slurp(dir / "topo.csv");
  CHECK(csv.find("link,host1,leaf1,100\n") != std::string::npos);
  // The file is a topology a config runs on.
  std::ofstream(dir / "c.toml") << "[fabric]\nkind = \"file\"\nfile = \"topo.csv\"\n[workload]\nnodes = 2\n";
  const CliResult run = cli_run({"run", (dir / "c.toml").string()});
  CHECK(run.code == 0);
  // The same tables against that config: clean, exit 0.
  std::vector<std::string> against{"topology"};
  for (const std::string& f : mixed_files()) against.push_back(f);
  against.insert(against.end(), {"--against", (dir / "c.toml").string()});
  CHECK(cli_run(against).code == 0);
  // Against a config whose file moves host2 to leaf1: exit 1, the miswired cable with both ends.
  std::ofstream(dir / "moved.csv") << "node,spine1,spine\nnode,spine2,spine\nnode,leaf1,leaf\nnode,leaf2,leaf\n"
                                      "node,host1,host\nnode,host2,host\nlink,leaf1,spine1,100\nlink,leaf2,spine1,100\n"
                                      "link,leaf1,spine2,100\nlink,leaf2,spine2,100\nlink,host1,leaf1,100\n"
                                      "link,host2,leaf1,100\n";
  std::ofstream(dir / "m.toml") << "[fabric]\nkind = \"file\"\nfile = \"moved.csv\"\n[workload]\nnodes = 2\n";
  against.back() = (dir / "m.toml").string();
  const CliResult diff = cli_run(against);
  CHECK(diff.code == 1);
  CHECK(diff.out.find("5 of 6 intended cables found; 0 missing, 0 extra, 1 miswired") != std::string::npos);
  CHECK(diff.out.find("miswired  host2 ens1f0 -- leaf2 Ethernet3 (intended host2 -- leaf1)") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("ecmpsim topology on the public Arista lab writes the file whose next hops match EAPI-LEAF1A's routes") {
  // The command as docs/fabrics-and-routing.md runs it on the 23 tables; the
  // file is the library's (tests/fabric/discover_test.cpp matches its next
  // hops with the leaf's routing table, 13 of 13).
  const fs::path lab = fs::path(ECMPSIM_SOURCE_DIR) / "tests" / "data" / "lldp" / "eapi" / "lldp";
  const fs::path out = fs::temp_directory_path() / "ecmpsim_topology_command_test_eapi.csv";
  fs::remove(out);
  std::vector<std::string> args{"topology"};
  std::vector<ecmpsim::LldpFile> files;
  for (const auto& e : fs::directory_iterator(lab)) {
    args.push_back(e.path().string());
    files.push_back({e.path().string(), slurp(e.path())});
  }
  REQUIRE(files.size() == 23);
  args.insert(args.end(), {"--tier", "SRV-*=host", "--speed", "100", "--out", out.string(), "-f", "json"});
  const CliResult r = cli_run(args);
  REQUIRE(r.code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["cables"].size() == 44);
  ecmpsim::DiscoverOptions o;
  o.tiers.push_back({"SRV-*", ecmpsim::Tier::Host});
  o.speed_gbps = 100;
  const std::string written = slurp(out);
  CHECK(written == ecmpsim::discover_topology(files, o).csv);
  // The MLAG peer link is one port-channel row (two cables), not two ECMP members.
  CHECK(written.find("\nlink,EAPI-LEAF1A,EAPI-LEAF1B,100,peer-link,2\n") != std::string::npos);
  // Negative control: --no-lags writes another file.
  args.insert(args.end() - 2, "--no-lags");
  REQUIRE(cli_run(args).code == 0);
  CHECK(slurp(out) != written);
  fs::remove(out);
}

TEST_CASE("ecmpsim hash: a SAI algorithm name takes the prefix convention; --seed-as says otherwise") {
  const std::vector<std::string> base{"hash",    "--algo",      "CRC_32LO", "--fields",
                                      "SRC_IPV4,DST_IPV4,L4_SRC_PORT,L4_DST_PORT", "--src", "10.0.0.1",
                                      "--dst",   "10.1.0.2",    "--sport",  "49152", "--members", "64", "-f", "json"};
  const CliResult sai = cli_run(base);
  REQUIRE(sai.code == 0);
  const auto a = nlohmann::json::parse(sai.out);
  CHECK(a["seed_as"] == "prefix");
  std::vector<std::string> reg = base;
  reg.insert(reg.end(), {"--seed-as", "register"});
  const auto b = nlohmann::json::parse(cli_run(reg).out);
  CHECK(b["seed_as"] == "register");
  // The key bytes are the same; the hash is not (four zero bytes in front).
  CHECK(a["key"] == b["key"]);
  CHECK(a["hash"] != b["hash"]);
  // The catalogue's name of the same algorithm keeps the register.
  std::vector<std::string> cat = base;
  cat[2] = "crc32-lo";
  CHECK(nlohmann::json::parse(cli_run(cat).out)["hash"] == b["hash"]);
}

}  // namespace topology_command_test
