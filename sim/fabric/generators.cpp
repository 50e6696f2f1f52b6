// Topology generators: each kind of [fabric] builds nodes and cables in a
// fixed order (endpoints in order, cables host-first), so endpoint indices,
// addresses and equal-cost member order are reproducible.
#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "sim/fabric/fabric.h"
#include "sim/fabric/failures.h"

namespace ecmpsim {
namespace {

std::string num(std::string prefix, std::uint32_t i) { return prefix + std::to_string(i); }

// The links_per_pair cables between a leaf and a spine: each its own
// equal-cost member, or (lag = true) one port-channel each way, named after
// the switch at its other end.
void leaf_spine_cables(const FabricSpec& spec, Fabric& f, NodeId leaf, NodeId spine) {
  const LeafSpineSpec& ls = spec.leaf_spine;
  for (std::uint32_t p = 0; p < ls.links_per_pair; ++p) {
    const LinkId up = f.add_cable(leaf, spine, ls.fabric_speed);
    if (!ls.lag) continue;
    f.join_lag(up, "po-" + f.node(spine).name);
    f.join_lag(up + 1, "po-" + f.node(leaf).name);
  }
}

// Endpoint K (global) of a generator that puts a node's NICs on one leaf:
// with one NIC per node the NIC and its node are "hostK"; with P > 1 node n
// is "nodeN" and its NICs "nodeN.nicI" (endpoints n*P .. n*P+P-1).
NodeId add_endpoint(Fabric& f, std::uint32_t k, std::uint32_t per_node, std::vector<NodeId>& nics) {
  const std::string node_name = per_node == 1 ? num("host", k) : num("node", k / per_node);
  const NodeId host = f.add_node(per_node == 1 ? node_name : node_name + num(".nic", k % per_node), Tier::Host);
  nics.push_back(host);
  if (nics.size() == per_node) {
    f.add_server(node_name, std::move(nics));
    nics.clear();
  }
  return host;
}

// Two tiers: leaves "leafI", spines "spineJ", endpoints as add_endpoint names them.
void leaf_spine(const FabricSpec& spec, Fabric& f) {
  const LeafSpineSpec& ls = spec.leaf_spine;
  std::vector<NodeId> leaves, spines;
  for (std::uint32_t t = 0; t < ls.leaves; ++t) leaves.push_back(f.add_node(num("leaf", t), Tier::Leaf));
  for (std::uint32_t s = 0; s < ls.spines; ++s) spines.push_back(f.add_node(num("spine", s), Tier::Spine));
  std::vector<NodeId> nics;
  for (std::uint32_t t = 0; t < ls.leaves; ++t)
    for (std::uint32_t h = 0; h < ls.hosts_per_leaf; ++h)
      f.add_cable(add_endpoint(f, t * ls.hosts_per_leaf + h, spec.nics_per_node, nics), leaves[t], ls.host_speed);
  for (std::uint32_t t = 0; t < ls.leaves; ++t)
    for (std::uint32_t s = 0; s < ls.spines; ++s) leaf_spine_cables(spec, f, leaves[t], spines[s]);
}

// Al-Fares k-ary fat-tree: pods p < k with edges "podP-edgeI" and aggregation
// switches "podP-aggJ" (I, J < k/2), every edge linked to every aggregation
// switch of its pod; cores "coreC" (C < (k/2)^2), core C linked to aggregation
// switch C / (k/2) of every pod; k/2 endpoints per edge, named as add_endpoint does.
void fat_tree(const FabricSpec& spec, Fabric& f) {
  const std::uint32_t k = spec.fat_tree_k, half = k / 2;
  const Gbps up = spec.leaf_spine.fabric_speed;
  const Gbps core = spec.core_speed.value > 0 ? spec.core_speed : up;
  std::vector<NodeId> edge, agg, cores;
  for (std::uint32_t p = 0; p < k; ++p) {
    const std::string pod = num("pod", p);
    for (std::uint32_t i = 0; i < half; ++i) edge.push_back(f.add_node(pod + num("-edge", i), Tier::Leaf));
    for (std::uint32_t j = 0; j < half; ++j) agg.push_back(f.add_node(pod + num("-agg", j), Tier::Spine));
  }
  for (std::uint32_t c = 0; c < half * half; ++c) cores.push_back(f.add_node(num("core", c), Tier::Core));
  std::vector<NodeId> nics;
  for (std::uint32_t e = 0; e < k * half; ++e)
    for (std::uint32_t h = 0; h < half; ++h)
      f.add_cable(add_endpoint(f, e * half + h, spec.nics_per_node, nics), edge[e], spec.leaf_spine.host_speed);
  for (std::uint32_t p = 0; p < k; ++p)
    for (std::uint32_t i = 0; i < half; ++i)
      for (std::uint32_t j = 0; j < half; ++j) f.add_cable(edge[p * half + i], agg[p * half + j], up);
  for (std::uint32_t p = 0; p < k; ++p)
    for (std::uint32_t j = 0; j < half; ++j)
      for (std::uint32_t m = 0; m < half; ++m) f.add_cable(agg[p * half + j], cores[j * half + m], core);
}

// Rail-optimized: N nodes "nodeN" with K NICs "nodeN.nicK"; NIC k of every
// node sits on rail k's leaf; when a leaf holds only G nodes, nodes form
// groups of G and group g's rail k is leaf "railK-leafG". Every rail leaf is
// linked to every spine "spineJ".
void rail(const FabricSpec& spec, Fabric& f) {
  const std::uint32_t n = spec.rail_nodes, k = spec.nics_per_node;
  const std::uint32_t g = spec.rail_leaf_nodes == 0 ? n : spec.rail_leaf_nodes;
  const std::uint32_t groups = (n + g - 1) / g;
  const LeafSpineSpec& ls = spec.leaf_spine;
  std::vector<NodeId> leaves, spines;
  for (std::uint32_t grp = 0; grp < groups; ++grp)
    for (std::uint32_t r = 0; r < k; ++r) leaves.push_back(f.add_node(num("rail", r) + num("-leaf", grp), Tier::Leaf));
  for (std::uint32_t s = 0; s < ls.spines; ++s) spines.push_back(f.add_node(num("spine", s), Tier::Spine));
  for (std::uint32_t node = 0; node < n; ++node) {
    std::vector<NodeId> nics;
    for (std::uint32_t r = 0; r < k; ++r) {
      nics.push_back(f.add_node(num("node", node) + num(".nic", r), Tier::Host));
      f.add_cable(nics.back(), leaves[(node / g) * k + r], ls.host_speed);
    }
    f.add_server(num("node", node), std::move(nics));
  }
  for (NodeId leaf : leaves)
    for (NodeId s : spines) leaf_spine_cables(spec, f, leaf, s);
}

// A topology file's nodes in file order (node i is NodeId i) and its servers
// as the reader grouped and ordered them (TopologySpec::servers).
void from_file(const TopologySpec& topo, hashing::Family family, Fabric& f) {
  std::unordered_map<std::string, NodeId> ids;
  std::vector<std::uint32_t> degree;
  std::vector<bool> bonded(topo.nodes.size(), false);  // an endpoint with a bond (finalize checks it)
  for (const TopologyNode& n : topo.nodes) {
    const NodeId id = f.add_node(n.name, n.tier);
    if (!ids.try_emplace(n.name, id).second) throw InputError(n.where, "duplicate node name '" + n.name + "'");
    degree.push_back(0);
    if (!n.address) continue;
    if (n.address->family() != family)
      throw InputError(n.address_at, "address " + hashing::format_ip(*n.address) + " is " +
                                         std::string(hashing::family_name(n.address->family())) +
                                         " but the fabric's address plan is " +
                                         std::string(hashing::family_name(family)) + " (one family per fabric)");
    f.set_address(id, *n.address);
  }
  for (const TopologyServer& s : topo.servers) f.add_server(s.name, std::vector<NodeId>(s.nics.begin(), s.nics.end()));
  for (const TopologyLink& l : topo.links) {
    const auto a = ids.find(l.a), b = ids.find(l.b);
    if (a == ids.end()) throw InputError(l.where, "link from unknown node '" + l.a + "'");
    if (b == ids.end()) throw InputError(l.where, "link to unknown node '" + l.b + "'");
    if (a->second == b->second) throw InputError(l.where, "link from '" + l.a + "' to itself");
    const bool ha = topo.nodes[a->second].tier == Tier::Host, hb = topo.nodes[b->second].tier == Tier::Host;
    if (ha && hb) throw InputError(l.where, "link between two endpoints '" + l.a + "' and '" + l.b + "'");
    if (hb && !l.lag.empty()) throw InputError(l.where, "a bond is the endpoint's: write the endpoint first (link," + l.b + "," + l.a + ",...)");
    if ((ha || hb) && l.count != 1 && l.lag.empty())
      throw InputError(l.where, "an endpoint has exactly one link (count must be 1), or a bond (name its LAG)");
    for (std::uint32_t c = 0; c < l.count; ++c) {
      const LinkId ab = f.add_cable(a->second, b->second, l.speed, l.weight);
      if (l.lag.empty()) continue;
      f.join_lag(ab, l.lag);                // a's port-channel
      f.join_lag(ab + 1, l.a + ":" + l.lag);  // b's, towards a's
    }
    degree[a->second] += l.count;
    degree[b->second] += l.count;
    bonded[a->second] = bonded[a->second] || (ha && !l.lag.empty());
  }
  for (std::size_t i = 0; i < topo.nodes.size(); ++i)
    if (topo.nodes[i].tier == Tier::Host && degree[i] != 1 && !bonded[i])
      throw InputError(topo.nodes[i].where, "endpoint '" + topo.nodes[i].name + "' needs exactly one link, has " +
                                                std::to_string(degree[i]));
}

// Two endpoints with one address (two given, or one given where the plan put
// another) would make flows' addresses ambiguous: an error at the second's row.
void check_unique_addresses(const Fabric& f, const TopologySpec& topo) {
  std::vector<std::pair<hashing::IpAddr, NodeId>> ips;
  for (const NodeId v : f.endpoints()) ips.emplace_back(f.node(v).ip, v);
  std::sort(ips.begin(), ips.end());
  for (std::size_t i = 1; i < ips.size(); ++i) {
    if (ips[i].first != ips[i - 1].first) continue;
    const NodeId a = std::min(ips[i].second, ips[i - 1].second), b = std::max(ips[i].second, ips[i - 1].second);
    // Reported at the later row that gives an address (one of them does).
    const bool b_given = topo.nodes[b].address.has_value();
    const TopologyNode& here = b_given ? topo.nodes[b] : topo.nodes[a];
    const TopologyNode& other = b_given ? topo.nodes[a] : topo.nodes[b];
    throw InputError(here.address_at, "address " + hashing::format_ip(ips[i].first) + " of endpoint '" + here.name +
                                          "' is also endpoint '" + other.name + "''s (line " +
                                          std::to_string(other.where.line) + (other.address ? "" : ", from the address plan") +
                                          "): every endpoint needs its own");
  }
}

}  // namespace

std::uint64_t endpoint_count(const FabricSpec& spec) {
  // Leaf-spine and fat-tree count NIC endpoints per leaf (nodes group them);
  // a rail fabric counts nodes, each with nics_per_node NICs.
  switch (spec.kind) {
    case FabricKind::LeafSpine: return std::uint64_t{spec.leaf_spine.leaves} * spec.leaf_spine.hosts_per_leaf;
    case FabricKind::FatTree: return std::uint64_t{spec.fat_tree_k} * spec.fat_tree_k * spec.fat_tree_k / 4;
    case FabricKind::Rail: return std::uint64_t{spec.rail_nodes} * spec.nics_per_node;
    case FabricKind::File:
      return static_cast<std::uint64_t>(std::count_if(spec.topology.nodes.begin(), spec.topology.nodes.end(),
                                                      [](const TopologyNode& n) { return n.tier == Tier::Host; }));
  }
  return 0;
}

namespace {

// Products and sums of the generators' counts, saturating rather than wrapping.
std::uint64_t counts_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? ~0ULL : r;
}
std::uint64_t counts_add(std::uint64_t a, std::uint64_t b) { return a + b < a ? ~0ULL : a + b; }

}  // namespace

