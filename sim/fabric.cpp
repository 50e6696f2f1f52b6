#include "sim/fabric.h"

#include <cassert>

namespace ecmpsim {

NodeId Fabric::add_node(std::string name, Tier tier, std::uint32_t ip) {
  nodes_.push_back({std::move(name), tier, ip});
  return static_cast<NodeId>(nodes_.size() - 1);
}

LinkId Fabric::add_cable(NodeId a, NodeId b, Gbps speed) {
  const auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, speed, id + 1, true});
  links_.push_back({b, a, speed, id, true});
  return id;
}

NodeId Fabric::find(std::string_view name) const {
  for (NodeId n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].name == name) return n;
  return kNone;
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

void Fabric::finalize() {
  const auto n = nodes_.size();
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

  uplink_.assign(endpoints_.size(), kNone);
  tor_of_.assign(endpoints_.size(), kNone);
  for (std::uint32_t e = 0; e < endpoints_.size(); ++e) {
    const auto out = out_links(endpoints_[e]);
    assert(out.size() == 1 && "an endpoint has exactly one access link");
    uplink_[e] = out[0];
    const NodeId tor = links_[out[0]].to;
    if (tor_index_[tor] == kNone) {
      tor_index_[tor] = static_cast<std::uint32_t>(tors_.size());
      tors_.push_back(tor);
    }
    tor_of_[e] = tor_index_[tor];
  }

  if (server_names_.empty())
    for (NodeId v : endpoints_) add_server(nodes_[v].name, {v});
  server_nics_.clear();
  server_of_.assign(endpoints_.size(), kNone);
  for (std::uint32_t s = 0; s < server_names_.size(); ++s)
    for (std::uint32_t i = server_begin_[s]; i < server_begin_[s + 1]; ++i) {
      const std::uint32_t e = endpoint_index_[server_nic_nodes_[i]];
      assert(e != kNone && server_of_[e] == kNone && "a server's NICs are endpoints of no other server");
      server_nics_.push_back(e);
      server_of_[e] = s;
    }
}

Fabric build_fabric(const FabricSpec& spec) {
  const LeafSpineSpec& ls = spec.leaf_spine;
  Fabric f;
  std::vector<NodeId> leaves, spines;
  for (std::uint32_t t = 0; t < ls.leaves; ++t) leaves.push_back(f.add_node("leaf" + std::to_string(t), Tier::Leaf));
  for (std::uint32_t s = 0; s < ls.spines; ++s) spines.push_back(f.add_node("spine" + std::to_string(s), Tier::Spine));
  const std::uint32_t per_node = spec.nics_per_node;
  assert(per_node >= 1 && ls.hosts_per_leaf % per_node == 0);
  std::vector<NodeId> nics;
  for (std::uint32_t t = 0; t < ls.leaves; ++t) {
    for (std::uint32_t h = 0; h < ls.hosts_per_leaf; ++h) {
      const std::uint32_t k = t * ls.hosts_per_leaf + h;
      const std::string node_name = per_node == 1 ? "host" + std::to_string(k) : "node" + std::to_string(k / per_node);
      const std::string name = per_node == 1 ? node_name : node_name + ".nic" + std::to_string(k % per_node);
      const NodeId host = f.add_node(name, Tier::Host, spec.address_base + t * 256 + h + 1);
      f.add_cable(host, leaves[t], ls.host_speed);
      nics.push_back(host);
      if (nics.size() == per_node) {
        f.add_server(node_name, std::move(nics));
        nics.clear();
      }
    }
  }
  for (std::uint32_t t = 0; t < ls.leaves; ++t)
    for (std::uint32_t s = 0; s < ls.spines; ++s)
      for (std::uint32_t p = 0; p < ls.links_per_pair; ++p) f.add_cable(leaves[t], spines[s], ls.fabric_speed);
  f.finalize();
  return f;
}

}  // namespace ecmpsim
