#include "sim/fabric/fabric.h"

#include <algorithm>

namespace ecmpsim {

NodeId Fabric::add_node(std::string name, Tier tier) {
  nodes_.push_back({std::move(name), tier, 0});
  return static_cast<NodeId>(nodes_.size() - 1);
}

LinkId Fabric::add_cable(NodeId a, NodeId b, Gbps speed, std::uint32_t weight) {
  const auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, speed, id + 1, true, weight});
  links_.push_back({b, a, speed, id, true, weight});
  return id;
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

void Fabric::finalize(std::uint32_t address_base) {
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
    if (out.size() != 1 || !is_switch(links_[out[0]].to))
      throw InputError({}, "endpoint '" + nodes_[endpoints_[e]].name + "' needs exactly one link, to a switch (has " +
                               std::to_string(out.size()) + ")");
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
  if (std::uint64_t{address_base} + stride * nt > 0x100000000ULL)
    throw InputError({{}, 0, 0, "fabric.address_base"},
                     "address plan overflows the IPv4 space (" + std::to_string(nt) + " ToR blocks of " +
                         std::to_string(stride) + " addresses)");
  base_ = address_base;
  stride_ = static_cast<std::uint32_t>(stride);
  for (std::uint32_t e = 0; e < ne; ++e) nodes_[endpoints_[e]].ip = block_base(tor_of_[e]) + tor_pos_[e] + 1;

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
}

void check_connected(const Fabric& fabric, std::span<const std::uint8_t> down, const SourcePos& where) {
  const auto n = fabric.nodes().size();
  if (fabric.endpoints().empty()) throw InputError(where, "the fabric has no endpoints");
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<NodeId> stack{fabric.endpoint_node(0)};
  seen[stack.back()] = 1;
  while (!stack.empty()) {
    const NodeId v = stack.back();
    stack.pop_back();
    // Endpoints do not forward: only the first one is expanded.
    if (!fabric.is_switch(v) && v != fabric.endpoint_node(0)) continue;
    for (LinkId l : fabric.out_links(v)) {
      if (!down.empty() && down[l]) continue;
      const NodeId w = fabric.link(l).to;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back(w);
      }
    }
  }
  for (NodeId e : fabric.endpoints())
    if (!seen[e])
      throw InputError(where, "the fabric is disconnected: " + fabric.node(e).name + " cannot reach " +
                                  fabric.node(fabric.endpoint_node(0)).name);
}

}  // namespace ecmpsim