FabricCounts fabric_counts(const FabricSpec& spec) {
  const LeafSpineSpec& ls = spec.leaf_spine;
  const std::uint64_t hosts = endpoint_count(spec);  // one cable each, to its leaf
  switch (spec.kind) {
    case FabricKind::LeafSpine:
      return {std::uint64_t{ls.leaves} + ls.spines,
              counts_add(hosts, counts_mul(counts_mul(ls.leaves, ls.spines), ls.links_per_pair)),
              ls.hosts_per_leaf == 0 ? 0 : std::uint64_t{ls.leaves}};
    case FabricKind::FatTree: {
      // k pods of k/2 edges and k/2 aggregations, (k/2)^2 cores; each tier pair k (k/2)^2 cables.
      const std::uint64_t k = spec.fat_tree_k, half = k / 2;
      return {k * k + half * half, 3 * k * half * half, k * half};
    }
    case FabricKind::Rail: {
      const std::uint64_t g = spec.rail_leaf_nodes == 0 ? spec.rail_nodes : spec.rail_leaf_nodes;
      const std::uint64_t leaves = counts_mul(g == 0 ? 0 : (spec.rail_nodes + g - 1) / g, spec.nics_per_node);
      return {counts_add(leaves, ls.spines), counts_add(hosts, counts_mul(counts_mul(leaves, ls.spines), ls.links_per_pair)),
              leaves};
    }
    case FabricKind::File: {
      FabricCounts c;
      std::unordered_set<std::string_view> hosts_of, tors;
      for (const TopologyNode& n : spec.topology.nodes) {
        c.switches += n.tier != Tier::Host;
        if (n.tier == Tier::Host) hosts_of.insert(n.name);
      }
      for (const TopologyLink& l : spec.topology.links) {
        c.cables = counts_add(c.cables, l.count);
        if (hosts_of.contains(l.a)) tors.insert(l.b);
        if (hosts_of.contains(l.b)) tors.insert(l.a);
      }
      c.tors = tors.size();
      return c;
    }
  }
  return {};
}

