// The knob tables of each config section (one file per section).
#pragma once

#include <memory>
#include <vector>

#include "sim/config/knobs.h"
#include "sim/config/spec.h"
#include "sim/config/topology_file.h"

namespace ecmpsim::config {

const std::vector<Knob<FabricSpec>>& fabric_knobs();
const std::vector<Knob<JobSpec>>& job_knobs();
// A training job's shape against its nodes (its node count filled in when
// not given); InputError at the job otherwise.
void check_training(JobSpec& job, std::uint32_t gpus_per_node);
const std::vector<Knob<ScenarioSpec>>& scenario_knobs();
const std::vector<Knob<HashSpec>>& hash_knobs();
const std::vector<Knob<StaticRoute>>& route_knobs();
const std::vector<Knob<SweepSpec>>& sweep_knobs();
// [hosts] and [calibration] (sim/config/config_hosts.cpp).
const std::vector<Knob<HostSpec>>& host_knobs();
// The size table's job keys (sim/config/config_sizes.cpp).
Knob<JobSpec> sizes_knob();
Knob<JobSpec> nccl_algo_knob();
Knob<JobSpec> nccl_proto_knob();
Knob<JobSpec> size_coupling_knob();
// `nccl_env`, NCCL_* settings by their environment names (sim/config/config_nccl_env.cpp).
Knob<JobSpec> nccl_env_knob();

// Every section's knob table in the order of a config file, with the header
// the references show (`ecmpsim run --help`, docs/config-reference.md).
template <class Visit>
void for_each_section(Visit&& visit) {
  visit(std::string_view("[fabric]"), std::span<const Knob<FabricSpec>>(fabric_knobs()));
  visit(std::string_view("[[job]] or [workload]"), std::span<const Knob<JobSpec>>(job_knobs()));
  visit(std::string_view("[[scenario]]"), std::span<const Knob<ScenarioSpec>>(scenario_knobs()));
  visit(std::string_view("[scenario.hash]"), std::span<const Knob<HashSpec>>(hash_knobs()));
  visit(std::string_view("[[scenario.routes]]"), std::span<const Knob<StaticRoute>>(route_knobs()));
  visit(std::string_view("[sweep]"), std::span<const Knob<SweepSpec>>(sweep_knobs()));
  visit(std::string_view("[hosts] or [calibration]"), std::span<const Knob<HostSpec>>(host_knobs()));
}

// The per-tier and per-switch hash tables, which reuse [scenario.hash]'s keys.
inline constexpr std::string_view kHashOverrideTables =
    "[scenario.hash.leaf], [scenario.hash.spine], [scenario.hash.core], [[scenario.hash.switch]] (+ name), "
    "[scenario.hash.lag], [scenario.hash.bond]";
inline constexpr std::string_view kHashOverrideDoc =
    "The keys of [scenario.hash], replacing the scenario's default for that tier or switch; in .lag, what a "
    "switch's port-channel (LAG) member choice changes from that switch's hash (nothing by default: SONiC writes "
    "one seed to ecmp_hash_seed and lag_hash_seed); in .bond, a host bond's hash, over linux-bond-l34 (Linux "
    "bonding's layer3+4) by default.";

// After [fabric] is read: keys that do not apply to the chosen kind, and
// constraints between keys, are errors at the offending key; a topology
// file's servers set nics_per_node.
void check_fabric(const toml::table& table, FabricSpec& spec, const std::string& file);

// After a [[scenario]] is read (over its base): keys that do not apply to
// its routing (`adaptive` off adaptive, `sports` off ECMP, a port range
// without a plan) and sport_min > sport_max are errors at the key.
void check_scenario(const toml::table& table, const ScenarioSpec& s, const std::string& file);

// Reads a [scenario.hash] table: its own keys are the default of every
// switch; `leaf`, `spine`, `core` sub-tables and a `switch` array of tables
// (each with `name`) override some keys per tier or per switch.
void read_hash(const toml::table& table, ScenarioSpec& s, const std::string& file, std::string_view section);

// `down = [...]` and `weights = {...}` entries.
std::vector<LinkRef> read_link_refs(const toml::node& n, const SourcePos& at);
std::vector<LinkWeight> read_weights(const toml::node& n, const SourcePos& at);

// A static route's `dst`: an address, a prefix, or an endpoint's name (kept
// in dst_host, resolved on the fabric). Returns false for a malformed
// address or prefix (only digits, dots and a slash).
bool read_route_dst(std::string_view text, StaticRoute& r);

// Files a config points at (sim/config/config_files.cpp); paths relative to the config.
std::string relative_to(const std::string& config_path, const std::string& path);
// Read by parse_config once the section's keys are read, at most `max_bytes`
// (--max-config-bytes) each; the knobs only record the path.
void check_topology_name(const std::string& path, const SourcePos& key_at);
TopologySpec load_topology(const std::string& path, const SourcePos& key_at, std::uint64_t max_bytes);
std::shared_ptr<const RouteFile> load_routes_csv(const std::string& path, const SourcePos& key_at,
                                                 std::uint64_t max_bytes);
// The same from text already read (`path` names it in errors; parse_topology
// is in sim/config/topology_file.h).
std::shared_ptr<const RouteFile> parse_routes_csv(const std::string& path, const std::string& text);

}  // namespace ecmpsim::config
