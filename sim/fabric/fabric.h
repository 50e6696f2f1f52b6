// The fabric as built from the config: nodes, directed links and the
// addressing plan. A Boost.Graph view of it is made where routes are computed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hashing/address.h"
#include "sim/config/fabric_spec.h"
#include "sim/base/units.h"

namespace ecmpsim {

using NodeId = std::uint32_t;
using LinkId = std::uint32_t;
inline constexpr std::uint32_t kNone = ~0u;

struct Node {
  std::string name;
  Tier tier = Tier::Host;
  hashing::IpAddr ip;  // endpoints only, from the address plan (IPv4 or IPv6)
};

// One direction of a cable; the cable's other direction is `reverse`.
struct Link {
  NodeId from = 0;
  NodeId to = 0;
  Gbps speed;
  LinkId reverse = kNone;
  std::uint32_t weight = 1;  // WCMP weight when this link is an equal-cost member
  std::uint32_t lag = kNone;  // the port-channel it is a member of (Fabric::lags), kNone for none
};

// A port-channel (LAG): links leaving one node that are one next hop of it,
// to one neighbour or to the two switches of an MLAG pair. Which member a
// flow takes is the node's LAG hash's choice (sim/routing/next_link.h).
struct Lag {
  NodeId node = 0;
  std::string name;
  std::vector<LinkId> members;  // in the order they joined
};

class Fabric {
 public:
  NodeId add_node(std::string name, Tier tier);
  // Adds a cable: two directed links. Returns the id of a->b (b->a is id + 1).
  LinkId add_cable(NodeId a, NodeId b, Gbps speed, std::uint32_t weight = 1);
  // Puts link l in the port-channel `name` of the node it leaves, made on
  // first use. Call before finalize(). An endpoint's links may form one
  // port-channel (a host bond) to one switch.
  void join_lag(LinkId l, const std::string& name);
  std::span<const Lag> lags() const noexcept { return lags_; }
  std::uint32_t lag_of(LinkId l) const { return links_[l].lag; }
  // Gives an endpoint its own address instead of the plan's (a topology
  // file's address column). Call before finalize(), which keeps it.
  void set_address(NodeId endpoint, hashing::IpAddr ip) { explicit_ip_.emplace_back(endpoint, ip); }
  bool has_explicit_addresses() const noexcept { return !explicit_ip_.empty(); }
  // Declares a server (a "node" in NCCL and in the config) owning the given
  // endpoint nodes as its NICs, NIC k = nics[k]. Call before finalize();
  // when no server is declared, every endpoint is a server of its own.
  void add_server(std::string name, std::vector<NodeId> nics);
  // Indexes endpoints, switches, ToRs, servers and adjacency and assigns the
  // address plan; call once after the last add_*. Throws InputError when two
  // nodes share a name, an endpoint has other than one link to a switch, or
  // the plan overflows its address family's space.
  void finalize(hashing::IpAddr address_base);

  std::span<const Node> nodes() const noexcept { return nodes_; }
  std::span<const Link> links() const noexcept { return links_; }
  const Node& node(NodeId n) const { return nodes_[n]; }
  const Link& link(LinkId l) const { return links_[l]; }
  void set_weight(LinkId l, std::uint32_t w) { links_[l].weight = w; }
  bool is_switch(NodeId n) const { return nodes_[n].tier != Tier::Host; }
  // kNone when no node has that name.
  NodeId find(std::string_view name) const;

