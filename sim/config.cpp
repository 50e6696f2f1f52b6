#include "sim/config.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "sim/config_sections.h"

namespace ecmpsim {
namespace {

using namespace config;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0, {}}, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError({path, 0, 0, {}}, "cannot read file");
  return ss.str();
}

std::uint64_t endpoint_count(const FabricSpec& f) {
  switch (f.kind) {
    case FabricKind::LeafSpine: return std::uint64_t{f.leaf_spine.leaves} * f.leaf_spine.hosts_per_leaf;
    case FabricKind::FatTree: return std::uint64_t{f.fat_tree_k} * f.fat_tree_k * f.fat_tree_k / 4;
    case FabricKind::Rail: return std::uint64_t{f.rail_nodes} * f.nics_per_node;
    case FabricKind::File:
      return static_cast<std::uint64_t>(std::count_if(f.topology.nodes.begin(), f.topology.nodes.end(),
                                                       [](const TopologyNode& n) { return n.tier == Tier::Host; }));
  }
  return 0;
}

}  // namespace

namespace config {
SourcePos pos_of(const toml::node& n, const std::string& file, std::string_view key) {
  const auto& src = n.source();
  return {file, src.begin.line, src.begin.column, std::string(key)};
}
}  // namespace config

Spec load_config(const std::string& path) { return parse_config(read_file(path), path); }

Spec parse_config(std::string_view text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError({path, b.line, b.column, {}}, std::string(e.description()));
  }
  Spec spec;
  spec.source = path;
  const SourcePos file_pos{path, 0, 0, {}};
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    const SourcePos at = config::pos_of(node, path, key);
    if (key == "fabric") {
      config::read_section<FabricSpec>(expect_table(node, at), fabric_knobs(), spec.fabric, path, key);
      config::check_fabric(*node.as_table(), spec.fabric, path);
    } else if (key == "workload") {
      config::read_section<WorkloadSpec>(expect_table(node, at), workload_knobs(), spec.workload, path, key);
    } else if (key == "scenario") {
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[scenario]] tables");
      for (const auto& e : *arr) {
        const SourcePos sat = config::pos_of(e, path, key);
        ScenarioSpec s;
        const auto& table = expect_table(e, sat);
        if (const auto* b = table.get("base")) {
          const auto name = b->value<std::string>();
          const auto it = std::find_if(spec.scenarios.begin(), spec.scenarios.end(),
                                       [&](const ScenarioSpec& o) { return name && o.name == *name; });
          if (it == spec.scenarios.end())
            throw InputError(config::pos_of(*b, path, "scenario.base"),
                             "no earlier scenario named '" + name.value_or("") + "'");
          s = *it;
          s.base = it->name;
          s.name.clear();
        }
        config::read_section<ScenarioSpec>(table, scenario_knobs(), s, path, key);
        if (s.name.empty()) throw InputError(sat, "scenario needs a name");
        for (const auto& other : spec.scenarios)
          if (other.name == s.name) throw InputError(sat, "duplicate scenario name '" + s.name + "'");
        if (s.routing == RoutingKind::Static && s.policy == StaticPolicy::Table && s.routes.empty())
          throw InputError(sat, "static scenario '" + s.name + "' has no routes and no generated policy");
        spec.scenarios.push_back(std::move(s));
      }
    } else {
      throw InputError(at, "unknown section");
    }
  }
  if (spec.scenarios.empty()) {
    ScenarioSpec s;
    s.name = "ecmp";
    spec.scenarios.push_back(s);
  }
  const std::uint64_t endpoints = endpoint_count(spec.fabric);
  if (spec.workload.nodes > endpoints) {
    const auto* n = root.at_path("workload.nodes").node();
    throw InputError(n ? config::pos_of(*n, path, "workload.nodes") : SourcePos{path, 0, 0, "workload.nodes"},
                     "job has " + std::to_string(spec.workload.nodes) + " nodes but the fabric has only " +
                         std::to_string(endpoints) + " endpoints");
  }
  return spec;
}

std::string config_reference() {
  std::string out;
  config::append_reference<FabricSpec>(out, "fabric", fabric_knobs());
  config::append_reference<WorkloadSpec>(out, "workload", workload_knobs());
  config::append_reference<ScenarioSpec>(out, "[scenario]]", scenario_knobs());
  config::append_reference<HashSpec>(out, "scenario.hash", hash_knobs());
  config::append_reference<StaticRoute>(out, "[scenario.routes]]", route_knobs());
  out += "[scenario.hash.leaf], [scenario.hash.spine], [scenario.hash.core], [[scenario.hash.switch]] (+ name)\n"
         "      The keys of [scenario.hash], replacing the scenario's default for that tier or switch.\n";
  return out;
}

}  // namespace ecmpsim
