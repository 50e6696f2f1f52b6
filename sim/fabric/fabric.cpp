#include "sim/fabric/fabric.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

namespace ecmpsim {

NodeId Fabric::add_node(std::string name, Tier tier) {
  nodes_.push_back({std::move(name), tier, 0});
  return static_cast<NodeId>(nodes_.size() - 1);
}

LinkId Fabric::add_cable(NodeId a, NodeId b, Gbps speed, std::uint32_t weight) {
  const auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, speed, id + 1, weight, kNone});
  links_.push_back({b, a, speed, id, weight, kNone});
  return id;
}

void Fabric::join_lag(LinkId l, const std::string& name) {
  const NodeId node = links_[l].from;
  std::uint32_t k = 0;
  while (k < lags_.size() && !(lags_[k].node == node && lags_[k].name == name)) ++k;
  if (k == lags_.size()) lags_.push_back({node, name, {}});
  lags_[k].members.push_back(l);
  links_[l].lag = k;
}

void Fabric::add_server(std::string name, std::vector<NodeId> nics) {
  server_names_.push_back(std::move(name));
  server_nic_nodes_.insert(server_nic_nodes_.end(), nics.begin(), nics.end());
  server_begin_.push_back(static_cast<std::uint32_t>(server_nic_nodes_.size()));
}

std::uint32_t Fabric::find_server(std::string_view name) const {
  for (std::uint32_t s = 0; s < server_names_.size(); ++s)
    if (server_names_[s] == name) return s;
  return kNone;
}

NodeId Fabric::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? kNone : it->second;
}

void Fabric::finalize(hashing::IpAddr address_base) {
  const auto n = nodes_.size();
  by_name_.clear();
  by_name_.reserve(n);
  for (NodeId v = 0; v < n; ++v)
    if (!by_name_.try_emplace(nodes_[v].name, v).second)
      throw InputError({}, "two nodes are named '" + nodes_[v].name + "'");
  endpoint_index_.assign(n, kNone);
  switch_index_.assign(n, kNone);
  tor_index_.assign(n, kNone);
  endpoints_.clear();
  switches_.clear();
  tors_.clear();
  for (NodeId v = 0; v < n; ++v) {
    if (nodes_[v].tier == Tier::Host) {
      endpoint_index_[v] = static_cast<std::uint32_t>(endpoints_.size());
      endpoints_.push_back(v);
    } else {
      switch_index_[v] = static_cast<std::uint32_t>(switches_.size());
      switches_.push_back(v);
    }
  }
  out_begin_.assign(n + 1, 0);
  for (const Link& l : links_) ++out_begin_[l.from + 1];
  for (std::size_t v = 0; v < n; ++v) out_begin_[v + 1] += out_begin_[v];
  out_.assign(links_.size(), 0);
  std::vector<std::uint32_t> fill(out_begin_.begin(), out_begin_.end() - 1);
  for (LinkId l = 0; l < links_.size(); ++l) out_[fill[links_[l].from]++] = l;

  const auto ne = static_cast<std::uint32_t>(endpoints_.size());
  uplink_.assign(ne, kNone);
  tor_of_.assign(ne, kNone);
  for (std::uint32_t e = 0; e < ne; ++e) {
    const auto out = out_links(endpoints_[e]);
    // One link to a switch, or a bond: every link in one port-channel, to one switch.
    const bool bond = out.size() > 1 && std::all_of(out.begin(), out.end(), [&](LinkId l) {
      return links_[l].lag != kNone && links_[l].lag == links_[out[0]].lag && links_[l].to == links_[out[0]].to;
    });
    if ((out.size() != 1 && !bond) || !is_switch(links_[out[0]].to))
      throw InputError({}, "endpoint '" + nodes_[endpoints_[e]].name + "' needs exactly one link, to a switch, or " +
                               "a bond to one switch (has " + std::to_string(out.size()) + ")");
    uplink_[e] = out[0];
    const NodeId tor = links_[out[0]].to;
    if (tor_index_[tor] == kNone) {
      tor_index_[tor] = static_cast<std::uint32_t>(tors_.size());
      tors_.push_back(tor);
    }
    tor_of_[e] = tor_index_[tor];
  }
  // ToR blocks: counting sort of endpoints by ToR keeps endpoint order within a ToR.
  const auto nt = tors_.size();
  tor_begin_.assign(nt + 1, 0);
  for (std::uint32_t t : tor_of_) ++tor_begin_[t + 1];
  for (std::size_t t = 0; t < nt; ++t) tor_begin_[t + 1] += tor_begin_[t];
  tor_members_.assign(ne, 0);
  tor_pos_.assign(ne, 0);
  std::vector<std::uint32_t> next(tor_begin_.begin(), tor_begin_.end() - 1);
  for (std::uint32_t e = 0; e < ne; ++e) {
    const std::uint32_t t = tor_of_[e];
    tor_pos_[e] = next[t] - tor_begin_[t];
    tor_members_[next[t]++] = e;
  }
  // One contiguous block per ToR: 256 addresses, or the next power of two
  // when a ToR holds more than 254 endpoints (network and broadcast kept free).
  std::uint64_t widest = 0;
  for (std::size_t t = 0; t < nt; ++t) widest = std::max<std::uint64_t>(widest, tor_begin_[t + 1] - tor_begin_[t]);
  std::uint64_t stride = 256;
  while (stride < widest + 2) stride *= 2;
  if (nt > 0 && !address_base.plus(stride * nt - 1))
    throw InputError({{}, 0, 0, "fabric.address_base"},
                     "address plan from " + hashing::format_ip(address_base) + " overflows the " +
                         std::string(hashing::family_name(address_base.family())) + " space (" + std::to_string(nt) +
                         " ToR blocks of " + std::to_string(stride) + " addresses)");
  base_ = address_base;
  stride_ = static_cast<std::uint32_t>(stride);
  for (std::uint32_t e = 0; e < ne; ++e) nodes_[endpoints_[e]].ip = *block_base(tor_of_[e]).plus(tor_pos_[e] + 1);
  for (const auto& [node, ip] : explicit_ip_) nodes_[node].ip = ip;

  if (server_names_.empty())
    for (NodeId v : endpoints_) add_server(nodes_[v].name, {v});
  server_nics_.clear();
  server_of_.assign(ne, kNone);
  for (std::uint32_t s = 0; s < server_names_.size(); ++s)
    for (std::uint32_t i = server_begin_[s]; i < server_begin_[s + 1]; ++i) {
      const std::uint32_t e = endpoint_index_[server_nic_nodes_[i]];
      if (e == kNone || server_of_[e] != kNone)
        throw InputError({}, "server '" + server_names_[s] + "': '" + nodes_[server_nic_nodes_[i]].name +
                                 "' is not an endpoint of its own");
      server_nics_.push_back(e);
      server_of_[e] = s;
    }
  for (std::uint32_t e = 0; e < ne; ++e)
    if (server_of_[e] == kNone)
      throw InputError({}, "endpoint '" + nodes_[endpoints_[e]].name + "' belongs to no server");
  index_hops();
  assign_macs(RouterMacs::PerPort, {});
}

