#include <doctest/doctest.h>

#include "sim/fabric/fabric.h"

namespace fabric_test {

using namespace ecmpsim;

TEST_CASE("nodes with several NICs: names, addresses, NIC endpoints") {
  FabricSpec s;
  s.leaf_spine = {2, 2, 8, 1, Gbps{400}, Gbps{400}};
  s.nics_per_node = 4;  // 2 nodes per leaf
  const Fabric f = build_fabric(s);
  REQUIRE(f.endpoints().size() == 16);
  REQUIRE(f.server_count() == 4);
  CHECK(f.server_name(1) == "node1");
  const auto nics = f.server_nics(1);
  CHECK(std::vector<std::uint32_t>(nics.begin(), nics.end()) == std::vector<std::uint32_t>{4, 5, 6, 7});
  CHECK(f.node(f.endpoint_node(6)).name == "node1.nic2");
  CHECK(f.node(f.endpoint_node(6)).ip == 0x0A000007);  // leaf 0's 7th endpoint: 10.0.0.7
  CHECK(f.node(f.endpoint_node(9)).ip == 0x0A000102);  // node2.nic1: leaf 1's 2nd: 10.0.1.2
  CHECK(f.server_of(9) == 2);
  CHECK(f.tor_of(f.server_nics(3)[3]) == 1);
  CHECK(f.find_server("node3") == 3);
  CHECK(f.find_server("node4") == kNone);
}

TEST_CASE("one NIC per node: the node and its NIC are both hostK") {
  FabricSpec s;
  s.leaf_spine = {2, 1, 2, 1, Gbps{100}, Gbps{100}};
  const Fabric f = build_fabric(s);
  REQUIRE(f.server_count() == 4);
  CHECK(f.server_name(3) == "host3");
  CHECK(f.server_nics(3).size() == 1);
  CHECK(f.server_nics(3)[0] == 3);
}

namespace {

LinkId link_named(const Fabric& f, const std::string& name) {
  for (LinkId l = 0; l < f.links().size(); ++l)
    if (f.link_name(l) == name) return l;
  return kNone;
}

}  // namespace

TEST_CASE("interface MACs: 02:VV:VV:VV:PP:PP by node index and port, per switch, or from the config") {
  // Leaf-spine 2x2, one host per leaf: nodes leaf0 0, leaf1 1, spine0 2,
  // spine1 3, host0 4, host1 5; leaf0's ports: host0 0, spine0 1, spine1 2.
  FabricSpec s;
  s.leaf_spine = {2, 2, 1, 1, Gbps{100}, Gbps{100}};
  const Fabric f = build_fabric(s);
  REQUIRE(f.find("host0") == 4);
  const LinkId up = link_named(f, "host0->leaf0");
  const LinkId l0s1 = link_named(f, "leaf0->spine1");
  REQUIRE(up != kNone);
  REQUIRE(l0s1 != kNone);
  CHECK(f.mac_of(up) == 0x020000040000);                        // host0's NIC
  CHECK(f.mac_of(f.link(up).reverse) == 0x020000000000);        // leaf0 port 0
  CHECK(f.mac_of(l0s1) == 0x020000000002);                      // leaf0 port 2
  CHECK(f.mac_of(f.link(l0s1).reverse) == 0x020000030000);      // spine1 port 0 (to leaf0)
  CHECK(f.in_port(up) == 0);

  FabricSpec shared = s;
  shared.router_macs = RouterMacs::PerSwitch;
  shared.macs = {{"leaf0", 0x0c42a1000000, {}}, {"host0", 0xb8cef6000003, {}}};
  const Fabric g = build_fabric(shared);
  CHECK(g.mac_of(up) == 0xb8cef6000003);
  CHECK(g.mac_of(g.link(up).reverse) == 0x0c42a1000000);
  CHECK(g.mac_of(l0s1) == 0x0c42a1000000);                  // every port of leaf0: its one MAC
  CHECK(g.mac_of(g.link(l0s1).reverse) == 0x020000030000);  // spine1 keeps its derived MAC

  FabricSpec per_port = s;
  per_port.macs = {{"leaf0", 0x0c42a1000000, {}}};
  CHECK(build_fabric(per_port).mac_of(l0s1) == 0x0c42a1000002);

  FabricSpec bad = s;
  bad.macs = {{"leaf9", 1, {"c.toml", 4, 10, "fabric.macs.leaf9"}}};
  CHECK_THROWS_WITH_AS(build_fabric(bad), "no node named 'leaf9'", InputError);
}
}  // namespace fabric_test
