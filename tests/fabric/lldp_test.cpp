// The LLDP readers (sim/fabric/lldp/): each form recognised and read to the
// rows its table holds, on the public Arista lab's tables and on one small
// fabric written in every form (tests/data/lldp/README.md says where each
// shape comes from); bad input named at its line, column or JSON path.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "sim/fabric/lldp/lldp.h"

namespace lldp_test {

namespace {

using namespace ecmpsim;

std::string slurp(const std::string& rel) {
  std::ifstream in(std::string(ECMPSIM_SOURCE_DIR) + "/tests/data/lldp/" + rel);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

lldp::Table read(const std::string& rel, std::string_view form) {
  const std::string text = slurp(rel);
  const lldp::FormatRow* f = lldp::detect_format(text);
  REQUIRE(f != nullptr);
  CHECK(f->name == form);
  auto r = f->parse(text, rel);
  if (auto* e = std::get_if<InputError>(&r)) FAIL(e->describe());
  return std::get<lldp::Table>(r);
}

std::string rows(const lldp::Table& t) {
  std::string s;
  for (const auto& n : t.neighbors) s += n.local_port + ">" + n.device + ":" + n.port + ";";
  return s;
}

std::string error_of(std::string_view form, const std::string& text) {
  auto r = lldp::find_format(form)->parse(text, "t");
  REQUIRE(std::holds_alternative<InputError>(r));
  return std::get<InputError>(r).describe();
}

}  // namespace

TEST_CASE("EOS `show lldp neighbors` text: the lab's leaf, management rows left out, Et spelt out") {
  const lldp::Table t = read("eapi/lldp/EAPI-LEAF1A.txt", "eos-text");
  CHECK(t.device.empty());  // the file names no device: its file name does
  CHECK(rows(t) == "Ethernet1>EAPI-SPINE1:Ethernet1;Ethernet2>EAPI-SPINE2:Ethernet1;Ethernet3>EAPI-LEAF1B:Ethernet3;"
                   "Ethernet4>EAPI-LEAF1B:Ethernet4;Ethernet5>EAPI-AGG01:Ethernet1;");
  // A server's table: one data port, 16 switches on its management port.
  const lldp::Table srv = read("eapi/lldp/SRV-POD01.txt", "eos-text");
  CHECK(rows(srv) == "Ethernet1>EAPI-AGG01:Ethernet3;");
  CHECK(srv.management_rows == 16);
}

TEST_CASE("every form of the small fabric reads to its rows") {
  const lldp::Table leaf1 = read("mixed/leaf1.txt", "sonic-text");
  CHECK(leaf1.device == "leaf1");  // its pasted prompt names it
  CHECK(rows(leaf1) == "Ethernet0>host1:b8:ce:f6:00:00:01;Ethernet48>spine1:swp1;Ethernet52>spine2:eth1;");
  CHECK(leaf1.management_rows == 1);  // eth0, SONiC's management port
  CHECK(leaf1.neighbors[0].capability == lldp::Capability::Station);
  CHECK(leaf1.neighbors[1].capability == lldp::Capability::Switch);

  const lldp::Table leaf2 = read("mixed/leaf2.json", "eos-json");
  CHECK(rows(leaf2) == "Ethernet1>spine1:swp2;Ethernet2>spine2:eth2;Ethernet3>host2:ens1f0;");
  CHECK(leaf2.management_rows == 1);

  const lldp::Table spine1 = read("mixed/spine1.json", "nvue-json");
  CHECK(rows(spine1) == "swp1>leaf1:Ethernet48;swp2>leaf2:Ethernet1;");
  CHECK(spine1.neighbors[0].speed_gbps == 100);
  CHECK(spine1.management_rows == 1);

  const lldp::Table spine2 = read("mixed/spine2.json", "lldpd-json0");
  CHECK(rows(spine2) == "eth1>leaf1:Ethernet52;eth2>leaf2:Ethernet2;");
  CHECK(spine2.neighbors[1].speed_gbps == 100);  // "100GbaseCR4 - ..."
  CHECK(spine2.neighbors[1].capability == lldp::Capability::Switch);

  const lldp::Table host1 = read("mixed/host1.json", "lldpd-json");
  CHECK(rows(host1) == "eth0>leaf1:Ethernet0;");

  const lldp::Table host2 = read("mixed/host2.kv", "lldpd-keyvalue");
  CHECK(host2.device == "host2");
  CHECK(rows(host2) == "ens1f0>leaf2:Ethernet3;");
  CHECK(host2.neighbors[0].capability == lldp::Capability::Switch);
}

TEST_CASE("lldpd -f json lists several interfaces as one-key objects; a chassis without a name is its id") {
  const std::string two = R"({"lldp": {"interface": [
    {"eth0": {"chassis": {"leaf1": {"id": {"type": "mac", "value": "0c:00:00:00:00:01"}}},
              "port": {"id": {"type": "mac", "value": "0c:00:00:00:00:09"}, "descr": "Ethernet8"}}},
    {"eth1": {"chassis": {"id": {"type": "mac", "value": "0c:00:00:00:00:02"}},
              "port": {"id": {"type": "ifname", "value": "swp3"}, "descr": "to host"}}}]}})";
  auto r = lldp::find_format("lldpd-json")->parse(two, "t");
  REQUIRE(std::holds_alternative<lldp::Table>(r));
  // A port sent by its MAC reads as its description; an ifname id as the name.
  CHECK(rows(std::get<lldp::Table>(r)) == "eth0>leaf1:Ethernet8;eth1>0c:00:00:00:00:02:swp3;");
}

