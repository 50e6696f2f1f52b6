// `ecmpsim topology` (sim/fabric/discover.h): the public Arista EVPN lab's
// LLDP tables become a topology file whose equal-cost next hops at leaf
// EAPI-LEAF1A are the leaf's real routing table's, destination by destination
// (the MLAG peer over its port-channel included), and a small fabric written
// in every LLDP form becomes the fabric it is; --against lists missing, extra
// and miswired cables.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "sim/config/topology_file.h"
#include "sim/fabric/discover.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/routes.h"

namespace discover_test {

namespace {

using namespace ecmpsim;
namespace fs = std::filesystem;

const fs::path kData = fs::path(ECMPSIM_SOURCE_DIR) / "tests" / "data" / "lldp";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<LldpFile> files_in(const fs::path& dir) {
  std::vector<LldpFile> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back({e.path().filename().string(), slurp(e.path())});
  std::sort(out.begin(), out.end(), [](const LldpFile& a, const LldpFile& b) { return a.name < b.name; });
  return out;
}

const DiscoveredNode* node(const TopologyReport& r, const std::string& name) {
  for (const DiscoveredNode& n : r.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

// The lab's addresses: every interface's (show ip interface brief), and each
// device's Loopback0.
struct Addresses {
  std::map<std::string, std::string> device_of;  // address -> device
  std::map<std::string, std::string> loopback0;  // address -> device
};
Addresses addresses() {
  Addresses a;
  const std::regex row(R"(^(\S+)\s+(\d+\.\d+\.\d+\.\d+)/\d+)");
  for (const auto& e : fs::directory_iterator(kData / "eapi" / "ip")) {
    const std::string device = e.path().stem().string();
    std::istringstream in(slurp(e.path()));
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, row)) continue;
      a.device_of.emplace(m[2], device);
      if (m[1] == "Loopback0") a.loopback0[m[2]] = device;
    }
  }
  return a;
}

// EAPI-LEAF1A's default VRF: each /32 it routes, with its next hops' addresses.
std::map<std::string, std::vector<std::string>> routes() {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(slurp(kData / "eapi" / "EAPI-LEAF1A.route.txt"));
  const std::regex route(R"(^ [A-Z][A-Z ]*\s+(\d+\.\d+\.\d+\.\d+)/32 \[\d+/\d+\] via (\d+\.\d+\.\d+\.\d+),)");
  const std::regex more(R"(^\s+via (\d+\.\d+\.\d+\.\d+),)");
  std::string current;
  bool in_default = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VRF: ", 0) == 0) in_default = line == "VRF: default";
    std::smatch m;
    if (!in_default) continue;
    if (std::regex_search(line, m, route)) {
      current = m[1];
      out[current].push_back(m[2]);
    } else if (!current.empty() && std::regex_search(line, m, more)) {
      out[current].push_back(m[1]);
    } else {
      current.clear();
    }
  }
  return out;
}

using NextHops = std::multiset<std::set<std::string>>;  // each next hop: the devices its links reach

struct LabResult {
  std::size_t compared = 0, matched = 0;
  std::vector<std::string> misses;
};

// Builds the lab's topology (servers as hosts), gives each destination device
// an endpoint for its loopback (ecmpsim's next hops are per destination ToR),
// and compares LEAF1A's next hops with its routing table's.
LabResult compare_lab(bool lags) {
  DiscoverOptions o;
  o.tiers.push_back({"SRV-*", Tier::Host});
  o.lags = lags;
  o.speed_gbps = 100;
  const TopologyReport r = discover_topology(files_in(kData / "eapi" / "lldp"), o);
  const Addresses a = addresses();
  const auto table = routes();
  std::set<std::string> destinations;
  for (const auto& [prefix, via] : table)
    if (a.loopback0.count(prefix)) {
      const std::string& d = a.loopback0.at(prefix);
      REQUIRE(node(r, d) != nullptr);
      if (node(r, d)->tier != Tier::Spine) destinations.insert(d);
    }
  std::string csv = r.csv;
  for (const std::string& d : destinations) csv += "node," + d + ".lo0,host\nlink," + d + ".lo0," + d + ",100\n";
  FabricSpec spec;
  spec.kind = FabricKind::File;
  spec.topology = config::parse_topology("lab.csv", csv);
  const Fabric f = build_fabric(spec);
  const EqualCostSets sets = compute_equal_cost_sets(f);
  const ScenarioSpec scenario;
  const Forwarding fwd(f, sets, scenario, "lab.csv");
  const std::uint32_t leaf = f.switch_index(f.find("EAPI-LEAF1A"));
  LabResult out;
  for (const auto& [prefix, via] : table) {
    if (!a.loopback0.count(prefix) || !destinations.count(a.loopback0.at(prefix))) continue;
    const std::string& d = a.loopback0.at(prefix);
    NextHops real, ours;
    for (const std::string& ip : via) real.insert({a.device_of.at(ip)});
    const std::uint32_t g = sets.group(leaf, f.tor_index(f.find(d)));
    REQUIRE(g != EqualCostSets::kNoGroup);
    for (std::uint32_t i = 0; i < fwd.next_hops(g); ++i) {
      std::set<std::string> reach;
      const auto links = fwd.plain() ? std::span<const LinkId>(&sets.members(g)[i], 1) : fwd.next_hop(g, i);
      for (LinkId l : links) reach.insert(f.node(f.link(l).to).name);
      ours.insert(reach);
    }
    ++out.compared;
    if (ours == real) ++out.matched;
    else out.misses.push_back(d);
  }
  return out;
}

}  // namespace