void Fabric::index_hops() {
  switch_after_.assign(links_.size(), kNone);
  in_port_.assign(links_.size(), 0);
  for (NodeId v : switches_) {
    const auto out = out_links(v);
    for (std::size_t port = 0; port < out.size(); ++port) {
      const LinkId in = links_[out[port]].reverse;
      switch_after_[in] = switch_index_[v];
      in_port_[in] = static_cast<std::uint16_t>(port);
    }
  }
  switch_tor_.resize(switches_.size());
  for (std::size_t s = 0; s < switches_.size(); ++s) switch_tor_[s] = tor_index_[switches_[s]];
}

void Fabric::assign_macs(RouterMacs mode, std::span<const MacOverride> overrides) {
  constexpr std::uint64_t kMask = 0xFFFFFFFFFFFFull, kLocal = 0x020000000000ull;
  std::vector<std::uint64_t> base(nodes_.size());
  for (NodeId v = 0; v < nodes_.size(); ++v) base[v] = kLocal | std::uint64_t{v & 0xFFFFFFu} << 16;
  for (const MacOverride& o : overrides) {
    const NodeId v = find(o.node);
    if (v == kNone) throw InputError(o.where, "no node named '" + o.node + "'");
    base[v] = o.mac;
  }
  mac_.assign(links_.size(), 0);
  for (NodeId v = 0; v < nodes_.size(); ++v) {
    const auto out = out_links(v);
    const bool shared = mode == RouterMacs::PerSwitch && is_switch(v);
    for (std::size_t port = 0; port < out.size(); ++port) mac_[out[port]] = (base[v] + (shared ? 0 : port)) & kMask;
  }
}

NodeId unreachable_endpoint(const Fabric& fabric, std::span<const std::uint8_t> down) {
  const auto n = static_cast<NodeId>(fabric.nodes().size());
  // Working links out of switches, and out of the first endpoint (where the
  // search starts): endpoints do not forward, so no path runs through one.
  const NodeId origin = fabric.endpoint_node(0);
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (LinkId l = 0; l < fabric.links().size(); ++l) {
    const Link& link = fabric.link(l);
    if ((down.empty() || !down[l]) && (fabric.is_switch(link.from) || link.from == origin))
      edges.emplace_back(link.from, link.to);
  }
  std::sort(edges.begin(), edges.end());
  using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
  const Graph g(boost::edges_are_sorted, edges.begin(), edges.end(), n);
  std::vector<boost::default_color_type> color(n);
  boost::breadth_first_visit(g, origin, boost::color_map(color.data()));
  for (NodeId e : fabric.endpoints())
    if (color[e] == boost::white_color) return e;
  return kNone;
}

void check_connected(const Fabric& fabric, std::span<const std::uint8_t> down, const SourcePos& where) {
  if (fabric.endpoints().empty()) throw InputError(where, "the fabric has no endpoints");
  const NodeId e = unreachable_endpoint(fabric, down);
  if (e != kNone)
    throw InputError(where, "the fabric is disconnected: " + fabric.node(e).name + " cannot reach " +
                                fabric.node(fabric.endpoint_node(0)).name);
}

std::string Fabric::link_name(LinkId l) const {
  return nodes_[links_[l].from].name + "->" + nodes_[links_[l].to].name + cable_suffix(l);
}

std::string Fabric::cable_suffix(LinkId l) const {
  const Link& link = links_[l];
  std::size_t index = 0, parallel = 0;
  for (LinkId o : out_links(link.from))
    if (links_[o].to == link.to) {
      if (o == l) index = parallel;
      ++parallel;
    }
  return parallel > 1 ? "#" + std::to_string(index) : "";
}

}  // namespace ecmpsim
