// Sweep, report and reproduce on an IPv6 config (issue 23, item 5), checked
// against expectations that do not come from the IPv6 code path:
//  - paper16 with a hash that reads no address (proto and ports) must give
//    the IPv4 fabric's numbers exactly on the IPv6 plan: the addresses are the
//    only difference, and nothing that reads them is in the loop;
//  - with addresses in the key the two differ (the negative control: the
//    comparison above could not pass by ignoring the config);
//  - CRC-16 with modulo over 4-member groups: a seed XORs one constant into
//    every hash, which renames members, so every seed gives the same metrics,
//    on 37-byte IPv6 keys as on IPv4 ones;
//  - the static dst-mod table reads no address: IPv6 and IPv4 alike;
//  - endpoints are numbered by the plan: leaf t's hosts are fd00:: + 256 t + 1, + 2, ...
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ipv6_commands_test {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kPaper16v6 = ECMPSIM_SOURCE_DIR "/configs/paper16-ipv6.toml";
const std::string kPaper16 = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) s.replace(at, from.size(), to);
  return s;
}

// paper16-ipv6 and its IPv4 twin (the same file with address_base 10.0.0.0),
// both hashing `fields`, written to a fresh directory.
struct Twins {
  fs::path dir;
  std::string v4, v6;
};

Twins twins(const std::string& name, const std::string& fields) {
  Twins t;
  t.dir = fs::temp_directory_path() / ("ecmpsim_ipv6_" + name);
  fs::remove_all(t.dir);
  fs::create_directories(t.dir);
  const std::string v6 = replaced(slurp(kPaper16v6), "fields = [\"src-ip\", \"dst-ip\", \"proto\", \"src-port\", \"dst-port\"]",
                                  "fields = [" + fields + "]");
  t.v6 = (t.dir / "v6.toml").string();
  t.v4 = (t.dir / "v4.toml").string();
  std::ofstream(t.v6) << v6;
  std::ofstream(t.v4) << replaced(v6, "address_base = \"fd00::\"", "address_base = \"10.0.0.0\"");
  return t;
}

const std::string kBlind = "\"proto\", \"src-port\", \"dst-port\"";
const std::string kFive = "\"src-ip\", \"dst-ip\", \"proto\", \"src-port\", \"dst-port\"";

CliResult ok(std::vector<std::string> args) {
  CliResult r = cli_run(std::move(args));
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  return r;
}

}  // namespace

TEST_CASE("ipv6 sweep: an address-blind hash gives paper16's IPv4 numbers exactly; with addresses it does not") {
  const Twins t = twins("sweep", kBlind);
  for (const char* format : {"table", "json", "csv"}) {
    CAPTURE(format);
    const std::vector<std::string> axes{"--seeds", "0:300", "--algos", "xxh3,crc32", "--qps", "1,2", "--format", format};
    std::vector<std::string> a4{"sweep", t.v4}, a6{"sweep", t.v6};
    a4.insert(a4.end(), axes.begin(), axes.end());
    a6.insert(a6.end(), axes.begin(), axes.end());
    const std::string out4 = ok(a4).out, out6 = ok(a6).out;
    CHECK(replace_all(out6, t.v6, "CFG") == replace_all(out4, t.v4, "CFG"));
  }
  // The sweep varies (xxh3 mixes its seed), so the equality above compares distributions, not constants.
  const json doc = json::parse(ok({"sweep", t.v6, "--seeds", "0:300", "--algos", "xxh3", "--format", "json"}).out);
  CHECK(doc["metrics"]["fim"]["min"].get<double>() < doc["metrics"]["fim"]["max"].get<double>());
  // Negative control: hashing the addresses, the IPv6 fabric's distribution differs from IPv4's.
  const Twins five = twins("sweep5", kFive);
  const std::vector<std::string> axes{"--seeds", "0:300", "--algos", "xxh3", "--format", "json"};
  std::vector<std::string> a4{"sweep", five.v4}, a6{"sweep", five.v6};
  a4.insert(a4.end(), axes.begin(), axes.end());
  a6.insert(a6.end(), axes.begin(), axes.end());
  const json d4 = json::parse(ok(a4).out), d6 = json::parse(ok(a6).out);
  CHECK(d4["metrics"]["fim"] != d6["metrics"]["fim"]);
  fs::remove_all(t.dir);
  fs::remove_all(five.dir);
}

