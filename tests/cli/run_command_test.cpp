#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace run_command_test {


namespace {

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("ecmpsim run --format summary: the table up to its per-link list, nothing after") {
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";
  const auto table = cli_run({"run", cfg.c_str()});
  const auto summary = cli_run({"run", cfg.c_str(), "--format", "summary"});
  REQUIRE(table.code == 0);
  REQUIRE(summary.code == 0);
  const auto cut = table.out.find("\nflows per link");
  REQUIRE(cut != std::string::npos);
  CHECK(summary.out == table.out.substr(0, cut));
  // paper16 has 4 leaves x 4 spines: 32 directed switch-to-switch links, each a
  // row of the per-link list that summary drops, with the list's blank line,
  // title, header and rule.
  CHECK(lines(table.out) - lines(summary.out) == 4 + 32);
}

TEST_CASE("ecmpsim run: a long scenario name widens its column instead of running into the next") {
  std::ifstream in(ECMPSIM_SOURCE_DIR "/configs/paper16.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string name = "ecmp-with-a-long-name";  // 21 characters, the default column is 14
  const auto at = text.find("name = \"ecmp\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 13, "name = \"" + name + "\"");
  const auto path = std::filesystem::temp_directory_path() / "run_command_test_long_name.toml";
  std::ofstream(path) << text;
  const auto r = cli_run({"run", path.c_str(), "--format", "summary"});
  std::filesystem::remove(path);
  REQUIRE(r.code == 0);
  std::istringstream lines_of(r.out);
  std::string head, fim;
  for (std::string line; std::getline(lines_of, line);) {
    if (line.starts_with("metric ")) head = line;
    if (line.starts_with("FIM (flows) ")) fim = line;
  }
  // Right-aligned columns: the header and a row end at the same column, and
  // the name is set off from the label by at least two spaces.
  CHECK(head.size() == fim.size());
  CHECK(head.find("  " + name + " ") != std::string::npos);
}

TEST_CASE("ecmpsim run: rings that leave NICs idle say so") {
  // 2 nodes x 8 GPUs x 8 NICs; 8 channels search 4, so channel c uses NIC c mod 4.
  const std::string fabric =
      "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 8\ngpus_per_node = 8\nspines = 2\n"
      "host_speed_gbps = 400\nfabric_speed_gbps = 400\n[[scenario]]\nname = \"ecmp\"\n"
      "[[job]]\ncollective = \"ring-allreduce\"\nmessage_bytes = \"1GiB\"\n";
  const auto path = std::filesystem::temp_directory_path() / "run_command_test_idle_nics.toml";
  const auto run_with = [&](const std::string& job_keys) {
    std::ofstream(path) << fabric + job_keys;
    return cli_run({"run", path.c_str(), "--format", "summary"});
  };
  const auto eight = run_with("channels = 8\n");
  CHECK(eight.code == 0);
  CHECK(eight.err ==
        "ecmpsim: note: job 'job0': 8 channels search 4 (NCCL doubles what its search finds), so they leave each "
        "node by NICs 0..3 of its 8; set search_channels (or more channels) if NCCL's log shows more\n");
  // The negative control: 16 channels search 8, one per NIC, and nothing is said.
  const auto sixteen = run_with("channels = 16\n");
  CHECK(sixteen.code == 0);
  CHECK(sixteen.err.empty());
  std::filesystem::remove(path);
}

TEST_CASE("ecmpsim run --no-slowdown: routes and metrics as without it, no predicted times") {
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";
  const auto with = cli_run({"run", cfg, "--format", "json"});
  const auto without = cli_run({"run", cfg, "--format", "json", "--no-slowdown"});
  REQUIRE(with.code == 0);
  REQUIRE(without.code == 0);
  const auto a = nlohmann::json::parse(with.out), b = nlohmann::json::parse(without.out);
  REQUIRE(a["scenarios"].size() == 2);
  REQUIRE(b["scenarios"].size() == 2);
  for (std::size_t s = 0; s < 2; ++s) {
    // The control: the model's keys are there by default.
    CHECK(a["scenarios"][s].contains("predicted"));
    CHECK(a["scenarios"][s]["flows"][0].contains("finish_s"));
    CHECK_FALSE(b["scenarios"][s].contains("predicted"));
    CHECK_FALSE(b["scenarios"][s]["flows"][0].contains("rate_gbps"));
    CHECK_FALSE(b["scenarios"][s]["flows"][0].contains("finish_s"));
    CHECK(a["scenarios"][s]["metrics"] == b["scenarios"][s]["metrics"]);
    CHECK(a["scenarios"][s]["links"] == b["scenarios"][s]["links"]);
  }
  const auto table = cli_run({"run", cfg, "--no-slowdown"});
  CHECK(table.out.find("predicted") == std::string::npos);
  const auto sized = cli_run({"run", cfg, "--no-slowdown", "-b", "1M", "-e", "4M"});
  CHECK(sized.code == 2);
  CHECK(sized.out.empty());
  CHECK(sized.err == "ecmpsim: --no-slowdown: the size table needs the flow model that --no-slowdown turns off\n");
}

TEST_CASE("ecmpsim run --format: an unknown format is a usage error naming the flag") {
  const auto r = cli_run({"run", "--format", "short"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("--format") != std::string::npos);
}

TEST_CASE("ecmpsim run --down: a comma list and repeated flags name the same failures") {
  const std::string cfg = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";
  const auto listed = cli_run({"run", cfg, "--down", "leaf0-spine0,spine1", "--format", "json"});
  const auto repeated = cli_run({"run", cfg, "--down", "leaf0-spine0", "--down", "spine1", "--format", "json"});
  REQUIRE(listed.code == 0);
  CHECK(listed.out == repeated.out);
  // Each scenario and its twin; the twin lists both failures in order.
  CHECK(listed.out.find("\"name\": \"ecmp+down\"") != std::string::npos);
  CHECK(listed.out.find("\"down\": [\n        \"leaf0-spine0\",\n        \"spine1\"\n      ]") != std::string::npos);
  // paper16's spine1 carries 8 directed links to and from the 4 leaves and
  // leaf0-spine0 one cable (2 directed links): 10 of 32 down in the twin.
  std::size_t downs = 0;
  for (auto at = listed.out.find("\"down\": true"); at != std::string::npos; at = listed.out.find("\"down\": true", at + 1))
    ++downs;
  CHECK(downs == 2 * 10);  // ecmp+down and static+down
}

TEST_CASE("ecmpsim init writes a starter config that runs, of the fabric kind asked for, and keeps existing files") {
  const auto dir = std::filesystem::temp_directory_path() / "ecmpsim_init_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const std::string kind : {"leaf-spine", "fat-tree", "rail"}) {
    const std::string path = (dir / (kind + ".toml")).string();
    REQUIRE(cli_run({"init", "--fabric", kind, "-o", path}).code == 0);
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("kind = \"" + kind + "\"") != std::string::npos);
    CHECK(cli_run({"run", path, "-f", "summary", "-o", "/dev/null"}).code == 0);
    const auto again = cli_run({"init", "--fabric", kind, "-o", path});
    CHECK(again.code == 2);
    CHECK(again.err == "ecmpsim: --out: '" + path + "' exists (--force replaces it)\n");
    CHECK(cli_run({"init", "--fabric", kind, "-o", path, "--force"}).code == 0);
  }
  CHECK(cli_run({"init", "--fabric", "torus"}).code == 2);
  std::filesystem::remove_all(dir);
}

namespace {

// A hand-built fabric: two leaves joined through one spine by two parallel
// cables each; 4 channels between every pair of hosts.
std::string parallel_config() {
  const auto dir = std::filesystem::temp_directory_path() / "ecmpsim_parallel_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "topo.csv") << "node,h0,host\nnode,h1,host\nnode,h2,host\nnode,h3,host\n"
                                     "node,leaf0,leaf\nnode,leaf1,leaf\nnode,spine0,spine\n"
                                     "link,h0,leaf0,100\nlink,h1,leaf0,100\nlink,h2,leaf1,100\nlink,h3,leaf1,100\n"
                                     "link,leaf0,spine0,100,2\nlink,leaf1,spine0,100,2\n";
  std::ofstream(dir / "p.toml") << "[fabric]\nkind = \"file\"\nfile = \"topo.csv\"\n"
                                   "[workload]\nnodes = 4\nplacement = \"strided\"\nchannels = 4\n"
                                   "[[scenario]]\nname = \"ecmp\"\n[scenario.hash]\nalgo = \"xxh3\"\n";
  return (dir / "p.toml").string();
}

}  // namespace

TEST_CASE("ecmpsim run: parallel cables have ids in every output, and each flow names the cables it took") {
  const std::string cfg = parallel_config();
  const auto r = cli_run({"run", cfg, "--format", "json"});
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(r.out)["scenarios"][0];
  std::map<std::string, std::uint64_t> link_flows;
  for (const auto& l : s["links"]) {
    const std::string id = l["id"];
    CHECK(link_flows.count(id) == 0);  // unique
    link_flows[id] = l["flows"];
    // "from->to", then "#k" because every leaf-spine pair here has two cables.
    CHECK(id.rfind(l["from"].get<std::string>() + "->" + l["to"].get<std::string>() + "#", 0) == 0);
  }
  CHECK(link_flows.size() == 8);  // 2 leaves x 2 cables x 2 directions
  for (const char* id : {"leaf0->spine0#0", "leaf0->spine0#1", "spine0->leaf1#0", "spine0->leaf1#1"})
    CHECK(link_flows.count(id) == 1);
  // Every flow's links follow its path, and counting them per id gives the links' own counters.
  std::map<std::string, std::uint64_t> counted;
  std::map<std::string, std::set<std::string>> cables_of_pair;  // "leaf0->spine0" -> the ids flows used
  for (const auto& f : s["flows"]) {
    const auto& path = f["path"];
    const auto& links = f["links"];
    REQUIRE(links.size() + 1 == path.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      const std::string id = links[i], hop = path[i].get<std::string>() + "->" + path[i + 1].get<std::string>();
      CHECK(id.rfind(hop, 0) == 0);
      if (link_flows.count(id)) {
        ++counted[id];
        cables_of_pair[hop].insert(id);
      }
    }
  }
  for (const auto& [id, n] : link_flows) CHECK(counted[id] == n);
  // The flows from leaf0 to the spine do not all take one cable: the ids tell them apart.
  CHECK(cables_of_pair["leaf0->spine0"].size() == 2);

  // The table's per-link rows and the CSV carry the same ids, once each.
  const auto table = cli_run({"run", cfg});
  REQUIRE(table.code == 0);
  const auto csv = cli_run({"run", cfg, "--format", "csv"});
  REQUIRE(csv.code == 0);
  for (const auto& [id, n] : link_flows) {
    CHECK(table.out.find("\n" + id + " ") != std::string::npos);
    CHECK(csv.out.find("ecmp," + id + ",") != std::string::npos);
  }

  // --down takes an id as it is printed: that cable, both directions, and no other.
  const auto down = cli_run({"run", cfg, "--down", "leaf0->spine0#1", "--format", "json"});
  REQUIRE(down.code == 0);
  const auto down_json = nlohmann::json::parse(down.out);
  for (const auto& sc : down_json["scenarios"]) {
    if (sc["name"] != "ecmp+down") continue;
    std::set<std::string> failed;
    for (const auto& l : sc["links"])
      if (l.value("down", false)) failed.insert(l["id"].get<std::string>());
    CHECK(failed == std::set<std::string>{"leaf0->spine0#1", "spine0->leaf0#1"});
    for (const auto& f : sc["flows"])
      for (const auto& id : f["links"]) CHECK(failed.count(id.get<std::string>()) == 0);
  }
}

TEST_CASE("ecmpsim run --seed/--algo/--seed-mode: an error when no scenario hashes, applied when one does") {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string base = "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n";
  const std::string stat = (dir / "ecmpsim_static_only.toml").string();
  std::ofstream(stat) << base << "[[scenario]]\nname = \"t\"\nrouting = \"static\"\npolicy = \"dst-mod\"\n";
  for (const std::vector<std::string>& flag : std::vector<std::vector<std::string>>{
           {"--seed", "5"}, {"--algo", "xxh3"}, {"--seed-mode", "per-switch"}}) {
    CAPTURE(flag[0]);
    const auto r = cli_run({"run", stat, flag[0], flag[1]});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "ecmpsim: " + flag[0] + ": no scenario hashes ('t' is static), so " + flag[0] +
                       " would change nothing; add an ECMP scenario or drop the flag\n");
  }
  // Negative control: with an ECMP scenario beside the static one the seed reaches it.
  const std::string mixed = (dir / "ecmpsim_static_and_ecmp.toml").string();
  std::ofstream(mixed) << base << "[[scenario]]\nname = \"e\"\n[[scenario]]\nname = \"t\"\nrouting = \"static\"\npolicy = \"dst-mod\"\n";
  const auto ok = cli_run({"run", mixed, "--seed", "5", "--format", "json"});
  REQUIRE(ok.code == 0);
  CHECK(nlohmann::json::parse(ok.out)["scenarios"][0]["hash"]["seed"] == 5);
}

