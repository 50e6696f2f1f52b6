#include "sim/config.h"

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
    } else if (key == "workload") {
      config::read_section<WorkloadSpec>(expect_table(node, at), workload_knobs(), spec.workload, path, key);
    } else if (key == "scenario") {
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[scenario]] tables");
      for (const auto& e : *arr) {
        const SourcePos sat = config::pos_of(e, path, key);
        ScenarioSpec s;
        config::read_section<ScenarioSpec>(expect_table(e, sat), scenario_knobs(), s, path, key);
        if (s.name.empty()) throw InputError(sat, "scenario needs a name");
        for (const auto& other : spec.scenarios)
          if (other.name == s.name) throw InputError(sat, "duplicate scenario name '" + s.name + "'");
        if (s.routing == RoutingKind::Static && s.policy == StaticPolicy::Table && s.routes.empty())
          throw InputError(sat, "static scenario '" + s.name + "' has no routes and no generated policy");
        spec.scenarios.push_back(std::move(s));
      }
    } else if (key == "sweep") {
      config::read_section<SweepSpec>(expect_table(node, at), sweep_knobs(), spec.sweep, path, key);
    } else {
      throw InputError(at, "unknown section");
    }
  }
  if (spec.scenarios.empty()) {
    ScenarioSpec s;
    s.name = "ecmp";
    spec.scenarios.push_back(s);
  }
  const auto& ls = spec.fabric.leaf_spine;
  const std::uint64_t endpoints = std::uint64_t{ls.leaves} * ls.hosts_per_leaf;
  if (spec.workload.nodes > endpoints) {
    const auto* n = root.at_path("workload.nodes").node();
    throw InputError(n ? config::pos_of(*n, path, "workload.nodes") : SourcePos{path, 0, 0, "workload.nodes"},
                     "job has " + std::to_string(spec.workload.nodes) + " nodes but the fabric has only " +
                         std::to_string(endpoints) + " endpoints");
  }
  if (std::uint64_t{spec.fabric.address_base} + std::uint64_t{ls.leaves} * 256 > 0xFFFFFFFFull)
    throw InputError({path, 0, 0, "fabric.address_base"}, "address plan overflows the IPv4 space");
  return spec;
}

std::string config_reference() {
  std::string out;
  config::append_reference<FabricSpec>(out, "fabric", fabric_knobs());
  config::append_reference<WorkloadSpec>(out, "workload", workload_knobs());
  config::append_reference<ScenarioSpec>(out, "[scenario]]", scenario_knobs());
  config::append_reference<HashSpec>(out, "scenario.hash", hash_knobs());
  config::append_reference<StaticRoute>(out, "[scenario.routes]]", route_knobs());
  config::append_reference<SweepSpec>(out, "sweep", sweep_knobs());
  return out;
}

}  // namespace ecmpsim
