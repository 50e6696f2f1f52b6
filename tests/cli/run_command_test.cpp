#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>


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
