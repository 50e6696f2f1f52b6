// Multi-NIC servers in topology files (issue 34 item 1): a file's endpoints
// with a `server` column form multi-NIC nodes, NIC order by the `nic` column
// or as listed, and carry jobs as the built-in rail fabric of the same shape
// does. The comparison is by names (NIC, link), so the two fabrics' different
// node order and address plans do not enter it.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/simulation.h"
#include "tests/support/cli_capture.h"

namespace topology_servers_test {

using namespace ecmpsim;

namespace {

struct TopoDir {
  std::filesystem::path path;
  explicit TopoDir(const char* name) : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TopoDir() { std::filesystem::remove_all(path); }
  std::string write(const char* name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return (path / name).string();
  }
};

// 2 rail leaves, 2 spines, 2 servers x 2 NICs, NIC k of each server on rail
// k's leaf: the rail fabric `nodes = 2, nics_per_node = 2, spines = 2`, with
// the generator's names, listed in another order (switches mixed, NIC 1 of
// each server before its NIC 0, links shuffled).
const char* kRailNodesCsv =
    "node,spine1,spine\nnode,rail1-leaf0,leaf\n"
    "node,node0.nic1,host,node0,1\nnode,node1.nic1,host,node1,1\n"
    "node,node0.nic0,host,node0,0\nnode,node1.nic0,host,node1,0\n"
    "node,rail0-leaf0,leaf\nnode,spine0,spine\n";
const char* kRailLinksCsv =
    "link,rail1-leaf0,spine0,400\nlink,node1.nic0,rail0-leaf0,400\nlink,rail0-leaf0,spine1,400\n"
    "link,node0.nic1,rail1-leaf0,400\nlink,rail0-leaf0,spine0,400\nlink,node1.nic1,rail1-leaf0,400\n"
    "link,rail1-leaf0,spine1,400\nlink,node0.nic0,rail0-leaf0,400\n";

// The same topology as TOML, NIC indices as `nic` keys.
std::string rail_toml() {
  std::string t;
  for (const char* s : {"spine1", "spine0"}) t += "[[node]]\nname = \"" + std::string(s) + "\"\ntier = \"spine\"\n";
  for (const char* l : {"rail1-leaf0", "rail0-leaf0"}) t += "[[node]]\nname = \"" + std::string(l) + "\"\ntier = \"leaf\"\n";
  for (int n : {1, 0})
    for (int k : {1, 0})
      t += "[[node]]\nname = \"node" + std::to_string(n) + ".nic" + std::to_string(k) + "\"\ntier = \"host\"\nserver = \"node" +
           std::to_string(n) + "\"\nnic = " + std::to_string(k) + "\n";
  auto link = [&](const std::string& a, const std::string& b) {
    t += "[[link]]\na = \"" + a + "\"\nb = \"" + b + "\"\nspeed_gbps = 400\n";
  };
  for (int k : {0, 1})
    for (int s : {0, 1}) link("rail" + std::to_string(k) + "-leaf0", "spine" + std::to_string(s));
  for (int n : {0, 1})
    for (int k : {0, 1}) link("node" + std::to_string(n) + ".nic" + std::to_string(k), "rail" + std::to_string(k) + "-leaf0");
  return t;
}

std::string job(const std::string& collective) {
  return "gpus_per_node = 4\n[[job]]\ncollective = \"" + collective +
         "\"\nmessage_bytes = \"1MiB\"\nchannels = 4\n[[scenario]]\nname = \"ecmp\"\n";
}
std::string rail_config(const std::string& collective) {
  return "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 2\nspines = 2\nhost_speed_gbps = 400\n"
         "fabric_speed_gbps = 400\n" + job(collective);
}
std::string file_config(const std::string& file, const std::string& collective, const std::string& extra = "") {
  return "[fabric]\nkind = \"file\"\nfile = \"" + file + "\"\n" + extra + job(collective);
}
// reproduce compares ECMP with a static table: the same config with one.
std::string with_static(const std::string& config) {
  return config + "[[scenario]]\nname = \"static\"\nrouting = \"static\"\npolicy = \"dst-mod\"\n";
}

// A flow by names: source NIC, destination NIC, channel, bytes, and the
// links of its path.
using NamedFlow = std::tuple<std::string, std::string, unsigned, std::uint64_t, std::vector<std::string>>;
std::multiset<NamedFlow> named_flows(const Simulation& sim) {
  const Fabric& f = sim.fabric();
  const ScenarioResult r = sim.run(sim.spec().scenarios[0]);
  std::multiset<NamedFlow> out;
  const auto& fl = sim.flows();
  for (std::size_t i = 0; i < fl.size(); ++i) {
    std::vector<std::string> links;
    for (const LinkId l : r.trace.path(i)) links.push_back(f.link_name(l));
    out.insert({f.node(f.endpoint_node(fl.src[i])).name, f.node(f.endpoint_node(fl.dst[i])).name, fl.channel[i],
                fl.bytes[i], links});
  }
  return out;
}

std::string error_of(const std::string& cfg) {
  try {
    const Simulation sim(load_config(cfg));
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a topology file's servers are multi-NIC nodes: the flows and paths of the rail fabric of that shape") {
  const TopoDir dir("ecmpsim_topology_servers");
  dir.write("rail.csv", std::string(kRailNodesCsv) + kRailLinksCsv);
  dir.write("rail.toml", rail_toml());
  for (const char* collective : {"ring-allreduce", "tree-allreduce", "alltoall"}) {
    INFO(collective);
    const Simulation rail(parse_config(rail_config(collective), (dir.path / "r.toml").string()));
    const auto expected = named_flows(rail);
    REQUIRE(!expected.empty());
    for (const char* file : {"rail.csv", "rail.toml"}) {
      INFO(file);
      const Simulation sim(load_config(dir.write("f.toml", file_config(file, collective))));
      CHECK(sim.spec().fabric.nics_per_node == 2);
      CHECK(sim.fabric().server_count() == 2);
      CHECK(named_flows(sim) == expected);
    }
  }
}

TEST_CASE("the ring over 2 file servers x 2 NICs, worked by hand") {
  // 8 ranks (2 nodes x 4 GPUs), 4 channels, P = 2 search channels; 4 GPUs on
  // 2 NICs (G >= 2K): the same-NIC search succeeds, channel c leaves and
  // enters every node by NIC c mod 2, on that rail's leaf. Each rank sends
  // 2(N-1)/N x 1 MiB = 1835008 bytes to its successor, 458752 per channel.
  const TopoDir dir("ecmpsim_topology_servers_ring");
  dir.write("rail.csv", std::string(kRailNodesCsv) + kRailLinksCsv);
  const Simulation sim(load_config(dir.write("f.toml", file_config("rail.csv", "ring-allreduce"))));
  std::multiset<NamedFlow> hand;
  for (unsigned c = 0; c < 4; ++c) {
    const std::string k = std::to_string(c % 2), leaf = "rail" + k + "-leaf0";
    for (const auto& [a, b] : {std::pair{"node0", "node1"}, std::pair{"node1", "node0"}}) {
      const std::string src = std::string(a) + ".nic" + k, dst = std::string(b) + ".nic" + k;
      hand.insert({src, dst, c, 458752, {src + "->" + leaf, leaf + "->" + dst}});
    }
  }
  CHECK(named_flows(sim) == hand);
  // Negative control: without the nic column the NICs count as listed, NIC 1
  // before NIC 0, and channel 0 leaves node0 by node0.nic1.
  const std::string listed = kRailNodesCsv;
  std::string no_nic;
  for (std::size_t at = 0, nl; at < listed.size(); at = nl + 1) {
    nl = listed.find('\n', at);
    std::string line = listed.substr(at, nl - at);
    if (line.starts_with("node,node")) line.resize(line.rfind(','));
    no_nic += line + "\n";
  }
  dir.write("listed.csv", no_nic + kRailLinksCsv);
  const Simulation as_listed(load_config(dir.write("g.toml", file_config("listed.csv", "ring-allreduce"))));
  const auto flows = named_flows(as_listed);
  CHECK(flows != hand);
  CHECK(std::any_of(flows.begin(), flows.end(), [](const NamedFlow& f) {
    return std::get<0>(f) == "node0.nic1" && std::get<1>(f) == "node1.nic1" && std::get<2>(f) == 0;
  }));
}

TEST_CASE("nics_per_node with a topology file: taken from the file, a given value must agree") {
  const TopoDir dir("ecmpsim_topology_servers_key");
  dir.write("rail.csv", std::string(kRailNodesCsv) + kRailLinksCsv);
  const std::string cfg = (dir.path / "f.toml").string();
  CHECK(load_config(dir.write("f.toml", file_config("rail.csv", "ring-allreduce", "nics_per_node = 2\n")))
            .fabric.nics_per_node == 2);
  CHECK(error_of(dir.write("f.toml", file_config("rail.csv", "ring-allreduce", "nics_per_node = 4\n"))) ==
        cfg + ":4:17: fabric.nics_per_node: the topology file '" + (dir.path / "rail.csv").string() +
            "' gives its servers 2 NICs each, not 4");
  // Without a server column every endpoint is a node of one NIC, as before.
  dir.write("single.csv", "node,l0,leaf\nnode,a,host\nnode,b,host\nlink,a,l0,100\nlink,b,l0,100\n");
  const Spec single = load_config(dir.write("f.toml", file_config("single.csv", "ring-allreduce")));
  CHECK(single.fabric.nics_per_node == 1);
}

TEST_CASE("bad servers in a topology file: one line naming the file, line and server; exit 2") {
  const TopoDir dir("ecmpsim_topology_servers_bad");
  const std::string csv = (dir.path / "t.csv").string(), toml = (dir.path / "t.toml").string();
  const std::string links = "link,a0,l0,100\nlink,a1,l0,100\nlink,b0,l0,100\nlink,b1,l0,100\nlink,b2,l0,100\n";
  auto topo = [&](const std::string& nodes, const char* name = "t.csv") {
    dir.write(name, "node,l0,leaf\n" + nodes);
    return error_of(dir.write("c.toml", file_config(name, "ring-allreduce")));
  };
  CHECK(topo("node,a0,host,A\nnode,a1,host,A\nnode,b0,host,B\nnode,b1,host,B\nnode,b2,host,B\n" + links) ==
        csv + ":4:6: server 'B' has 3 NICs but server 'A' (line 2) has 2 NICs: every server needs the same number of "
              "NICs (nics_per_node)");
  CHECK(topo("node,a0,host,A,0\nnode,a1,host,A,0\n" + links.substr(0, 30)) ==
        csv + ":3:16: nic 0 of server 'A' is also 'a0' (line 2)");
  CHECK(topo("node,a0,host,A,0\nnode,a1,host,A,2\n" + links.substr(0, 30)) ==
        csv + ":3:16: nic 2 of server 'A' leaves a gap: its 2 NICs are nic 0..1");
  CHECK(topo("node,a0,host,A,1\nnode,a1,host,A\n" + links.substr(0, 30)) ==
        csv + ":3:6: NIC 'a1' of server 'A' has no nic while 'a0' (line 2) has one: give every NIC of a server "
              "its nic, or none");
  CHECK(topo("node,a0,host,A,x\n") == csv + ":2:16: nic must be an integer in [0, 253], got 'x'");
  dir.write("t.csv", "node,l0,leaf,A\n");
  CHECK(error_of(dir.write("c.toml", file_config("t.csv", "ring-allreduce"))) ==
        csv + ":1:6: server applies to endpoints only, not the leaf 'l0'");
  // A lone endpoint is a node of one NIC, which 2-NIC servers make uneven.
  CHECK(topo("node,a0,host,A\nnode,a1,host,A\nnode,b0,host\n" + links.substr(0, 45)) ==
        csv + ":4:6: server 'b0' has 1 NIC but server 'A' (line 2) has 2 NICs: every server needs the same number of "
              "NICs (nics_per_node)");
  // The TOML form names the [[node]] table of the offending NIC.
  dir.write("t.toml", "[[node]]\nname = \"l0\"\ntier = \"leaf\"\n[[node]]\nname = \"a0\"\ntier = \"host\"\nserver = "
                      "\"A\"\nnic = 1\n");
  CHECK(error_of(dir.write("c.toml", file_config("t.toml", "ring-allreduce"))) ==
        toml + ":8:7: node.nic: nic 1 of server 'A' leaves a gap: its only NIC is nic 0");
  // The command line: the same one line on stderr, exit 2, nothing on stdout.
  topo("node,a0,host,A,0\nnode,a1,host,A,0\n" + links.substr(0, 30));
  const auto r = cli_run({"run", (dir.path / "c.toml").string()});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + csv + ":3:16: nic 0 of server 'A' is also 'a0' (line 2)\n");
}

TEST_CASE("every command takes a topology file with multi-NIC servers") {
  const TopoDir dir("ecmpsim_topology_servers_cli");
  dir.write("rail.csv", std::string(kRailNodesCsv) + kRailLinksCsv);
  const std::string cfg = dir.write("f.toml", with_static(file_config("rail.csv", "ring-allreduce")));
  const std::string html = (dir.path / "r.html").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", cfg}, {"flows", cfg}, {"sweep", cfg, "--seeds", "0:4"},
        {"report", cfg, "--seeds", "0:4", "--out", html}, {"reproduce", cfg, "--seeds", "0:4", "--out", html}}) {
    INFO(args[0]);
    const auto r = cli_run(args);
    CHECK(r.err.find("nics_per_node") == std::string::npos);
    CHECK(r.code == 0);
  }
  // flows lists node0's channel 1 flow on its NIC 1, node0.nic1.
  const auto flows = cli_run({"flows", cfg, "--format", "csv"});
  CHECK(flows.out.find("node0.nic1") != std::string::npos);
}

}  // namespace topology_servers_test