TEST_CASE("the public Arista lab: 13 of 13 next-hop sets of EAPI-LEAF1A match its routing table") {
  const LabResult with = compare_lab(true);
  CHECK(with.compared == 13);
  CHECK(with.matched == 13);
  // Negative control: without port-channels the MLAG peer's two cables are
  // two ECMP members where the leaf has one next hop (Vlan4093 over the peer link).
  const LabResult without = compare_lab(false);
  CHECK(without.compared == 13);
  CHECK(without.matched == 12);
  CHECK(without.misses == std::vector<std::string>{"EAPI-LEAF1B"});
}

TEST_CASE("the lab's topology: tiers, port-channels, the renamed server, servers' NICs") {
  DiscoverOptions o;
  o.tiers.push_back({"SRV-*", Tier::Host});
  const TopologyReport r = discover_topology(files_in(kData / "eapi" / "lldp"), o);
  REQUIRE(node(r, "EAPI-SPINE1") != nullptr);
  CHECK(node(r, "EAPI-SPINE1")->tier == Tier::Spine);
  CHECK(node(r, "EAPI-RS01")->tier == Tier::Leaf);   // one spine above it
  CHECK(node(r, "EAPI-BL01A")->tier == Tier::Leaf);  // an MLAG peer link
  CHECK(node(r, "EAPI-AGG01")->tier == Tier::Leaf);  // a host below it
  CHECK(node(r, "SRV-POD01")->tier == Tier::Host);
  // SRV-POD03 is cabled to two leaves that are no MLAG pair: two NICs.
  CHECK(node(r, "SRV-POD03.Ethernet1") != nullptr);
  CHECK(node(r, "SRV-POD03.Ethernet2") != nullptr);
  // L2LEAF01 heard its server as "localhost"; the server's own table names it.
  CHECK(node(r, "localhost") == nullptr);
  CHECK(node(r, "SRV-POD05-23") != nullptr);
  // Port-channels: four peer links, AGG01 and AGG02 each to its MLAG pair.
  std::map<std::string, int> lags;
  for (const Cable& c : r.cables)
    if (!c.lag.empty()) ++lags[c.a.device + ":" + c.lag];
  CHECK(lags == std::map<std::string, int>{{"EAPI-AGG01:mlag-EAPI-LEAF1A", 2},
                                           {"EAPI-AGG02:mlag-EAPI-LEAF2A", 2},
                                           {"EAPI-BL01A:peer-link", 2},
                                           {"EAPI-CL01A:peer-link", 2},
                                           {"EAPI-LEAF1A:peer-link", 2},
                                           {"EAPI-LEAF2A:peer-link", 2}});
  // 26 spine cables, 4 peer links of 2, AGG01's and AGG02's 2 each, 6 to
  // servers; the servers' cables to AGG01, AGG02, LEAF3A and LEAF4A are in
  // the servers' tables only (those switches list no server port).
  CHECK(r.cables.size() == 44);
  CHECK(std::count_if(r.cables.begin(), r.cables.end(), [](const Cable& c) { return !c.both_sides; }) == 4);
}

