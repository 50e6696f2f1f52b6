#include "sim/config_sections.h"

namespace ecmpsim::config {
namespace {

std::optional<bool> parse_leaf_spine(std::string_view s) {
  if (s == "leaf-spine") return true;
  return std::nullopt;
}

}  // namespace

const std::vector<Knob<FabricSpec>>& fabric_knobs() {
  static const std::vector<Knob<FabricSpec>> k{
      {"kind", "\"leaf-spine\"", "Topology generator: a two-tier leaf-spine (Clos).",
       [](const toml::node& n, FabricSpec&, const SourcePos& at) {
         const auto s = n.value<std::string>();
         if (!n.is_string() || !s || !parse_leaf_spine(*s))
           throw InputError(at, "unknown fabric kind, expected \"leaf-spine\"");
       },
       [](const FabricSpec&) { return std::string("\"leaf-spine\""); }},
      uint_knob<FabricSpec>("leaves", "Number of leaf (ToR) switches.", 1, 4096,
                            [](auto& s) -> auto& { return s.leaf_spine.leaves; }),
      uint_knob<FabricSpec>("spines", "Number of spine switches; every leaf connects to every spine.", 1, 4096,
                            [](auto& s) -> auto& { return s.leaf_spine.spines; }),
      uint_knob<FabricSpec>("hosts_per_leaf", "Endpoints (NICs) attached to each leaf.", 1, 254,
                            [](auto& s) -> auto& { return s.leaf_spine.hosts_per_leaf; }),
      uint_knob<FabricSpec>("links_per_pair",
                            "Parallel links between each leaf and each spine; each is its own ECMP member.", 1, 64,
                            [](auto& s) -> auto& { return s.leaf_spine.links_per_pair; }),
      gbps_knob<FabricSpec>("host_speed_gbps", "Speed of each NIC-to-leaf link.",
                            [](auto& s) -> auto& { return s.leaf_spine.host_speed; }),
      gbps_knob<FabricSpec>("fabric_speed_gbps", "Speed of each leaf-to-spine link.",
                            [](auto& s) -> auto& { return s.leaf_spine.fabric_speed; }),
      uint_knob<FabricSpec>("nics_per_node",
                            "NICs per node (server), each its own endpoint with its own IP and access link; a "
                            "node's NICs are consecutive endpoints on one leaf (hosts_per_leaf must be a multiple).",
                            1, 254, [](auto& s) -> auto& { return s.nics_per_node; }),
      uint_knob<FabricSpec>("gpus_per_node", "GPUs (ranks) per node.", 1, 1024,
                            [](auto& s) -> auto& { return s.gpus_per_node; }),
      ip_knob<FabricSpec>("address_base",
                          "First address of the plan: leaf t's hosts get base + t*256 + 1, + 2, ...",
                          [](auto& s) -> auto& { return s.address_base; }),
  };
  return k;
}

}  // namespace ecmpsim::config
