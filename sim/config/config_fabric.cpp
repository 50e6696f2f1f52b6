#include <algorithm>
#include <array>

#include "sim/config/config_sections.h"

namespace ecmpsim::config {
namespace {

// Which kinds each kind-specific key applies to (bit per FabricKind).
constexpr unsigned LS = 1, FT = 2, RL = 4;
struct Applies {
  std::string_view key;
  unsigned kinds;
};
constexpr std::array kApplies{
    Applies{"leaves", LS},           Applies{"spines", LS | RL},           Applies{"hosts_per_leaf", LS},
    Applies{"links_per_pair", LS | RL}, Applies{"lag", LS | RL}, Applies{"host_speed_gbps", LS | FT | RL},
    Applies{"fabric_speed_gbps", LS | FT | RL}, Applies{"core_speed_gbps", FT}, Applies{"k", FT},
    Applies{"nodes", RL},            Applies{"nics_per_node", LS | FT | RL | 8}, Applies{"rail_leaf_nodes", RL},
    Applies{"file", 8},
};

// gpu_nics = [0, 0, [1, 2], ...]: per GPU a NIC index, or a list of NICs it
// takes by channel. Ranges against nics_per_node are checked in check_fabric,
// which knows it (a topology file sets it).
workloads::GpuNicMap read_gpu_nics(const toml::node& n, const SourcePos& at) {
  const auto* arr = n.as_array();
  if (!arr || arr->empty()) throw InputError(at, "expected an array with a NIC index (or a list of them) per GPU, e.g. [0, 0, 1, 1]");
  auto nic = [&](const toml::node& e, std::size_t gpu) {
    const auto v = e.value<std::int64_t>();
    if (!e.is_integer() || !v || *v < 0 || *v > 253)
      throw InputError(pos_of(e, at.file, at.field), "GPU " + std::to_string(gpu) + ": expected a NIC index in [0, 253]");
    return static_cast<std::uint32_t>(*v);
  };
  workloads::GpuNicMap map;
  for (std::size_t g = 0; g < arr->size(); ++g) {
    const toml::node& e = *arr->get(g);
    std::vector<std::uint32_t> near;
    if (const auto* list = e.as_array()) {
      for (const auto& x : *list) near.push_back(nic(x, g));
      if (near.empty()) throw InputError(pos_of(e, at.file, at.field), "GPU " + std::to_string(g) + ": an empty list of NICs");
    } else {
      near.push_back(nic(e, g));
    }
    map.near.push_back(std::move(near));
  }
  return map;
}

}  // namespace

std::vector<LinkRef> read_link_refs(const toml::node& n, const SourcePos& at) {
  const auto* arr = n.as_array();
  if (!arr) throw InputError(at, "expected an array of cable or switch names, e.g. [\"leaf0-spine1\", \"spine2\"]");
  std::vector<LinkRef> out;
  for (const auto& e : *arr) {
    const auto v = e.value<std::string>();
    const SourcePos eat = pos_of(e, at.file, at.field);
    if (!e.is_string() || !v || v->empty()) throw InputError(eat, "expected a cable (\"A-B\", \"A-B#n\") or switch name");
    out.push_back({*v, eat});
  }
  return out;
}

std::vector<LinkWeight> read_weights(const toml::node& n, const SourcePos& at) {
  const auto* t = n.as_table();
  if (!t) throw InputError(at, "expected a table of cable = weight, e.g. { \"leaf0-spine1\" = 2 }");
  std::vector<LinkWeight> out;
  for (const auto& [k, v] : *t) {
    const SourcePos vat = pos_of(v, at.file, std::string(at.field) + "." + std::string(k.str()));
    const auto w = v.value<std::int64_t>();
    if (!v.is_integer() || !w || *w < 1 || *w > 65535) throw InputError(vat, "weight must be an integer in [1, 65535]");
    out.push_back({{std::string(k.str()), vat}, static_cast<std::uint32_t>(*w)});
  }
  return out;
}

const std::vector<Knob<FabricSpec>>& fabric_knobs() {
  static const std::vector<Knob<FabricSpec>> k{
      enum_knob<FabricSpec>(
          "kind", "Topology generator: two-tier leaf-spine, k-ary fat-tree, rail-optimized, or an explicit file.",
          kFabricKinds, [](auto& s) -> auto& { return s.kind; }),
      uint_knob<FabricSpec>("leaves", "leaf-spine: number of leaf (ToR) switches.", 1, 4096,
                            [](auto& s) -> auto& { return s.leaf_spine.leaves; }),
      uint_knob<FabricSpec>("spines", "leaf-spine, rail: spine switches; every leaf connects to every spine.", 1,
                            4096, [](auto& s) -> auto& { return s.leaf_spine.spines; }),
      uint_knob<FabricSpec>("hosts_per_leaf", "leaf-spine: endpoints (NICs) attached to each leaf.", 1, 65536,
                            [](auto& s) -> auto& { return s.leaf_spine.hosts_per_leaf; }),
      uint_knob<FabricSpec>("links_per_pair",
                            "leaf-spine, rail: parallel links between each leaf and each spine; each is its own "
                            "ECMP member, unless `lag` makes them one port-channel.",
                            1, 64, [](auto& s) -> auto& { return s.leaf_spine.links_per_pair; }),
      bool_knob<FabricSpec>("lag",
                            "leaf-spine, rail: the links_per_pair links of a leaf and a spine are one port-channel "
                            "(LAG) each way: one next hop, the member chosen by the switch's LAG hash "
                            "([scenario.hash.lag]; docs/fabrics-and-routing.md#port-channels-lags-and-mlag).",
                            [](auto& s) -> auto& { return s.leaf_spine.lag; }),
      gbps_knob<FabricSpec>("host_speed_gbps", "Speed of each NIC-to-leaf (edge) link.",
                            [](auto& s) -> auto& { return s.leaf_spine.host_speed; }),
      gbps_knob<FabricSpec>("fabric_speed_gbps",
                            "Speed of each leaf-to-spine link (fat-tree: edge-to-aggregation and, unless "
                            "core_speed_gbps is set, aggregation-to-core).",
                            [](auto& s) -> auto& { return s.leaf_spine.fabric_speed; }),
      {"core_speed_gbps", "number", "fat-tree: speed of each aggregation-to-core link (default fabric_speed_gbps).",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) {
         const auto v = n.value<double>();
         if (!(n.is_integer() || n.is_floating_point()) || !v) throw InputError(at, "expected a number");
         if (!(*v > 0) || *v > 1e6) throw InputError(at, "speed must be in (0, 1e6] Gb/s");
         s.core_speed = Gbps{*v};
       },
       nullptr, "(0, 1e6]"},
      {"k", "integer", "fat-tree: the even port count k: k pods, (k/2)^2 cores, k^3/4 endpoints.",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) {
         const auto v = n.value<std::int64_t>();
         if (!n.is_integer() || !v) throw InputError(at, "expected an integer");
         if (*v < 2 || *v > 96) throw InputError(at, "value " + std::to_string(*v) + " out of range [2, 96]");
         if (*v % 2 != 0) throw InputError(at, "k must be even (k/2 edge and k/2 aggregation switches per pod), got " + std::to_string(*v));
         s.fat_tree_k = static_cast<std::uint32_t>(*v);
       },
       [](const FabricSpec& s) { return std::to_string(s.fat_tree_k); }, "[2, 96], even"},
      uint_knob<FabricSpec>("nodes", "rail: compute nodes, each with nics_per_node NICs.", 1, 1u << 20,
                            [](auto& s) -> auto& { return s.rail_nodes; }),
      uint_knob<FabricSpec>("nics_per_node",
                            "NICs per node (server), each its own endpoint with its own IP and access link; a "
                            "node's NICs are consecutive endpoints on one leaf (leaf-spine: hosts_per_leaf, "
                            "fat-tree: k/2 must be a multiple), or one NIC per rail (rail); file: the count of "
                            "every server's NICs in the topology file (given here, it must agree).",
                            1, 254, [](auto& s) -> auto& { return s.nics_per_node; }),
      uint_knob<FabricSpec>("gpus_per_node", "GPUs (ranks) per node.", 1, 1024,
                            [](auto& s) -> auto& { return s.gpus_per_node; }),
      {"gpu_nics", "array",
       "Per GPU of a node, the NIC close to it (its index among the node's NICs, NCCL's NET/IB/N; in "
       "nvidia-smi topo -m the GPU's PIX or PXB NIC), or a list of NICs it takes by channel: [0, 0, 1, 1]. "
       "One entry per GPU (gpus_per_node), each NIC below nics_per_node. Rings and trees start their "
       "channels on the NICs in GPU order, p2p and PXN use each GPU's NIC; default: NIC k close to GPUs "
       "kG/K .. (k+1)G/K-1 (docs/nccl-fidelity.md).",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) { s.gpu_nics = read_gpu_nics(n, at); }, nullptr,
       "each in [0, 253]"},
      uint_knob<FabricSpec>("nvlink_domain",
                            "GPUs per multi-node NVLink domain (GB200/GB300 NVL72: 72): consecutive nodes whose GPUs "
                            "share one NVLink fabric; NCCL treats a job's nodes in one domain as one node (MNNVL) and "
                            "only traffic between domains crosses this fabric. A multiple of gpus_per_node; 0 = each "
                            "node its own.",
                            0, 1u << 20, [](auto& s) -> auto& { return s.nvlink_domain; }),
      bool_knob<FabricSpec>("sharp",
                            "The switches reduce in the network (InfiniBand SHARP): NCCL's CollNet algorithms "
                            "(CollNetDirect, CollNetChain) and NVLS across nodes become available to jobs with "
                            "collnet = true.",
                            [](auto& s) -> auto& { return s.sharp; }),
      uint_knob<FabricSpec>("rail_leaf_nodes",
                            "rail: nodes per rail leaf; more nodes form groups, each with its own rail leaves "
                            "(0 = one leaf per rail).",
                            0, 65536, [](auto& s) -> auto& { return s.rail_leaf_nodes; }),
      {"file", "string", "file: explicit topology (.toml or .csv, relative to the config; see docs/fabrics-and-routing.md).",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a file path");
         s.topology = TopologySpec{};
         s.topology.source = relative_to(at.file, *v);  // read by parse_config, within --max-config-bytes
         check_topology_name(s.topology.source, at);
       },
       nullptr},
      {"weights", "table", "WCMP weight per cable, both directions: { \"leaf0-spine1\" = 3, \"leaf1-spine0#1\" = 2 }.",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) { s.weights = read_weights(n, at); }, nullptr,
       "each in [1, 65535]"},
      enum_knob<FabricSpec>("router_macs",
                            "Router interface MACs, which the src-mac and dst-mac hash fields read: each port its "
                            "own (base + port number) or every port the switch's base MAC (SONiC, EOS).",
                            kRouterMacs, [](auto& s) -> auto& { return s.router_macs; }),
      {"macs", "table",
       "Base MACs instead of the derived 02:NN:NN:NN:00:00 (NN the node's index): { \"leaf0\" = "
       "\"0c:42:a1:00:00:00\", \"host3\" = \"b8:ce:f6:00:00:03\" } (switches and endpoints).",
       [](const toml::node& n, FabricSpec& s, const SourcePos& at) {
         const auto* t = n.as_table();
         if (!t) throw InputError(at, "expected a table of node = \"MAC\", e.g. { \"leaf0\" = \"0c:42:a1:00:00:00\" }");
         for (const auto& [k, v] : *t) {
           const SourcePos vat = pos_of(v, at.file, std::string(at.field) + "." + std::string(k.str()));
           const auto str = v.value<std::string>();
           const auto mac = str ? parse_mac(*str) : std::nullopt;
           if (!v.is_string() || !mac) throw InputError(vat, "expected a MAC address \"xx:xx:xx:xx:xx:xx\"");
           s.macs.push_back({std::string(k.str()), *mac, vat});
         }
       },
       nullptr},
      ip_knob<FabricSpec>("address_base",
                          "First address of the plan: ToR t's endpoints get base + t*stride + 1, + 2, ... "
                          "(stride 256, or the next power of two above a ToR's endpoints + 2).",
                          [](auto& s) -> auto& { return s.address_base; }),
  };
  return k;
}