TEST_CASE("one fabric in six LLDP forms: the fabric, the speeds the tables give, the others' default") {
  DiscoverOptions o;
  o.speed_gbps = 25;
  const TopologyReport r = discover_topology(files_in(kData / "mixed"), o);
  std::vector<std::string> formats;
  for (const DiscoveredFile& f : r.files) formats.push_back(f.device + "=" + f.format);
  CHECK(formats == std::vector<std::string>{"host1=lldpd-json", "host2=lldpd-keyvalue", "leaf1=sonic-text",
                                            "leaf2=eos-json", "spine1=nvue-json", "spine2=lldpd-json0"});
  CHECK(r.csv ==
        "# ecmpsim topology from 6 LLDP tables\n"
        "# node,NAME,TIER[,SERVER[,NIC]] and link,A,B,SPEED_GBPS[,LAG][,COUNT] (docs/fabrics-and-routing.md)\n"
        "node,spine1,spine\nnode,spine2,spine\nnode,leaf1,leaf\nnode,leaf2,leaf\nnode,host1,host\nnode,host2,host\n"
        "link,leaf1,spine1,100\nlink,leaf2,spine1,100\nlink,leaf1,spine2,100\nlink,leaf2,spine2,100\n"
        "link,host1,leaf1,100\nlink,host2,leaf2,25\n");
  // leaf1 heard host1's port by its MAC; host1's own table names it eth0.
  const auto c = std::find_if(r.cables.begin(), r.cables.end(), [](const Cable& x) { return x.a.device == "host1"; });
  REQUIRE(c != r.cables.end());
  CHECK(c->a.port == "eth0");
  CHECK(c->b.port == "Ethernet0");
}

TEST_CASE("--against: matched, missing, extra and miswired cables, each with both ends") {
  const TopologyReport r = discover_topology(files_in(kData / "mixed"), DiscoverOptions{});
  // Intended: host2 on leaf1 (found on leaf2: miswired), two leaf1-spine1
  // cables (one found: one missing), no leaf2-spine2 cable (found: extra).
  FabricSpec spec;
  spec.kind = FabricKind::File;
  spec.topology = config::parse_topology(
      "intended.csv",
      "node,spine1,spine\nnode,spine2,spine\nnode,leaf1,leaf\nnode,leaf2,leaf\nnode,host1,host\nnode,host2,host\n"
      "link,leaf1,spine1,100,2\nlink,leaf1,spine2,100\nlink,leaf2,spine1,100\nlink,host1,leaf1,100\n"
      "link,host2,leaf1,100\n");
  const CablingDiff d = compare_cabling(r.cables, build_fabric(spec));
  CHECK(d.intended == 6);
  CHECK(d.found == 6);
  CHECK(d.matched == 4);
  REQUIRE(d.miswired.size() == 1);
  CHECK(d.miswired[0].first.a.device + " " + d.miswired[0].first.a.port + " -- " + d.miswired[0].first.b.device +
            " " + d.miswired[0].first.b.port ==
        "host2 ens1f0 -- leaf2 Ethernet3");
  CHECK(d.miswired[0].second.a.device + "-" + d.miswired[0].second.b.device == "host2-leaf1");
  REQUIRE(d.missing.size() == 1);
  CHECK(d.missing[0].a.device + "-" + d.missing[0].b.device == "leaf1-spine1");
  REQUIRE(d.extra.size() == 1);
  CHECK(d.extra[0].a.device + " " + d.extra[0].a.port + " -- " + d.extra[0].b.device + " " + d.extra[0].b.port ==
        "leaf2 Ethernet2 -- spine2 eth2");
  // Negative control: the discovered fabric against itself is clean.
  FabricSpec same;
  same.kind = FabricKind::File;
  same.topology = r.topology;
  const CablingDiff clean = compare_cabling(r.cables, build_fabric(same));
  CHECK(clean.clean());
  CHECK(clean.matched == 6);
}

TEST_CASE("tables that disagree, two tables for one device, --device with several files") {
  const std::string eos = "Port  Neighbor Device ID  Neighbor Port ID  TTL\n---- ---- ---- ---\n";
  // a's and c's tables both say their Ethernet1 is cabled to b's.
  std::vector<LldpFile> two{{"a.txt", eos + "Et1  b  Ethernet1  120\n"}, {"b.txt", eos + "Et1  c  Ethernet1  120\n"},
                            {"c.txt", eos + "Et1  b  Ethernet1  120\n"}};
  CHECK_THROWS_WITH_AS(discover_topology(two, DiscoverOptions{}),
                       "b Ethernet1 is cabled to c Ethernet1, but a.txt:3 says b Ethernet1 is cabled to a Ethernet1",
                       InputError);
  std::vector<LldpFile> same{{"x/a.txt", eos}, {"y/a.txt", eos}};
  CHECK_THROWS_WITH_AS(discover_topology(same, DiscoverOptions{}),
                       "device 'a' is also x/a.txt's: one table per device", InputError);
  DiscoverOptions o;
  o.device = "leaf9";
  CHECK_THROWS_AS(discover_topology(two, o), InputError);
  std::vector<LldpFile> bad{{"n.txt", "no table here\n"}};
  CHECK_THROWS_AS(discover_topology(bad, DiscoverOptions{}), InputError);
}

}  // namespace discover_test
