#include <doctest/doctest.h>

#include "sim/fabric/fabric.h"

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