void check_fabric(const toml::table& table, FabricSpec& spec, const std::string& file) {
  const unsigned kind = 1u << static_cast<unsigned>(spec.kind);
  for (const auto& a : kApplies)
    if (const auto* n = table.get(a.key); n && !(a.kinds & kind))
      throw InputError(pos_of(*n, file, "fabric." + std::string(a.key)),
                       "does not apply to kind = \"" + std::string(name_of(kFabricKinds, spec.kind)) + "\"");
  auto at = [&](std::string_view key) {
    const auto* n = table.get(key);
    return n ? pos_of(*n, file, "fabric." + std::string(key)) : SourcePos{file, 0, 0, "fabric." + std::string(key)};
  };
  if (spec.kind == FabricKind::File && spec.topology.source.empty())
    throw InputError(at("kind"), "kind = \"file\" needs file = \"topology.toml\" (or .csv)");
  if (spec.kind == FabricKind::File) {
    // A file's servers say how many NICs a node has; the key, if given, must agree.
    const std::uint32_t k = spec.topology.nics_per_server;
    if (table.get("nics_per_node") && spec.nics_per_node != k)
      throw InputError(at("nics_per_node"), "the topology file '" + spec.topology.source + "' gives its servers " +
                                                std::to_string(k) + (k == 1 ? " NIC" : " NICs") + " each, not " +
                                                std::to_string(spec.nics_per_node));
    spec.nics_per_node = k;
  }
  if (spec.nvlink_domain != 0 && spec.nvlink_domain % spec.gpus_per_node != 0)
    throw InputError(at("nvlink_domain"), std::to_string(spec.nvlink_domain) + " GPUs is not a whole number of nodes of " +
                                              std::to_string(spec.gpus_per_node) + " (gpus_per_node)");
  const auto& near = spec.gpu_nics.near;
  if (!near.empty() && near.size() != spec.gpus_per_node)
    throw InputError(at("gpu_nics"), std::to_string(near.size()) + (near.size() == 1 ? " entry" : " entries") +
                                         " for gpus_per_node = " + std::to_string(spec.gpus_per_node) +
                                         ": give one per GPU");
  for (std::size_t g = 0; g < near.size(); ++g)
    for (std::size_t i = 0; i < near[g].size(); ++i) {
      if (near[g][i] >= spec.nics_per_node)
        throw InputError(at("gpu_nics"), "GPU " + std::to_string(g) + ": NIC " + std::to_string(near[g][i]) +
                                             " but a node has " + std::to_string(spec.nics_per_node) + " NIC" +
                                             (spec.nics_per_node == 1 ? "" : "s") + " (nics_per_node)");
      if (std::find(near[g].begin(), near[g].begin() + static_cast<std::ptrdiff_t>(i), near[g][i]) != near[g].begin() + static_cast<std::ptrdiff_t>(i))
        throw InputError(at("gpu_nics"), "GPU " + std::to_string(g) + ": NIC " + std::to_string(near[g][i]) + " twice");
    }
  if (spec.kind == FabricKind::LeafSpine && spec.leaf_spine.hosts_per_leaf % spec.nics_per_node != 0)
    throw InputError(at("nics_per_node"), "hosts_per_leaf (" + std::to_string(spec.leaf_spine.hosts_per_leaf) +
                                              ") is not a multiple of nics_per_node (" +
                                              std::to_string(spec.nics_per_node) + ")");
  if (spec.kind == FabricKind::FatTree && (spec.fat_tree_k / 2) % spec.nics_per_node != 0)
    throw InputError(at("nics_per_node"), "k/2 (" + std::to_string(spec.fat_tree_k / 2) +
                                              " endpoints per edge) is not a multiple of nics_per_node (" +
                                              std::to_string(spec.nics_per_node) + ")");
}

}  // namespace ecmpsim::config