TEST_CASE("bad tables: the line and column, or the JSON path, and why") {
  CHECK(error_of("eos-text",
                 "Port  Neighbor Device ID  Neighbor Port ID  TTL\n---- ---- ---- ---\nEt1  spine1  Ethernet1\n") ==
        "t:3:14: expected PORT NEIGHBOR-DEVICE NEIGHBOR-PORT TTL, found 3 columns");
  CHECK(error_of("eos-text", "Port  Neighbor Device ID  Neighbor Port ID  TTL\n---- ---- ---- ---\nEt1 a b x\n") ==
        "t:3:9: expected the TTL in seconds, found 'x'");
  const std::string bad_json = error_of("eos-json", "{\"lldpNeighbors\": [\n  {\"port\": \"Ethernet1\",}\n]}");
  CAPTURE(bad_json);
  CHECK(bad_json.rfind("t:2:24: invalid JSON:", 0) == 0);  // the '}' after the trailing comma
  CHECK(error_of("eos-json", R"({"lldpNeighbors": [{"port": "Ethernet1"}]})") ==
        "t: lldpNeighbors[0]: expected port, neighborDevice and neighborPort");
  CHECK(error_of("lldpd-keyvalue", "lldp.eth0.via=LLDP\nnot a key value line\n") ==
        "t:2:1: expected lldp.INTERFACE.KEY=VALUE (lldpcli -f keyvalue), found 'not a key value line'");
  CHECK(error_of("sonic-text", "LocalPort  RemoteDevice  RemotePortID\nEthernet0 x y\n") ==
        "t:2:1: expected the dashes under the LocalPort header");
  // Negative control: text none of the forms is, recognised by none.
  CHECK(lldp::detect_format("hello\nworld\n") == nullptr);
  CHECK(lldp::detect_format("{\"tables\": 1}") == nullptr);
}

TEST_CASE("port names: EOS abbreviations spelt out, others kept; management ports") {
  CHECK(lldp::normalise_port("Et1/1") == "Ethernet1/1");
  CHECK(lldp::normalise_port("Ma0") == "Management0");
  CHECK(lldp::normalise_port("Po10") == "Port-Channel10");
  CHECK(lldp::normalise_port("Ethernet48") == "Ethernet48");
  CHECK(lldp::normalise_port("swp1") == "swp1");
  CHECK(lldp::normalise_port("Etc") == "Etc");
  CHECK(lldp::management_port("Management1"));
  CHECK(lldp::management_port("mgmt0"));
  CHECK_FALSE(lldp::management_port("Ethernet1"));
  CHECK_FALSE(lldp::management_port("Mac1"));
}

}  // namespace lldp_test
