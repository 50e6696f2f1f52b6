// docs/published.md is the catalogue measured on this commit: every
// experiment run on its shipped config and rendered must equal the committed
// page (`cmake --build build --target docs` rewrites it). The page holds each
// experiment's numbers (the distribution, the axes' effects, the verdict), so
// this is their golden: a change of the model, a config or a row shows here.
// The same results render `report --published`, checked for its sections.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "sim/app/catalogue.h"
#include "sim/report/published.h"

namespace published_docs_test {

using namespace ecmpsim;

TEST_CASE("docs/published.md equals the catalogue measured now") {
  std::ifstream in(std::string(ECMPSIM_SOURCE_DIR) + "/docs/published.md", std::ios::binary);
  std::ostringstream committed;
  committed << in.rdbuf();
  const std::vector<PublishedResult> results = app::run_catalogue(ECMPSIM_SOURCE_DIR);
  REQUIRE(results.size() == published_experiments().size());
  const std::string page = published_page(results);
  // The first differing line, for the failure message.
  std::istringstream a(committed.str()), b(page);
  std::string la, lb;
  std::size_t line = 0;
  while (true) {
    ++line;
    const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) break;
    INFO("docs/published.md line " << line << " (cmake --build build --target docs regenerates it)");
    REQUIRE(la == lb);
    if (!ga || !gb) break;
  }
  CHECK(committed.str() == page);

  // `report --published`: the index and a section per experiment, the
  // published figure marked on its distribution.
  const std::string html = published_html(results);
  CHECK(html.find("id=\"index\"") != std::string::npos);
  for (const PublishedResult& r : results) {
    CAPTURE(r.experiment->name);
    CHECK(html.find("<section id=\"" + std::string(r.experiment->name) + "\"") != std::string::npos);
    CHECK(html.find("published: " + published_value(r.experiment->metric, r.experiment->published)) !=
          std::string::npos);
  }
}

}  // namespace published_docs_test
