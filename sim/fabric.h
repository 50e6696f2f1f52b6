// The fabric as built from the config: nodes, directed links and the
// addressing plan. A Boost.Graph view of it is made where routes are computed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/spec.h"
#include "sim/units.h"

namespace ecmpsim {

using NodeId = std::uint32_t;
using LinkId = std::uint32_t;
inline constexpr std::uint32_t kNone = ~0u;

enum class Tier : std::uint8_t { Host = 0, Leaf = 1, Spine = 2, Core = 3 };

struct Node {
  std::string name;
  Tier tier = Tier::Host;
  std::uint32_t ip = 0;  // endpoints only
};

// One direction of a cable; the cable's other direction is `reverse`.
struct Link {
  NodeId from = 0;
  NodeId to = 0;
  Gbps speed;
  LinkId reverse = kNone;
  bool up = true;
};

class Fabric {
 public:
  NodeId add_node(std::string name, Tier tier, std::uint32_t ip = 0);
  // Adds a cable: two directed links. Returns the id of from->to (the other is +1).
  LinkId add_cable(NodeId a, NodeId b, Gbps speed);
  // Declares a server (a "node" in NCCL and in the config) owning the given
  // endpoint nodes as its NICs, NIC k = nics[k]. Call before finalize();
  // when no server is declared, every endpoint is a server of its own.
  void add_server(std::string name, std::vector<NodeId> nics);
  // Indexes endpoints, switches, servers and adjacency; call once after the last add_*.
  void finalize();

  std::span<const Node> nodes() const noexcept { return nodes_; }
  std::span<const Link> links() const noexcept { return links_; }
  const Node& node(NodeId n) const { return nodes_[n]; }
  const Link& link(LinkId l) const { return links_[l]; }
  bool is_switch(NodeId n) const { return nodes_[n].tier != Tier::Host; }
  // kNone when no node has that name.
  NodeId find(std::string_view name) const;

  // Endpoints (NICs), dense 0..E-1, in creation order.
  std::span<const NodeId> endpoints() const noexcept { return endpoints_; }
  NodeId endpoint_node(std::uint32_t e) const { return endpoints_[e]; }
  std::uint32_t endpoint_of(NodeId n) const { return endpoint_index_[n]; }
  // The single access link of an endpoint, up to its ToR, and back down.
  LinkId uplink(std::uint32_t e) const { return uplink_[e]; }
  LinkId downlink(std::uint32_t e) const { return links_[uplink_[e]].reverse; }
  // The endpoint's ToR as a dense ToR index, and ToR index -> node.
  std::uint32_t tor_of(std::uint32_t e) const { return tor_of_[e]; }
  std::span<const std::uint32_t> tor_of_endpoints() const noexcept { return tor_of_; }
  std::span<const NodeId> tors() const noexcept { return tors_; }
  std::uint32_t tor_index(NodeId n) const { return tor_index_[n]; }

  // Servers, dense 0..N-1, in declaration order; their NICs as endpoint indices.
  std::uint32_t server_count() const noexcept { return static_cast<std::uint32_t>(server_names_.size()); }
  const std::string& server_name(std::uint32_t s) const { return server_names_[s]; }
  std::span<const std::uint32_t> server_nics(std::uint32_t s) const {
    return {server_nics_.data() + server_begin_[s], server_nics_.data() + server_begin_[s + 1]};
  }
  std::uint32_t server_of(std::uint32_t endpoint) const { return server_of_[endpoint]; }
  // kNone when no server has that name.
  std::uint32_t find_server(std::string_view name) const;

  // Switches, dense 0..S-1.
  std::span<const NodeId> switches() const noexcept { return switches_; }
  std::uint32_t switch_index(NodeId n) const { return switch_index_[n]; }

  // Outgoing links of a node, in creation order.
  std::span<const LinkId> out_links(NodeId n) const {
    return {out_.data() + out_begin_[n], out_.data() + out_begin_[n + 1]};
  }

  std::string link_name(LinkId l) const { return nodes_[links_[l].from].name + "->" + nodes_[links_[l].to].name; }

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> endpoints_, switches_, tors_;
  std::vector<std::uint32_t> endpoint_index_, switch_index_, tor_index_, tor_of_;
  std::vector<LinkId> uplink_;
  std::vector<std::string> server_names_;
  std::vector<NodeId> server_nic_nodes_;  // as declared; endpoint indices after finalize
  std::vector<std::uint32_t> server_begin_{0}, server_nics_, server_of_;
  std::vector<std::uint32_t> out_begin_;
  std::vector<LinkId> out_;
};

// Two-tier leaf-spine: leaves "leafI", spines "spineJ". NIC endpoints are
// numbered K globally; with one NIC per node the NIC and its node are "hostK",
// with nics_per_node = P > 1 node n is "nodeN" and its NICs "nodeN.nicI"
// (endpoints n*P .. n*P+P-1, all on one leaf).
// Endpoint K on leaf t gets address_base + t*256 + (K mod hosts_per_leaf) + 1.
Fabric build_fabric(const FabricSpec& spec);

}  // namespace ecmpsim