Fabric build_fabric(const FabricSpec& spec) {
  Fabric f;
  const SourcePos file_pos{spec.kind == FabricKind::File ? spec.topology.source : std::string(), 0, 0, {}};
  switch (spec.kind) {
    case FabricKind::LeafSpine: leaf_spine(spec, f); break;
    case FabricKind::FatTree: fat_tree(spec, f); break;
    case FabricKind::Rail: rail(spec, f); break;
    case FabricKind::File: from_file(spec.topology, spec.address_base.family(), f); break;
  }
  try {
    f.finalize(spec.address_base);
  } catch (const InputError& e) {
    // An overflowing plan is the address_base key's fault: point at it when the config set it.
    if (e.where().field == "fabric.address_base" && spec.address_base_at.line != 0)
      throw InputError(spec.address_base_at, e.what());
    if (spec.kind != FabricKind::File || !e.where().field.empty()) throw;
    throw InputError(file_pos, e.what());
  }
  // A topology file's disconnected endpoint is named at its own line.
  if (spec.kind == FabricKind::File && !f.endpoints().empty())
    if (const NodeId e = unreachable_endpoint(f, {}); e != kNone)
      for (const TopologyNode& n : spec.topology.nodes)
        if (n.name == f.node(e).name)
          throw InputError(n.where.line ? n.where : file_pos,
                           "the fabric is disconnected: " + n.name + " cannot reach " +
                               f.node(f.endpoint_node(0)).name);
  check_connected(f, {}, file_pos);
  if (f.has_explicit_addresses()) check_unique_addresses(f, spec.topology);
  f.assign_macs(spec.router_macs, spec.macs);
  for (const LinkWeight& w : spec.weights)
    for (LinkId l : resolve_cables(f, w.cable)) f.set_weight(l, w.weight);
  return f;
}

}  // namespace ecmpsim
