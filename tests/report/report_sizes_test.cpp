// The report's message-size section (sim/report/report_sizes.h): present
// exactly when a size table is asked for, its embedded rows `run`'s own,
// one busbw-vs-size line per scenario plus the ideal fabric's.
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace report_sizes_test {

namespace {

using json = nlohmann::json;

const std::string kPaper = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";

json embedded(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"ecmpsim-data\">";
  const auto a = page.find(open);
  const auto b = page.find("</script>", a);
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

}  // namespace

TEST_CASE("report -b -e: run's size rows embedded, a busbw line per scenario and the ideal") {
  const CliResult page = cli_run({"report", kPaper, "--seeds", "0:4", "-b", "8", "-e", "16G", "--stepfactor", "16",
                                  "--out", "-"});
  REQUIRE(page.code == 0);
  const CliResult run = cli_run({"run", kPaper, "-b", "8", "-e", "16G", "--stepfactor", "16", "--format", "json"});
  REQUIRE(run.code == 0);
  const json data = embedded(page.out), doc = json::parse(run.out);
  REQUIRE(data["scenarios"].size() == doc["scenarios"].size());
  for (std::size_t i = 0; i < doc["scenarios"].size(); ++i) {
    CHECK(data["scenarios"][i]["sizes"] == doc["scenarios"][i]["sizes"]);
    CHECK(data["scenarios"][i]["sizes"].size() == 8);  // 2^3, 2^7, ..., 2^31: the next, 2^35, is past 16 GiB
  }
  CHECK(page.out.find("<section id=\"sizes\">") != std::string::npos);
  CHECK(page.out.find("<a href=\"#sizes\">Sizes</a>") != std::string::npos);
  CHECK(page.out.find(" -b 8 -e 17179869184 --stepfactor 16") != std::string::npos);  // the command shown
  const std::regex series(R"re(<g class="busbw-series" data-series="([^"]*)"><title>[^<]*</title><path d="([^"]*)")re");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(page.out.begin(), page.out.end(), series); it != std::sregex_iterator(); ++it) {
    names.push_back((*it)[1].str());
    const std::string d = (*it)[2].str();
    CHECK(std::count(d.begin(), d.end(), 'L') == 7);  // eight points
  }
  CHECK(names == std::vector<std::string>{"ecmp", "static", "ideal fabric"});
  // The ECMP line lies below the static one at 2 GiB (its collisions cost
  // there), and both meet at 8 B, where latency rules.
  const auto& ecmp = doc["scenarios"][0]["sizes"];
  const auto& stat = doc["scenarios"][1]["sizes"];
  CHECK(ecmp[7]["busbw_gbs"].get<double>() < stat[7]["busbw_gbs"].get<double>());
  CHECK(ecmp[0]["time_us"].get<double>() == doctest::Approx(stat[0]["time_us"].get<double>()).epsilon(1e-3));
}

TEST_CASE("without sizes the report has no size section and no sizes key (negative control)") {
  const CliResult page = cli_run({"report", kPaper, "--seeds", "0:4", "--out", "-"});
  REQUIRE(page.code == 0);
  CHECK(page.out.find("id=\"sizes\"") == std::string::npos);
  CHECK(page.out.find("busbw-series") == std::string::npos);
  CHECK_FALSE(embedded(page.out)["scenarios"][0].contains("sizes"));
  const CliResult bad = cli_run({"report", kPaper, "--seeds", "0:4", "-b", "8", "--out", "-"});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err.find("--maxbytes") != std::string::npos);
}

}  // namespace report_sizes_test
