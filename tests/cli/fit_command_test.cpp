// `ecmpsim fit` end to end: observations written by `ecmpsim hash --tuples`
// for a hidden model, fitted, the JSON contract, the config snippet, and
// --predict against `hash --tuples` on flows the fit never saw.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <cmath>
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

TEST_CASE("ecmpsim fit: a real trace of several switches, each with its own group size") {
  // Real kernel decisions (tests/data/fit/make_traces.sh): configs/oversubscribed.toml
  // emulated with hash policy 1 and seed 4242 on every router; 4 leaves choose
  // among 4 uplinks, 2 spines among the 2 cables down to a leaf. The hidden
  // truth is what emulate set: linux-l4, seed 4242, on every switch.
  const std::string trace = ECMPSIM_SOURCE_DIR "/tests/data/fit/oversubscribed_traced.csv";
  const std::vector<std::string> quick{"--algos", "linux-l4,linux-l3,crc16-ccitt", "--seeds", "4000:4500", "-j", "2"};
  auto fit = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"fit", trace});
    args.insert(args.end(), quick.begin(), quick.end());
    return cli_run(args);
  };
  const CliResult j = fit({"--members", "4,spine0=2,spine1=2", "--format", "json"});
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  REQUIRE(doc["switches"].size() == 6);
  CHECK(doc["switches"][0]["switch"] == "leaf0");
  CHECK(doc["switches"][0]["observations"] == 48);
  CHECK(doc["switches"][1]["switch"] == "spine0");
  CHECK(doc["switches"][1]["members"] == 2);
  CHECK(doc["switches"][1]["members_from"] == "flag");
  REQUIRE(doc["groups"].size() == 2);
  CHECK(doc["groups"][0]["switches"] == nlohmann::json::array({"leaf0", "leaf1", "leaf2", "leaf3"}));
  CHECK(doc["groups"][1]["switches"] == nlohmann::json::array({"spine0", "spine1"}));
  for (const auto& g : doc["groups"]) {
    const auto& best = g["models"][0];
    CHECK(best["algo"] == "linux-l4");
    CHECK(best["seed"] == 4242);
    CHECK(best["agree"] == g["observations"]);
    CHECK(g["verdict"]["certain"] == true);
  }
  CHECK(doc["groups"][0]["models"][0]["members"] == 4);
  CHECK(doc["groups"][1]["models"][0]["members"] == 2);
  // The table says which switches share which model.
  const CliResult t = fit({"--members", "4,spine0=2,spine1=2"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("fitted as 2 groups, one model each") != std::string::npos);
  CHECK(t.out.find("model 2: spine0, spine1\n") != std::string::npos);
  // The leaves' group sizes from their rows: 48 rows show member 3.
  const CliResult rows = fit({"--members", "spine0=2,spine1=2", "--format", "json"});
  REQUIRE(rows.code == 0);
  const auto r = nlohmann::json::parse(rows.out);
  CHECK(r["switches"][0]["members"] == 4);
  CHECK(r["switches"][0]["members_from"] == "rows");
  CHECK(r["switches"][0]["unseen_member_chance"].get<double>() == doctest::Approx(std::pow(0.8, 48)));
  CHECK(r["groups"].size() == 2);
  // The trace is polarized (the same hash and seed on every router): a flow a
  // leaf sent to spine0 has a hash in the lower half, so spine0 sends every
  // flow on member 0. Its rows cannot tell its group size, and say so.
  const CliResult unsized = fit({});
  CHECK(unsized.code == 2);
  CHECK(unsized.err.find("switch 'spine0': every row has member 0") != std::string::npos);
  // --predict needs one model: the spines' group of 2 is another.
  const CliResult predict = fit({"--members", "4,spine0=2,spine1=2", "--predict", trace});
  CHECK(predict.code == 2);
  CHECK(predict.err.find("follow 2 different models: give --switch NAME") != std::string::npos);
  // Negative control: the same rows without the switch column are one
  // switch's, and contradict each other (a flow's leaf and spine members).
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_fit_switches_test";
  fs::create_directories(dir);
  {
    std::ifstream in(trace);
    std::ofstream out(dir / "noswitch.csv");
    for (std::string line; std::getline(in, line);) {
      const std::size_t a = line.rfind(','), b = line.rfind(',', a - 1);
      out << line.substr(0, b) << line.substr(a) << "\n";
    }
  }
  const CliResult pooled = cli_run({"fit", (dir / "noswitch.csv").string(), "--members", "4"});
  CHECK(pooled.code == 2);
  CHECK(pooled.err.find("contradiction") != std::string::npos);
  fs::remove_all(dir);
}
}  // namespace fit_command_test
