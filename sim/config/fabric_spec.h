// The fabric stage's vocabulary as the config gives it: tiers, fabric kinds,
// generated and explicit topologies, cable references, router MACs. Plain
// validated data (sim/fabric builds the Fabric from it). It lives in
// sim/config, not sim/fabric, because the config reader parses it and config
// sits below fabric; a file that needs only these includes this header, not
// the whole Spec (spec.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hashing/address.h"
#include "sim/base/error.h"
#include "sim/base/named.h"
#include "sim/base/units.h"
#include "workloads/generators/locality.h"

namespace ecmpsim {

enum class Tier : std::uint8_t { Host = 0, Leaf = 1, Spine = 2, Core = 3 };
inline constexpr std::array<Named<Tier>, 4> kTiers{
    {{Tier::Host, "host"}, {Tier::Leaf, "leaf"}, {Tier::Spine, "spine"}, {Tier::Core, "core"}}};

enum class FabricKind : std::uint8_t { LeafSpine, FatTree, Rail, File };
inline constexpr std::array<Named<FabricKind>, 4> kFabricKinds{{{FabricKind::LeafSpine, "leaf-spine"},
                                                                 {FabricKind::FatTree, "fat-tree"},
                                                                 {FabricKind::Rail, "rail"},
                                                                 {FabricKind::File, "file"}}};

struct LeafSpineSpec {
  std::uint32_t leaves = 4;
  std::uint32_t spines = 4;
  std::uint32_t hosts_per_leaf = 4;
  std::uint32_t links_per_pair = 1;  // parallel links between each leaf and spine
  Gbps host_speed{400};
  Gbps fabric_speed{400};
  bool lag = false;  // the links_per_pair links one LAG (one next hop) each way instead of ECMP members
};

// An explicit topology (kind = "file"): nodes with tiers and links with speeds.
inline constexpr std::uint32_t kNicUnset = ~0u;
struct TopologyNode {
  std::string name;
  Tier tier = Tier::Host;
  std::string server;  // endpoints only: the compute node the NIC belongs to ("" = its own)
  std::uint32_t nic = kNicUnset;  // endpoints only: the NIC's index in its server (NCCL's NET/IB/N)
  SourcePos where;
  SourcePos nic_at;  // the nic column or key, for its errors
  // endpoints only: its own address instead of the plan's (the address column)
  std::optional<hashing::IpAddr> address;
  SourcePos address_at;
};
// A server (compute node) of a topology file: its NICs as node indices, NIC k = nics[k].
struct TopologyServer {
  std::string name;
  std::vector<std::uint32_t> nics;
};
struct TopologyLink {
  std::string a, b;
  Gbps speed;
  std::uint32_t count = 1;   // parallel cables, each its own equal-cost member (unless in a LAG)
  std::uint32_t weight = 1;  // WCMP weight of each of them, both directions
  SourcePos where;
  // The port-channel (LAG) of `a` the cables belong to ("" for none): the
  // cables of one port-channel of a node are one next hop of it, even to two
  // MLAG peers; each peer's cables back to `a` are one next hop of that peer.
  std::string lag = {};
};
struct TopologySpec {
  std::string source;  // the topology file, for messages
  std::vector<TopologyNode> nodes;
  std::vector<TopologyLink> links;
  // Every endpoint's server in order of its first NIC (an endpoint without a
  // server is one of its own), NICs by `nic` index or as listed; each has
  // nics_per_server NICs (the reader checks).
  std::vector<TopologyServer> servers;
  std::uint32_t nics_per_server = 1;
};

// A cable named "A-B" (every parallel cable between A and B), "A-B#n" (the
// n-th, from 0), or a switch "A" (every cable of it); resolved on the fabric.
struct LinkRef {
  std::string text;
  SourcePos where;
};
struct LinkWeight {
  LinkRef cable;
  std::uint32_t weight = 1;
};

// The MAC addresses of router interfaces, which the src-mac and dst-mac hash
// fields read (sim/fabric/fabric.h, Fabric::mac_of): one per port, as
// chassis that allocate a block per device do, or the switch's one system MAC
// on every routed port, as SONiC and EOS do.
enum class RouterMacs : std::uint8_t { PerPort, PerSwitch };
inline constexpr std::array<Named<RouterMacs>, 2> kRouterMacs{
    {{RouterMacs::PerPort, "per-port", "each port its own MAC: the node's base MAC + the port number"},
     {RouterMacs::PerSwitch, "per-switch", "every port of a switch the switch's base MAC"}}};

// A node's base MAC, given in the config instead of the derived one.
struct MacOverride {
  std::string node;
  std::uint64_t mac = 0;
  SourcePos where;
};

struct FabricSpec {
  FabricKind kind = FabricKind::LeafSpine;
  // leaf-spine; rail reuses spines, links_per_pair and both speeds.
  LeafSpineSpec leaf_spine;
  std::uint32_t nics_per_node = 1;  // K: NIC endpoints per node (server)
  std::uint32_t gpus_per_node = 1;  // G: GPUs (ranks) per node
  workloads::GpuNicMap gpu_nics;    // per GPU, its close NICs (gpu_nics); empty: rail-aligned
  std::uint32_t nvlink_domain = 0;  // GPUs per multi-node NVLink domain (GB200 NVL72: 72); 0: the node
  bool sharp = false;               // the switches reduce (InfiniBand SHARP): CollNet is available
  std::uint32_t fat_tree_k = 4;     // fat-tree: k pods of k/2 edge + k/2 aggregation
  Gbps core_speed{0};               // fat-tree aggregation-core links; 0 = fabric_speed
  std::uint32_t rail_nodes = 16;    // rail: compute nodes
  std::uint32_t rail_leaf_nodes = 0;  // rail: nodes per rail leaf (0 = all: one leaf per rail)
  TopologySpec topology;            // kind = "file"
  std::vector<LinkWeight> weights;  // WCMP weights of generated cables
  // 10.0.0.0 or an IPv6 prefix such as fd00::: ToR t's endpoints are base + t*stride + 1..
  hashing::IpAddr address_base{0x0A000000u};
  SourcePos address_base_at;  // its key, for a plan that overflows the family's space
  RouterMacs router_macs = RouterMacs::PerPort;
  std::vector<MacOverride> macs;
};

}  // namespace ecmpsim