  // Endpoints (NICs), dense 0..E-1, in creation order.
  std::span<const NodeId> endpoints() const noexcept { return endpoints_; }
  NodeId endpoint_node(std::uint32_t e) const { return endpoints_[e]; }
  // The access link of an endpoint, up to its ToR, and back down (a bonded
  // endpoint's first member; the walk picks the member, next_link.h).
  LinkId uplink(std::uint32_t e) const { return uplink_[e]; }
  LinkId downlink(std::uint32_t e) const { return links_[uplink_[e]].reverse; }
  // The endpoint's ToR as a dense ToR index, and ToR index -> node.
  std::uint32_t tor_of(std::uint32_t e) const { return tor_of_[e]; }
  std::span<const std::uint32_t> tor_of_endpoints() const noexcept { return tor_of_; }
  std::span<const NodeId> tors() const noexcept { return tors_; }
  std::uint32_t tor_index(NodeId n) const { return tor_index_[n]; }
  // Endpoints of ToR t in endpoint order; an endpoint's position among them.
  std::span<const std::uint32_t> tor_endpoints(std::uint32_t t) const {
    return {tor_members_.data() + tor_begin_[t], tor_members_.data() + tor_begin_[t + 1]};
  }
  std::uint32_t tor_position(std::uint32_t e) const { return tor_pos_[e]; }
  // Address plan: ToR t's endpoints are block_base(t) + 1 + position, but
  // for those given their own address (set_address). ToRs are numbered in
  // the order their first endpoint was created (a topology file's order).
  std::uint32_t address_stride() const noexcept { return stride_; }
  // The plan never overflows (finalize checks), so the sums are in range.
  hashing::IpAddr block_base(std::uint32_t t) const { return *base_.plus(std::uint64_t{t} * stride_); }
  hashing::Family family() const noexcept { return base_.family(); }

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
  // What the per-hop routing step reads, as flat tables: the switch a link
  // leads into (kNone when it leads into an endpoint), the port number it
  // arrives on there (the position of its reverse among the switch's out
  // links: the `in-port` hash field), and a switch's ToR index (kNone when
  // it is not a ToR).
  std::uint32_t switch_after(LinkId l) const { return switch_after_[l]; }
  std::uint16_t in_port(LinkId l) const { return in_port_[l]; }
  std::uint32_t tor_of_switch(std::uint32_t s) const { return switch_tor_[s]; }
  // The MAC of the interface link l leaves from: the source MAC of a packet
  // on l. Its destination MAC is mac_of(reverse), the receiving interface's.
  std::uint64_t mac_of(LinkId l) const { return mac_[l]; }
  // Gives every interface its MAC: port p of node v (p its position among
  // v's out links, as in_port counts) gets base(v) + p, or base(v) on every
  // port of a switch under RouterMacs::PerSwitch; base(v) is the override
  // naming v, else 02:VV:VV:VV:00:00 (VV the node index, low 24 bits: a
  // locally administered unicast address). finalize() assigns the derived
  // per-port MACs, build_fabric the config's; throws
  // InputError for an override naming no node.
  void assign_macs(RouterMacs mode, std::span<const MacOverride> overrides);

  // Outgoing links of a node, in creation order.
  std::span<const LinkId> out_links(NodeId n) const {
    return {out_.data() + out_begin_[n], out_.data() + out_begin_[n + 1]};
  }

  // A link's id in every output, and a name `down` and `weights` accept for
  // its cable (sim/fabric/failures.h): "from->to", plus cable_suffix(l).
  std::string link_name(LinkId l) const;
  // "#k" when the link is the k-th (from 0, in creation order) of several
  // parallel cables between its two nodes, "" for the only one. Both
  // directions of a cable get the same k.
  std::string cable_suffix(LinkId l) const;

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::unordered_map<std::string, NodeId> by_name_;
  std::vector<NodeId> endpoints_, switches_, tors_;
  std::vector<std::uint32_t> endpoint_index_, switch_index_, tor_index_, tor_of_, tor_pos_;
  std::vector<std::uint32_t> tor_begin_, tor_members_;
  std::vector<LinkId> uplink_;
  std::vector<std::string> server_names_;
  std::vector<NodeId> server_nic_nodes_;  // as declared; endpoint indices after finalize
  std::vector<std::uint32_t> server_begin_{0}, server_nics_, server_of_;
  std::vector<std::uint32_t> out_begin_;
  std::vector<LinkId> out_;
  std::vector<std::uint32_t> switch_after_, switch_tor_;
  std::vector<std::uint16_t> in_port_;
  std::vector<std::uint64_t> mac_;
  std::vector<std::pair<NodeId, hashing::IpAddr>> explicit_ip_;
  std::vector<Lag> lags_;

  void index_hops();
  hashing::IpAddr base_;
  std::uint32_t stride_ = 256;
};

// Builds the fabric the spec describes (sim/fabric/generators.cpp documents each
// kind's names) and checks it: unique names, every endpoint reachable from
// every other. Throws InputError naming the cause.
Fabric build_fabric(const FabricSpec& spec);

// The NIC endpoints build_fabric would make, counted without building (for
// the --max-hosts limit).
std::uint64_t endpoint_count(const FabricSpec& spec);

// What build_fabric would make, counted without building, for the
// --max-switches and --max-links limits (a count past 2^64 saturates).
struct FabricCounts {
  std::uint64_t switches = 0;
  std::uint64_t cables = 0;  // each two directed links
  std::uint64_t tors = 0;    // switches with an endpoint: the destinations of the equal-cost sets
};
FabricCounts fabric_counts(const FabricSpec& spec);

// An endpoint that cannot reach the first endpoint over the links not marked
// in `down` (indexed by LinkId; empty = none down); kNone when all can. The
// fabric must have an endpoint.
NodeId unreachable_endpoint(const Fabric& fabric, std::span<const std::uint8_t> down);

// Throws InputError when some endpoint cannot reach another over the links
// not marked in `down` (indexed by LinkId; empty = none down).
void check_connected(const Fabric& fabric, std::span<const std::uint8_t> down, const SourcePos& where);

}  // namespace ecmpsim
