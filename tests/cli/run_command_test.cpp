#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
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