TEST_CASE("ecmpsim run: per-job slowdown shared and alone, in the JSON and the table") {
  // tests/model/prediction_test.cpp's two jobs whose rings share leaf0 <-> spine0:
  // each flow gets half the link together (slowdown 2) and all of it alone (1).
  const std::string cfg = (std::filesystem::temp_directory_path() / "ecmpsim_two_jobs.toml").string();
  std::ofstream(cfg) << "[fabric]\nleaves = 2\nspines = 1\nhosts_per_leaf = 2\nhost_speed_gbps = 100\n"
                        "fabric_speed_gbps = 100\n"
                        "[[job]]\nname = \"a\"\ncollective = \"ring-allreduce\"\nhosts = [\"host0\", \"host2\"]\n"
                        "message_bytes = \"1G\"\nchannels = 1\n"
                        "[[job]]\nname = \"b\"\ncollective = \"ring-allreduce\"\nhosts = [\"host1\", \"host3\"]\n"
                        "message_bytes = \"1G\"\nchannels = 1\n";
  const auto j = cli_run({"run", cfg, "--format", "json"});
  REQUIRE(j.code == 0);
  const auto jobs = nlohmann::json::parse(j.out)["scenarios"][0]["predicted"]["jobs"];
  REQUIRE(jobs.size() == 2);
  const double alone = 8.0 * 1073741824 / 100e9;
  for (const auto& job : jobs) {
    CHECK(job["slowdown"].get<double>() == doctest::Approx(2));
    CHECK(job["slowdown_alone"].get<double>() == doctest::Approx(1));
    CHECK(job["completion_alone_s"].get<double>() == doctest::Approx(alone));
    CHECK(job["completion_s"].get<double>() == doctest::Approx(2 * alone));
  }
  const auto t = cli_run({"run", cfg, "--format", "summary"});
  REQUIRE(t.code == 0);
  CHECK(t.out.find("a slowdown (shared)") != std::string::npos);
  CHECK(t.out.find("b slowdown alone") != std::string::npos);
  CHECK(t.out.find("include the other jobs' contention") != std::string::npos);
  // One job: no alone rows or keys (they would repeat the shared ones).
  const auto one = cli_run({"run", ECMPSIM_SOURCE_DIR "/configs/paper16.toml", "--format", "summary"});
  CHECK(one.out.find("alone") == std::string::npos);
}
}  // namespace run_command_test