TEST_CASE("ipv6 sweep: CRC-16 seeds rename 4-member groups on IPv6 keys too; xxh3 seeds do not") {
  const json crc = json::parse(ok({"sweep", kPaper16v6, "--seeds", "0:200", "--format", "json"}).out);
  CHECK(crc["variants"] == 200);
  for (const char* m : {"fim", "max_mean", "slowdown"}) {
    CAPTURE(m);
    CHECK(crc["metrics"][m]["min"] == crc["metrics"][m]["max"]);
  }
  const json xxh = json::parse(ok({"sweep", kPaper16v6, "--seeds", "0:200", "--algos", "xxh3", "--format", "json"}).out);
  CHECK(xxh["metrics"]["fim"]["min"].get<double>() < xxh["metrics"]["fim"]["max"].get<double>());
}

TEST_CASE("ipv6 run: plan addresses on every flow; the static table's metrics equal IPv4's") {
  const json v6 = json::parse(ok({"run", kPaper16v6, "--format", "json"}).out);
  const json v4 = json::parse(ok({"run", kPaper16, "--format", "json"}).out);
  const json& flows = v6["scenarios"][0]["flows"];
  REQUIRE(flows.size() == 64);
  // host i (strided placement) sits on leaf i / 4 at position i % 4: fd00:: + 256 (i / 4) + i % 4 + 1.
  auto address = [](unsigned host) {
    std::ostringstream s;
    s << "fd00::" << std::hex << (256 * (host / 4) + host % 4 + 1);
    return s.str();
  };
  for (const json& f : flows) {
    const std::string src = f["path"].front(), dst = f["path"].back();  // "host5"
    CAPTURE(src);
    CHECK(f["src_ip"] == address(static_cast<unsigned>(std::stoul(src.substr(4)))));
    CHECK(f["dst_ip"] == address(static_cast<unsigned>(std::stoul(dst.substr(4)))));
    // The label the kernel derives from the QP pair (rdma_calc_flow_label, include/rdma/ib_verbs.h).
    std::uint64_t v = f["lqpn"].get<std::uint64_t>() * f["rqpn"].get<std::uint64_t>();
    v ^= v >> 20;
    v ^= v >> 40;
    CHECK(f["flow_label"] == (v & 0xFFFFF));
  }
  // IPv4 packets carry no label: the IPv4 run has no such key (negative control).
  CHECK_FALSE(v4["scenarios"][0]["flows"][0].contains("flow_label"));
  REQUIRE(v6["scenarios"][1]["name"] == "static");
  CHECK(v6["scenarios"][1]["metrics"] == v4["scenarios"][1]["metrics"]);
  CHECK(v6["scenarios"][1]["predicted"] == v4["scenarios"][1]["predicted"]);
}

