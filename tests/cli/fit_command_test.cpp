// `ecmpsim fit` end to end: observations written by `ecmpsim hash --tuples`
// for a hidden model, fitted, the JSON contract, the config snippet, and
// --predict against `hash --tuples` on flows the fit never saw.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fit_command_test {

namespace {

namespace fs = std::filesystem;

std::string tuples(unsigned n, unsigned salt) {
  std::string s = "src,dst,proto,sport,dport\n";
  for (unsigned i = 0; i < n; ++i) {
    const unsigned x = (i + salt) * 2654435761u;
    s += "10.0." + std::to_string(x % 4) + "." + std::to_string(1 + (x >> 8) % 250) + ",10.1." +
         std::to_string((x >> 16) % 4) + "." + std::to_string(1 + (x >> 20) % 250) + ",17," +
         std::to_string(49152 + (x >> 3) % 16384) + ",4791\n";
  }
  return s;
}

// The member column of `hash --tuples` output ("hash,member" lines).
std::vector<std::string> members(const std::string& out) {
  std::vector<std::string> m;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) m.push_back(line.substr(line.find(',') + 1));
  return m;
}

}  // namespace

TEST_CASE("ecmpsim fit: recovers a hidden jenkins model; JSON keys; --predict matches hash --tuples") {
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_fit_command_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string seen = (dir / "seen.csv").string(), unseen = (dir / "unseen.csv").string();
  std::ofstream(seen) << tuples(300, 1);
  std::ofstream(unseen) << tuples(500, 100000);
  const std::vector<std::string> hidden{"--algo", "jenkins", "--seed", "1000", "--offset", "4", "--fields",
                                        "src-ip,dst-ip,src-port", "--members", "4"};
  auto hash = [&](const std::string& file) {
    std::vector<std::string> args{"hash"};
    args.insert(args.end(), hidden.begin(), hidden.end());
    args.insert(args.end(), {"--tuples", file});
    const CliResult r = cli_run(args);
    REQUIRE(r.code == 0);
    return members(r.out);
  };
  const std::vector<std::string> seen_members = hash(seen);
  {
    std::ifstream in(seen);
    std::string line, obs;
    std::getline(in, line);
    obs = line + ",member\n";
    for (std::size_t i = 0; std::getline(in, line); ++i) obs += line + "," + seen_members[i] + "\n";
    std::ofstream(dir / "obs.csv") << obs;
  }
  const std::string obs = (dir / "obs.csv").string();
  const CliResult j = cli_run({"fit", obs, "--members", "4", "--format", "json", "--seeds", "0:2048"});
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["observations"] == 300);
  REQUIRE(!doc["models"].empty());
  const auto& best = doc["models"][0];
  for (const char* key : {"algo", "fields", "seed", "offset", "select", "members", "agree"}) CHECK(best.contains(key));
  CHECK(best["algo"] == "jenkins");
  CHECK(best["fields"] == nlohmann::json::array({"src-ip", "dst-ip", "src-port"}));
  CHECK(best["seed"] == 1000);
  CHECK(best["offset"] == 4);
  CHECK(best["select"] == "modulo");
  CHECK(best["members"] == 4);
  CHECK(best["agree"] == 300);
  CHECK(doc.contains("linear"));
  CHECK(doc["verdict"]["certain"] == true);

  const CliResult t = cli_run({"fit", obs, "--members", "4", "--seeds", "0:2048"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("[scenario.hash]\nalgo = \"jenkins\"\nfields = [\"src-ip\", \"dst-ip\", \"src-port\"]\nseed = 1000\n"
                   "offset = 4\nselect = \"modulo\"\n") != std::string::npos);

  const CliResult p = cli_run({"fit", obs, "--members", "4", "--seeds", "0:2048", "--predict", unseen});
  REQUIRE(p.code == 0);
  std::string expected = "member\n";
  for (const std::string& m : hash(unseen)) expected += m + "\n";
  CHECK(p.out == expected);
  CHECK(p.err.empty());
  // Negative control: seeds below the hidden one cannot explain the observations.
  const CliResult miss = cli_run({"fit", obs, "--members", "4", "--seeds", "0:1000"});
  CHECK(miss.code == 2);
  CHECK(miss.err.find("no model fits the 300 observations") != std::string::npos);
  CHECK(miss.err.find("seeds outside 0..999 were not tried (--seeds widens)") != std::string::npos);
  fs::remove_all(dir);
}
}  // namespace fit_command_test
