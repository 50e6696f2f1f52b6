// The report's charts: colours anchored to the mean, one-line notes for
// single-value distributions, markers clamped at the edge, and the
// switch x switch heatmap of large fabrics (sim/report/report_charts.h,
// report_heatmap.cpp).
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "sim/report/html.h"
#include "sim/report/report_charts.h"

namespace report_charts_test {

namespace {

using ecmpsim::html::css_colour;
using json = nlohmann::json;

const std::string kPaper = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";

std::string temp_config(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

json embedded_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"ecmpsim-data\">";
  const auto a = page.find(open);
  const auto b = page.find("</script>", a);
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

// The fabric figure of one scenario: from its caption to the end of the figure.
std::string figure(const std::string& page, const std::string& scenario) {
  const auto a = page.find("<figure class=\"fabric-figure\"><figcaption>" + scenario + " ");
  REQUIRE(a != std::string::npos);
  return page.substr(a, page.find("</figure>", a) - a);
}

// stroke colour per data-link of the link lines in `svg`.
std::map<std::string, std::string> link_strokes(const std::string& svg) {
  std::map<std::string, std::string> out;
  const std::regex line(R"re(<line class="link[^"]*"[^>]* stroke="(#[0-9a-f]{6})" data-link="([^"]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it) {
    std::string id = (*it)[2].str();  // escaped in the attribute: "leaf0-&gt;spine0"
    id.replace(id.find("&gt;"), 4, ">");
    out[id] = (*it)[1].str();
  }
  return out;
}

std::string leaf_spine(std::size_t leaves, std::size_t spines) {
  return "[fabric]\nleaves = " + std::to_string(leaves) + "\nspines = " + std::to_string(spines) +
         "\nhosts_per_leaf = 1\n[[scenario]]\nname = \"ecmp\"\n[scenario.hash]\nalgo = \"xxh3\"\n";
}

}  // namespace

TEST_CASE("load colours: the mean is neutral, below it blue, above it red (RdBu stops)") {
  using ecmpsim::html::load_colour;
  CHECK(load_colour(1, 2) == ecmpsim::html::kNeutral);
  CHECK(load_colour(1, 7.5) == ecmpsim::html::kNeutral);
  CHECK(css_colour(load_colour(0, 2)) == "#2166ac");
  CHECK(css_colour(load_colour(0.5, 2)) == "#67a9cf");
  CHECK(css_colour(load_colour(2, 2)) == "#67001f");
  CHECK(css_colour(load_colour(9, 2)) == "#67001f");  // clamped
  // top 4: ratio 2 is 1/3 of the way from the mean, the stop #ef8a62.
  CHECK(css_colour(load_colour(2, 4)) == "#ef8a62");
  // ratio 0.75: halfway between #67a9cf and kNeutral #8a939f:
  // r (103+138)/2 = 120.5 -> 121 = 79, g (169+147)/2 = 158 = 9e, b (207+159)/2 = 183 = b7.
  CHECK(css_colour(load_colour(0.75, 2)) == "#799eb7");
  const ecmpsim::report::LoadScale scale{4, 2};
  CHECK(scale.colour(4) == ecmpsim::html::kNeutral);
  CHECK(scale.colour(0) == ecmpsim::html::kIdle);
}

TEST_CASE("report: a perfectly balanced static table is drawn in the neutral colour, ECMP's hot link is not") {
  const auto r = cli_run({"report", kPaper, "--out", "-", "--seeds", "0:4"});
  REQUIRE(r.code == 0);
  const json data = embedded_data(r.out);
  // paper16's dst-mod table: every one of the 32 links carries the same flows (4).
  REQUIRE(data["scenarios"][1]["name"] == "static");
  std::set<std::uint64_t> counts;
  for (const json& l : data["scenarios"][1]["links"]) counts.insert(l["flows"].get<std::uint64_t>());
  REQUIRE(counts.size() == 1);
  const auto strokes = link_strokes(figure(r.out, "static"));
  REQUIRE(strokes.size() == 32);
  for (const auto& [link, colour] : strokes) {
    CAPTURE(link);
    CHECK(colour == css_colour(ecmpsim::html::kNeutral));
  }
  // Negative control: ECMP's busiest links (5 flows, mean 4) are red, its idle-free lighter ones blue.
  const auto ecmp = link_strokes(figure(r.out, "ecmp"));
  std::size_t warm = 0;
  for (const json& l : data["scenarios"][0]["links"]) {
    const auto rgb = ecmp.at(l["id"].get<std::string>());
    const int red = std::stoi(rgb.substr(1, 2), nullptr, 16), blue = std::stoi(rgb.substr(5, 2), nullptr, 16);
    if (l["flows"] == 5) {
      CHECK(red > blue);
      ++warm;
    }
    if (l["flows"] == 4) CHECK(rgb == css_colour(ecmpsim::html::kNeutral));
  }
  CHECK(warm > 0);
}

TEST_CASE("a single-value distribution is one line, not a one-bar histogram") {
  using ecmpsim::report::Marker;
  using ecmpsim::report::single_value_note;
  const std::vector<double> same{0.0625, 0.0625, 0.0625};
  const std::vector<Marker> markers{{0.0625, "best", ecmpsim::html::kBest, false},
                                    {0, "static: 0.0000", ecmpsim::html::kRef, false}};
  CHECK(single_value_note(same, "FIM (flows)", markers) ==
        "<p class=\"note single-value\">All 3 variants have FIM (flows) 0.0625: a single value, so no histogram or "
        "CDF is drawn (static: 0.0000).</p>\n");
  const std::vector<double> one{2.5};
  CHECK(single_value_note(one, "slowdown", {}).find("The one variant has slowdown 2.5000") != std::string::npos);
  const std::vector<double> two{0.0625, 0.125};
  CHECK(single_value_note(two, "FIM", markers).empty());
  // In the report: paper16's CRC-16 gives every seed FIM 0.0625 (docs/walkthrough.md): no FIM charts.
  const auto r = cli_run({"report", kPaper, "--out", "-", "--seeds", "0:8"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("All 8 variants have FIM (flows) 0.0625: a single value") != std::string::npos);
  CHECK(r.out.find("class=\"hist-bars\"") == std::string::npos);
  // Negative control: xxh3 mixes its seed, so its FIMs differ and the charts are drawn.
  std::ifstream in(kPaper);
  std::string paper((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = paper.find("algo = \"crc16-ccitt\"");
  REQUIRE(at != std::string::npos);
  paper.replace(at, std::string("algo = \"crc16-ccitt\"").size(), "algo = \"xxh3\"");
  const std::string cfg = temp_config("ecmpsim_charts_xxh3.toml", paper);
  const auto x = cli_run({"report", cfg, "--out", "-", "--seeds", "0:64"});
  REQUIRE(x.code == 0);
  CHECK(x.out.find("single-value") == std::string::npos);
  CHECK(x.out.find("class=\"hist-bars\"") != std::string::npos);
  // ... and the static slowdown (1: the dst-mod table is balanced) lies below every
  // ECMP seed's, so its marker sits at the chart's left edge, labelled so.
  const json data = embedded_data(x.out);
  REQUIRE(data["scenarios"][1]["predicted"]["slowdown"] == 1.0);
  const json& slowdown = data["sweeps"][0]["metrics"]["slowdown"];
  // The chart's axis runs over nice ticks around the seeds' range (1.5 to 2.75 here), above 1.
  REQUIRE(ecmpsim::html::nice_ticks(slowdown["min"], slowdown["max"], 6).front() > 1.0);
  CHECK(x.out.find("\u25c0 static: 1.0000 (off scale)") != std::string::npos);
}

TEST_CASE("a clamped marker off the values' range sits at the nearer edge; an unclamped one widens the axis") {
  using ecmpsim::report::Marker;
  const std::vector<double> v{1.1, 1.2, 1.3, 1.2};
  // Frame: x from 56 to 560 - 18 = 542 px (report_charts.cpp).
  const std::vector<Marker> above{{2.0, "static: 2.0000", ecmpsim::html::kRef, true}};
  const std::string a = ecmpsim::report::histogram_svg(v, "slowdown", above);
  CHECK(a.find("static: 2.0000 (off scale) \u25b6") != std::string::npos);
  CHECK(a.find("<g class=\"marker off-scale\"><line x1=\"542.0\"") != std::string::npos);
  const std::vector<Marker> below{{0.5, "static: 0.5000", ecmpsim::html::kRef, true}};
  const std::string b = ecmpsim::report::cdf_svg(v, "slowdown", below);
  CHECK(b.find("\u25c0 static: 0.5000 (off scale)") != std::string::npos);
  CHECK(b.find("<g class=\"marker off-scale\"><line x1=\"56.0\"") != std::string::npos);
  // Negative control: the same marker unclamped stretches the axis to 2 and is drawn there, unlabelled as off.
  std::vector<Marker> wide = above;
  wide[0].clamp = false;
  const std::string w = ecmpsim::report::histogram_svg(v, "slowdown", wide);
  CHECK(w.find("off scale") == std::string::npos);
  CHECK(w.find("<g class=\"marker\"><line x1=\"542.0\"") != std::string::npos);  // 2.0 is the last tick
  const std::string x_tick_2 = "text-anchor=\"middle\" class=\"tick-label\">2.0</text>";
  CHECK(w.find(x_tick_2) != std::string::npos);
  CHECK(a.find(x_tick_2) == std::string::npos);
}

TEST_CASE("report: more than kHeatmapSwitches switches draw a labelled switch x switch heatmap") {
  static_assert(ecmpsim::report::kHeatmapSwitches == 20);
  // 17 leaves + 4 spines = 21 switches: a heatmap with a row and a column per switch.
  const auto big = cli_run({"report", temp_config("ecmpsim_heatmap21.toml", leaf_spine(17, 4)), "--out", "-",
                            "--seeds", "0:2"});
  REQUIRE(big.code == 0);
  const std::string fig = figure(big.out, "ecmp");
  CHECK(fig.find("class=\"heatmap\"") != std::string::npos);
  CHECK(fig.find("<g class=\"switch\">") == std::string::npos);
  std::vector<std::string> names;
  for (int s = 0; s < 4; ++s) names.push_back("spine" + std::to_string(s));
  for (int l = 0; l < 17; ++l) names.push_back("leaf" + std::to_string(l));
  for (const std::string& n : names) {
    CAPTURE(n);
    CHECK(fig.find("class=\"hm-row\" style=\"font-size:11.0px\">" + n + "</text>") != std::string::npos);
    const std::regex col("class=\"hm-col\"[^>]*>" + n + "</text>");
    CHECK(std::regex_search(fig, col));
  }
  // One cell per directed leaf-spine pair (17 x 4 x 2), each carrying run's count for that link.
  const json data = embedded_data(big.out);
  const std::regex cell(R"re(<g class="hm-cell" data-from="([^"]+)" data-to="([^"]+)" data-flows="([0-9]+)")re");
  std::size_t cells = 0;
  for (auto it = std::sregex_iterator(fig.begin(), fig.end(), cell); it != std::sregex_iterator(); ++it, ++cells) {
    const std::string id = (*it)[1].str() + "->" + (*it)[2].str();
    bool found = false;
    for (const json& l : data["scenarios"][0]["links"])
      if (l["id"] == id) {
        CHECK(std::stoull((*it)[3].str()) == l["flows"].get<std::uint64_t>());
        found = true;
      }
    CHECK(found);
  }
  CHECK(cells == 17u * 4 * 2);
  // Negative control: 16 leaves + 4 spines = 20 switches are still drawn box by box.
  const auto small = cli_run({"report", temp_config("ecmpsim_heatmap20.toml", leaf_spine(16, 4)), "--out", "-",
                              "--seeds", "0:2"});
  REQUIRE(small.code == 0);
  const std::string drawn = figure(small.out, "ecmp");
  CHECK(drawn.find("class=\"heatmap\"") == std::string::npos);
  CHECK(drawn.find("<g class=\"switch\">") != std::string::npos);
}
}  // namespace report_charts_test