TEST_CASE("ipv6 report and reproduce: an address-blind hash reproduces IPv4's comparison; the page shows IPv6") {
  const Twins t = twins("report", kBlind);
  const std::string page4 = (t.dir / "r4.html").string(), page6 = (t.dir / "r6.html").string();
  const CliResult r4 = ok({"reproduce", t.v4, "--seeds", "0:50", "--out", page4});
  const CliResult r6 = ok({"reproduce", t.v6, "--seeds", "0:50", "--out", page6});
  // Everything but the config's name, the address plan's line and the page's name is the same.
  auto normal = [&](std::string s) {
    s = replace_all(s, t.v4, "CFG");
    s = replace_all(s, t.v6, "CFG");
    s = replace_all(s, page4, "PAGE");
    s = replace_all(s, page6, "PAGE");
    return replace_all(s, "addresses from 10.0.0.0,", "addresses from fd00::,");
  };
  CHECK(r6.out.find("addresses from fd00::, a block per ToR") != std::string::npos);
  CHECK(normal(r6.out) == normal(r4.out));
  // The page: the five-tuples of the hottest link carry the plan's IPv6 addresses.
  const std::string html = slurp(page6);
  CHECK(html.find("fd00::101") != std::string::npos);
  CHECK(html.find("10.0.1.1") == std::string::npos);
  CHECK(slurp(page4).find("10.0.1.1") != std::string::npos);  // negative control: the IPv4 page names its own
  // The report command: the same seed distribution as IPv4's (from the embedded sweep).
  const std::string rep6 = ok({"report", t.v6, "--seeds", "0:50", "--out", "-"}).out;
  const std::string rep4 = ok({"report", t.v4, "--seeds", "0:50", "--out", "-"}).out;
  auto sweeps = [](const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"ecmpsim-data\">";
    const auto start = page.find(open);
    REQUIRE(start != std::string::npos);
    const auto from = start + open.size();
    return json::parse(page.substr(from, page.find("</script>", from) - from))["sweeps"];
  };
  CHECK(sweeps(rep6) == sweeps(rep4));
  CHECK(sweeps(rep6)[0]["samples"] == 50);
  fs::remove_all(t.dir);
}

TEST_CASE("ipv6 fit: observations written by hash --tuples (IPv6 with flow labels) give back the hidden seed") {
  const fs::path dir = fs::temp_directory_path() / "ecmpsim_ipv6_fit";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string tuples = "src,dst,proto,sport,dport,flow_label\n";
  for (unsigned i = 0; i < 150; ++i) {
    const unsigned x = (i + 1) * 2654435761u;
    std::ostringstream row;
    row << std::hex << "fd00::" << (1 + x % 4) * 256 + (x >> 8) % 250 << ",fd00::1:" << (x >> 16) % 1000 << std::dec
        << ",17," << 49152 + (x >> 3) % 16384 << ",4791," << (x >> 5) % (1u << 20) << "\n";
    tuples += row.str();
  }
  const std::string seen = (dir / "seen.csv").string(), obs = (dir / "obs.csv").string();
  std::ofstream(seen) << tuples;
  const std::string fields = "src-ip,dst-ip,proto,src-port,dst-port,flow-label";
  const CliResult h = ok({"hash", "--algo", "crc16-ccitt", "--seed", "1234", "--fields", fields, "-n", "6", "--tuples", seen});
  {
    std::istringstream in(tuples), members(h.out);
    std::string line, m;
    std::getline(in, line);
    std::string text = line + ",member\n";
    while (std::getline(in, line) && std::getline(members, m)) text += line + "," + m.substr(m.find(',') + 1) + "\n";
    std::ofstream(obs) << text;
  }
  const json doc = json::parse(ok({"fit", obs, "--members", "6", "--algos", "crc16-ccitt", "--fields", fields, "--seeds",
                                   "0:2048", "--format", "json"}).out);
  REQUIRE(!doc["models"].empty());
  CHECK(doc["models"][0]["algo"] == "crc16-ccitt");
  CHECK(doc["models"][0]["seed"] == 1234);
  CHECK(doc["models"][0]["fields"].size() == 6);
  CHECK(doc["verdict"]["certain"] == true);
  // Negative control: without the flow label in the key, no seed explains them.
  const CliResult miss = cli_run({"fit", obs, "--members", "6", "--algos", "crc16-ccitt", "--fields",
                                  "src-ip,dst-ip,proto,src-port,dst-port", "--seeds", "0:2048"});
  CHECK(miss.code == 2);
  CHECK(miss.err.find("no model fits the 150 observations") != std::string::npos);
  fs::remove_all(dir);
}
}  // namespace ipv6_commands_test
