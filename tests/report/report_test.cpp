#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <vector>

#include "sim/cli/cli.h"
#include "sim/config/config.h"
#include "sim/config/overrides.h"
#include "sim/sweep/sweep.h"
#include "sim/report/html.h"
#include "sim/report/report.h"
#include "sim/model/simulation.h"

namespace report_test {

namespace {

using json = nlohmann::json;

struct Result {
  int code;
  std::string out, err;
};

Result cli(std::vector<std::string> args) {
  args.insert(args.begin(), "ecmpsim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = ecmpsim::cli::run(static_cast<int>(argv.size()), argv.data(), {out, err});
  return {code, out.str(), err.str()};
}

const std::string kPaper = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";

json embedded_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"ecmpsim-data\">";
  const auto a = page.find(open);
  REQUIRE(a != std::string::npos);
  const auto b = page.find("</script>", a);
  REQUIRE(b != std::string::npos);
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

std::string temp_config(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("html::escape makes text safe in elements and attributes") {
  CHECK(ecmpsim::html::escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(ecmpsim::html::escape("leaf0->spine1") == "leaf0-&gt;spine1");
}

TEST_CASE("nice axis ticks: steps of 1, 2 or 5 x 10^k covering the range") {
  // (7 - 0) / 5 = 1.4 -> the next of 1, 2, 5 is 2.
  CHECK(ecmpsim::html::nice_ticks(0, 7, 5) == std::vector<double>{0, 2, 4, 6, 8});
  // (0.37 - 0.11) / 6 = 0.0433 -> 0.05; from floor(0.11 / 0.05) * 0.05 = 0.10 to 0.40.
  const auto t = ecmpsim::html::nice_ticks(0.11, 0.37, 6);
  REQUIRE(t.size() == 7);
  CHECK(t.front() == doctest::Approx(0.10));
  CHECK(t.back() == doctest::Approx(0.40));
  CHECK(ecmpsim::html::tick_digits(0.05) == 2);
  CHECK(ecmpsim::html::tick_digits(2) == 0);
}

TEST_CASE("report and reproduce take the sweep's A:B[:STEP] seed grammar") {
  const Result r = cli({"report", kPaper, "--out", "-", "--seeds", "0:40:2"});
  REQUIRE(r.code == 0);
  const json data = embedded_data(r.out);
  CHECK(data["sweeps"][0]["seeds"] == "0:40:2");
  CHECK(data["sweeps"][0]["samples"] == 20);
  const Result p = cli({"reproduce", kPaper, "--seeds", "0:40:2", "--out", "/dev/null"});
  REQUIRE(p.code == 0);
  CHECK(p.out.find("seeds 0:40:2 (20)") != std::string::npos);
}

TEST_CASE("sweep_seeds equals a fresh simulation per seed, through `run --seed`'s overrides") {
  // The fat-tree golden: per-tier hashes (its spines set their own seed), so the
  // swept seed must reach every switch the way `ecmpsim run --seed` does.
  const ecmpsim::Spec spec = ecmpsim::load_config(std::string(ECMPSIM_SOURCE_DIR) + "/tests/golden/fattree.toml");
  const auto d = ecmpsim::sweep_seeds(spec, spec.scenarios[0], {3, 9, 1}, 2);
  REQUIRE(d.values.size() == 6);
  for (std::uint32_t seed = 3; seed < 9; ++seed) {
    ecmpsim::Spec s = spec;
    ecmpsim::Overrides o;
    o.seed = seed;
    ecmpsim::apply_overrides(s, o);
    const ecmpsim::Simulation one(s);
    const auto r = one.run(one.spec().scenarios[0]);
    CAPTURE(seed);
    CHECK(d.values[seed - 3][0] == r.flows.fim);
    CHECK(d.values[seed - 3][1] == r.flows.max_mean);
    CHECK(d.values[seed - 3][5] == r.predicted.all.slowdown);
  }
  const auto fim = d.column(ecmpsim::SweepMetric::Fim);
  CHECK(fim[d.summary.best] == *std::min_element(fim.begin(), fim.end()));
  CHECK(fim[d.summary.worst] == *std::max_element(fim.begin(), fim.end()));
}

TEST_CASE("the report's embedded numbers equal `ecmpsim run --format json` for the same config") {
  const Result run = cli({"run", kPaper, "--format", "json"});
  REQUIRE(run.code == 0);
  const Result rep = cli({"report", kPaper, "--out", "-", "--seeds", "0:64"});
  REQUIRE(rep.code == 0);
  CHECK(rep.err.empty());
  const json expected = json::parse(run.out);
  const json data = embedded_data(rep.out);
  CHECK(data["fabric"] == expected["fabric"]);
  CHECK(data["workload"]["flows"] == expected["workload"]["flows"]);
  CHECK(data["workload"]["bytes"] == expected["workload"]["bytes"]);
  REQUIRE(data["scenarios"].size() == expected["scenarios"].size());
  for (std::size_t i = 0; i < expected["scenarios"].size(); ++i) {
    const json& e = expected["scenarios"][i];
    const json& d = data["scenarios"][i];
    CHECK(d["name"] == e["name"]);
    for (const auto& item : e["metrics"].items()) {
      const std::string key = item.key();
      CAPTURE(key);
      CHECK(d["metrics"][key] == item.value());
    }
    CHECK(d["links"] == e["links"]);
    CHECK(d["collisions"] == e["collisions"]);
    for (const char* key : {"completion_s", "ideal_s", "slowdown", "busbw_gbps", "algbw_gbps"}) {
      CAPTURE(key);
      CHECK(d["predicted"][key] == e["predicted"][key]);
    }
    // The hottest link: the most flows among run's links; its five-tuples
    // are exactly the flows whose path crosses it.
    const json& hot = d["hottest"];
    std::uint64_t most = 0;
    for (const json& l : e["links"]) most = std::max<std::uint64_t>(most, l["flows"]);
    CHECK(hot["flows"] == most);
    json tuples = json::array();
    for (const json& f : e["flows"]) {
      const auto& p = f["path"];
      for (std::size_t h = 0; h + 1 < p.size(); ++h)
        if (p[h] == hot["from"] && p[h + 1] == hot["to"])
          tuples.push_back({{"src_ip", f["src_ip"]}, {"dst_ip", f["dst_ip"]}, {"proto", f["proto"]},
                            {"sport", f["sport"]}, {"dport", f["dport"]}});
    }
    CHECK(hot["five_tuples"] == tuples);
    CHECK(tuples.size() == most);
    // The comparison table shows the same values (data-value holds the exact number).
    const std::regex cell("data-scenario=\"" + e["name"].get<std::string>() +
                          "\" data-metric=\"by flow count/FIM\" data-value=\"([^\"]+)\"");
    std::smatch m;
    REQUIRE(std::regex_search(rep.out, m, cell));
    CHECK(std::stod(m[1]) == e["metrics"]["fim"].get<double>());
    const std::regex slow("data-scenario=\"" + e["name"].get<std::string>() +
                          "\" data-metric=\"predicted \\(max-min fair flow model\\)/slowdown\" data-value=\"([^\"]+)\"");
    REQUIRE(std::regex_search(rep.out, m, slow));
    CHECK(std::stod(m[1]) == e["predicted"]["slowdown"].get<double>());
  }
  // The sweep's FIM summary over seeds 0..63, recomputed from single runs.
  ecmpsim::Spec spec = ecmpsim::load_config(kPaper);
  double lo = 1e9, hi = -1, sum = 0;
  for (std::uint32_t seed = 0; seed < 64; ++seed) {
    spec.scenarios[0].hash.seed = seed;
    const ecmpsim::Simulation sim(spec);
    const double fim = sim.run(sim.spec().scenarios[0]).flows.fim;
    lo = std::min(lo, fim);
    hi = std::max(hi, fim);
    sum += fim;
  }
  REQUIRE(data["sweeps"].size() == 1);  // paper16's one ECMP scenario
  const json& fim = data["sweeps"][0]["metrics"]["fim"];
  CHECK(data["sweeps"][0]["samples"] == 64);
  CHECK(fim["min"].get<double>() == lo);
  CHECK(fim["max"].get<double>() == hi);
  CHECK(fim["mean"].get<double>() == doctest::Approx(sum / 64).epsilon(1e-12));
  // The FlowTracer reduction as defined: 1 - FIM_static / mean FIM_ecmp.
  const double static_fim = expected["scenarios"][1]["metrics"]["fim"];
  CHECK(data["flowtracer"]["reduction_vs_mean"].get<double>() ==
        doctest::Approx(1 - static_fim / fim["mean"].get<double>()).epsilon(1e-12));
}

TEST_CASE("names from the config are escaped in the page and in its JSON") {
  const std::string cfg = temp_config("ecmpsim_report_escape.toml",
                                      "[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n"
                                      "[[scenario]]\nname = \"a</script><b>&'\"\n");
  const Result r = cli({"report", cfg, "--out", "-", "--seeds", "0:4"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("<b>&") == std::string::npos);
  CHECK(r.out.find("a&lt;/script&gt;&lt;b&gt;&amp;&#39;") != std::string::npos);
  CHECK(embedded_data(r.out)["scenarios"][0]["name"] == "a</script><b>&'");
}

TEST_CASE("report: host names too long for their box and without a digit are drawn without a label") {
  // Once an internal error: the label was cut at its first digit, and these have none.
  const std::string topo = temp_config("ecmpsim_report_names.csv",
                                       "node,north,spine\nnode,east,leaf\nnode,west,leaf\n"
                                       "node,alpha-compute-node-with-a-long-name,host\n"
                                       "node,bravo-compute-node-with-a-long-name,host\n"
                                       "link,north,east,400\nlink,north,west,400\n"
                                       "link,alpha-compute-node-with-a-long-name,east,400\n"
                                       "link,bravo-compute-node-with-a-long-name,west,400\n");
  const std::string cfg = temp_config("ecmpsim_report_names.toml", "[fabric]\nkind = \"file\"\nfile = \"" + topo + "\"\n");
  const Result r = cli({"report", cfg, "--out", "-", "--seeds", "0:2"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("<title>alpha-compute-node-with-a-long-name</title>") != std::string::npos);
}

TEST_CASE("report: bad input is one line, exit 2, nothing on stdout and no file") {
  const auto out = std::filesystem::temp_directory_path() / "ecmpsim_report_bad.html";
  std::filesystem::remove(out);
  const Result r = cli({"report", kPaper, "--out", out.string(), "--seeds", "9:3"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("--seeds") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(!std::filesystem::exists(out));
  const Result missing = cli({"report", "/nonexistent/x.toml", "--out", out.string()});
  CHECK(missing.code == 2);
  CHECK(missing.out.empty());
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("report --emulation: measured emulation runs beside the prediction") {
  // A hand-written emulate --measure-time result: two flows, one finishing 10% late, the other 30% early.
  const std::string run = temp_config(
      "ecmpsim_report_emulation.json",
      R"({"config": "configs/paper16.toml", "scenario": "static", "predicted_scenario": "static", "flows": 2,
          "paths_agree": 2, "slowdown_measured": 1.05, "slowdown_predicted": 1.0, "completion_measured_s": 0.0422,
          "completion_predicted_s": 0.0402, "relative_error": 0.05, "time_agree": true,
          "time": {"scale_text": "1/40000", "queue": "fair", "congestion": "cubic", "ring_steps": false},
          "flow_paths": [{"finish_predicted_s": 0.04, "finish_measured_s": 0.044},
                         {"finish_predicted_s": 0.02, "finish_measured_s": 0.014}]})");
  const Result r = cli({"report", kPaper, "--out", "-", "--seeds", "0:2", "--emulation", run});
  REQUIRE(r.code == 0);
  const auto a = r.out.find("<section id=\"emulation\">");
  REQUIRE(a != std::string::npos);
  const std::string sec = r.out.substr(a, r.out.find("</section>", a) - a);
  CHECK(sec.find("<td>1/40000, fair, cubic</td>") != std::string::npos);
  CHECK(sec.find("<td>40.200</td><td>42.200</td><td>1.0000</td><td class=\"best\" data-value=\"1.05\">1.0500</td>"
                 "<td>+5.0%</td>") != std::string::npos);
  // Flow errors +10% and -30%: the median of two is the upper one, the worst the larger in size.
  CHECK(sec.find("<td>+10.0% / -30.0%</td>") != std::string::npos);
  // The report's own prediction of paper16's static scenario: slowdown 1.
  CHECK(sec.find("<td>1.0000</td></tr>") != std::string::npos);
  const json data = embedded_data(r.out);
  REQUIRE(data["emulation"].size() == 1);
  CHECK(data["emulation"][0]["slowdown_measured"] == 1.05);
  CHECK(data["emulation"][0]["relative_error"] == 0.05);
  // Not an emulation result: bad input naming the file.
  const std::string other = temp_config("ecmpsim_report_not_emulation.json", R"({"flows": 3})");
  const Result bad = cli({"report", kPaper, "--out", "-", "--emulation", other});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
  CHECK(bad.err == "ecmpsim: " + other + ": --emulation: no \"slowdown_measured\": not the JSON of `ecmpsim emulate "
                   "--measure-time`\n");
}

TEST_CASE("reproduce: the table and assumptions follow the config, and the report is written") {
  // 3 leaves x 2 hosts, 2 spines at 100 Gb/s: per leaf 200 Gb/s down and 200 up.
  const std::string cfg =
      temp_config("ecmpsim_reproduce.toml",
                  "[fabric]\nleaves = 3\nspines = 2\nhosts_per_leaf = 2\nhost_speed_gbps = 100\n"
                  "fabric_speed_gbps = 100\n[workload]\nplacement = \"strided\"\nmessage_bytes = \"512MiB\"\n"
                  "channels = 2\nqps_per_connection = 3\n[[scenario]]\nname = \"e\"\n[scenario.hash]\nseed = 5\n"
                  "[[scenario]]\nname = \"s\"\nrouting = \"static\"\npolicy = \"dst-mod\"\n");
  const auto out = std::filesystem::temp_directory_path() / "ecmpsim_reproduce.html";
  std::filesystem::remove(out);
  const Result r = cli({"reproduce", "--config", cfg, "--seeds", "0:20", "--out", out.string()});
  REQUIRE(r.code == 0);
  CHECK(std::filesystem::exists(out));
  const Result run = cli({"run", cfg, "--format", "json"});
  const json e = json::parse(run.out);
  char fim[32];
  std::snprintf(fim, sizeof fim, "%.4f", e["scenarios"][1]["metrics"]["fim"].get<double>());
  CHECK(r.out.find("static 's'") != std::string::npos);
  CHECK(r.out.find(fim) != std::string::npos);
  CHECK(r.out.find("seeds 0:20 (20)") != std::string::npos);
  CHECK(r.out.find("30.0 %") != std::string::npos);
  for (const char* a : {"3 leaves x 2 hosts (6 hosts), 2 spines", "200 Gb/s down, 200 Gb/s up: oversubscription 1:1",
                        "S = 512 MiB (536870912 bytes)", "2 NCCL channels", "3 QPs per connection",
                        "crc16-ccitt over (src-ip, dst-ip, proto, src-port, dst-port), seed 5", "dst-mod"}) {
    CAPTURE(a);
    CHECK(r.out.find(a) != std::string::npos);
  }
  // Without a static scenario there is nothing to compare.
  const std::string only_ecmp = temp_config("ecmpsim_reproduce_ecmp.toml", "[[scenario]]\nname = \"e\"\n");
  const Result bad = cli({"reproduce", "--config", only_ecmp, "--out", out.string()});
  CHECK(bad.code == 2);
  CHECK(bad.out.empty());
}
}  // namespace report_test
