#include "sim/config/config.h"

#include <algorithm>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include "hashing/suggest.h"
#include "sim/config/config_sections.h"
#include "sim/config/toml_text.h"
#include "sim/base/input_file.h"

namespace ecmpsim {
namespace {

using namespace config;

SourcePos key_pos(const toml::table& t, std::string_view key, const SourcePos& fallback, const std::string& file,
                  const std::string& section) {
  const auto* n = t.get(key);
  return n ? config::pos_of(*n, file, section + "." + std::string(key)) : fallback;
}

// A key of the other section (gpus_per_node under [workload], channels under
// [fabric]) says where it belongs rather than only that it is unknown here.
template <class Here, class There>
void refuse_misplaced(const toml::table& t, const std::vector<Knob<Here>>& here, const std::vector<Knob<There>>& there,
                      std::string_view there_name, const std::string& file, const std::string& section) {
  const auto holds = [](const auto& knobs, std::string_view key) {
    return std::any_of(knobs.begin(), knobs.end(), [&](const auto& kn) { return kn.key == key; });
  };
  for (const auto& [k, node] : t)
    if (!holds(here, k.str()) && holds(there, k.str()))
      throw InputError(config::pos_of(node, file, section + "." + std::string(k.str())),
                       "belongs in " + std::string(there_name) + ", not here");
}

JobSpec read_job(const toml::node& node, const SourcePos& at, const std::string& file, const std::string& section) {
  const toml::table& t = expect_table(node, at);
  refuse_misplaced(t, job_knobs(), fabric_knobs(), "[fabric]", file, section);
  JobSpec job;
  config::read_section<JobSpec>(t, job_knobs(), job, file, section);
  job.where = at;
  job.channels_given = t.get("channels") != nullptr;
  job.nodes_at = key_pos(t, "nodes", at, file, section);
  job.hosts_at = key_pos(t, "hosts", at, file, section);
  const SourcePos placement_at = key_pos(t, "placement", at, file, section);
  if (!job.hosts.empty()) {
    if (t.get("placement") && job.placement != workloads::Placement::List)
      throw InputError(placement_at, "a hosts list needs placement \"list\" (or no placement)");
    job.placement = workloads::Placement::List;
    if (job.nodes != 0 && job.nodes != job.hosts.size())
      throw InputError(job.nodes_at, "nodes = " + std::to_string(job.nodes) + " but the hosts list names " +
                                         std::to_string(job.hosts.size()));
  } else if (job.placement == workloads::Placement::List) {
    throw InputError(placement_at, "placement \"list\" needs a hosts list");
  }
  if (job.min_channels && job.max_channels && job.min_channels > job.max_channels)
    throw InputError(key_pos(t, "min_channels", at, file, section),
                     "min_channels " + std::to_string(job.min_channels) + " exceeds max_channels " +
                         std::to_string(job.max_channels));
  if (job.search_channels > job.channels)
    throw InputError(key_pos(t, "search_channels", at, file, section),
                     "search_channels exceeds channels (" + std::to_string(job.channels) + ")");
  if (job.cross_nic == 0 && job.ring_cross_nic == workloads::CrossNicOutcome::On)
    throw InputError(key_pos(t, "ring_cross_nic", at, file, section),
                     "\"on\" needs a cross_nic that permits crossing (1 or 2), not 0");
  if (std::uint64_t{job.roce.sport_base} + job.roce.sport_range > 65536)
    throw InputError(key_pos(t, "sport_range", at, file, section), "sport_base + sport_range exceeds 65536");
  return job;
}

// A topology file past the limit is refused at its key, before load_topology reads it.
void check_topology_size(const toml::table& root, const std::string& path, std::uint64_t max_bytes) {
  const auto* fabric = root.get_as<toml::table>("fabric");
  const toml::node* file = fabric != nullptr ? fabric->get("file") : nullptr;
  const auto name = file != nullptr ? file->value<std::string>() : std::nullopt;
  if (!name || name->empty()) return;
  const std::string topology = relative_to(path, *name);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(topology, ec);
  if (!ec && size > max_bytes) {
    SourcePos at = config::pos_of(*file, path, "max_config_bytes");
    at.option = true;
    throw InputError(at,
                     "the topology file '" + topology + "' has " + over_limit(size, "bytes", max_bytes));
  }
}

}  // namespace

namespace config {
SourcePos pos_of(const toml::node& n, const std::string& file, std::string_view key) {
  const auto& src = n.source();
  return {file, src.begin.line, src.begin.column, std::string(key)};
}
}  // namespace config

Spec load_config(const std::string& path, const Limits& limits) {
  return parse_config(read_input_file(path, {path, 0, 0, {}}, "file", {limits.max_config_bytes, "max_config_bytes"}),
                      path, limits);
}

Spec parse_config(std::string_view text, const std::string& path, const Limits& limits) {
  const toml::table root = config::parse_toml(text, path);
  check_topology_size(root, path, limits.max_config_bytes);
  Spec spec;
  spec.source = path;
  bool workload_seen = false;
  const toml::node* calibration = nullptr;
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    const SourcePos at = config::pos_of(node, path, key);
    if (key == "fabric") {
      refuse_misplaced(expect_table(node, at), fabric_knobs(), job_knobs(), "[workload] or a [[job]]", path, key);
      config::read_section<FabricSpec>(expect_table(node, at), fabric_knobs(), spec.fabric, path, key);
      if (const toml::node* file = node.as_table()->get("file"))
        spec.fabric.topology = load_topology(spec.fabric.topology.source, config::pos_of(*file, path, "fabric.file"),
                                             limits.max_config_bytes);
      config::check_fabric(*node.as_table(), spec.fabric, path);
      spec.fabric.address_base_at = key_pos(*node.as_table(), "address_base", {}, path, key);
    } else if (key == "workload") {
      if (!spec.jobs.empty()) throw InputError(at, "use either [workload] or [[job]] tables, not both");
      spec.jobs.push_back(read_job(node, at, path, key));
      workload_seen = true;
    } else if (key == "job") {
      if (workload_seen) throw InputError(at, "use either [workload] or [[job]] tables, not both");
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[job]] tables");
      for (const auto& e : *arr) spec.jobs.push_back(read_job(e, config::pos_of(e, path, key), path, key));
    } else if (key == "scenario") {
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[scenario]] tables");
      // Name -> index: the duplicate and base look-ups in linear time (80,000 scenarios parse in about a second).
      std::unordered_map<std::string, std::size_t> scenario_index;
      for (const auto& e : *arr) {
        const SourcePos sat = config::pos_of(e, path, key);
        ScenarioSpec s;
        const auto& table = expect_table(e, sat);
        if (const auto* b = table.get("base")) {
          const auto name = b->value<std::string>();
          if (!b->is_string() || !name) throw InputError(config::pos_of(*b, path, "scenario.base"), "expected a scenario name");
          const auto it = scenario_index.find(*name);
          if (it == scenario_index.end())
            throw InputError(config::pos_of(*b, path, "scenario.base"),
                             "no earlier scenario named '" + *name + "'");
          s = spec.scenarios[it->second];
          s.base = it->first;
          s.name.clear();
        }
        config::read_section<ScenarioSpec>(table, scenario_knobs(), s, path, key);
        if (const toml::node* file = table.get("routes_file"))
          s.routes_file = load_routes_csv(s.routes_file->path, config::pos_of(*file, path, "scenario.routes_file"),
                                          limits.max_config_bytes);
        s.where = sat;
        config::check_scenario(table, s, path);
        if (s.name.empty()) throw InputError(sat, "scenario needs a name");
        if (!scenario_index.try_emplace(s.name, spec.scenarios.size()).second)
          throw InputError(sat, "duplicate scenario name '" + s.name + "'");
        if (routing_mode(s.routing).tables && s.policy == StaticPolicy::Table && s.routes.empty() && !s.routes_file)
          throw InputError(sat, "static scenario '" + s.name + "' has no routes and no generated policy");
        spec.scenarios.push_back(std::move(s));
      }
    } else if (key == "sweep") {
      const auto& table = expect_table(node, at);
      config::read_section<SweepSpec>(table, sweep_knobs(), spec.sweep, path, key);
      if (spec.sweep.metric == SweepMetric::Slowdown && !spec.sweep.slowdown)
        throw InputError(config::pos_of(*table.get("slowdown"), path, "sweep.slowdown"),
                         "metric \"slowdown\" needs the flow model that slowdown = false turns off");
    } else if (key == "hosts") {
      config::read_section<HostSpec>(expect_table(node, at), host_knobs(), spec.hosts, path, key);
    } else if (key == "calibration") {
      calibration = &node;  // read after [hosts], whose keys it overrides
    } else {
      throw InputError(at, "unknown section" + did_you_mean(key, {"fabric", "workload", "job", "scenario", "sweep",
                                                                  "hosts", "calibration"}));
    }
  }
  if (calibration)
    config::read_section<HostSpec>(expect_table(*calibration, config::pos_of(*calibration, path, "calibration")),
                                   host_knobs(), spec.hosts, path, "calibration");
  if (spec.scenarios.empty()) {
    ScenarioSpec s;
    s.name = "ecmp";
    s.where = {path, 0, 0, {}};
    spec.scenarios.push_back(s);
  }
  if (spec.jobs.empty()) spec.jobs.emplace_back();
  std::unordered_set<std::string> job_names;  // the duplicate check in linear time
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    JobSpec& job = spec.jobs[j];
    if (job.name.empty()) job.name = "job" + std::to_string(j);
    if (!job_names.insert(job.name).second) throw InputError(job.where, "duplicate job name '" + job.name + "'");
    if (job.kind == workloads::JobKind::Training) config::check_training(job, spec.fabric.gpus_per_node);
  }
  return spec;
}

void read_calibration(std::string_view text, const std::string& path, HostSpec& hosts) {
  const toml::table root = config::parse_toml(text, path);
  const toml::node* calibration = nullptr;
  for (const auto& [k, node] : root) {
    if (k.str() != "calibration")
      throw InputError(config::pos_of(node, path, k.str()),
                       "a calibration file holds only a [calibration] table (as `calibrate` writes it), not '" +
                           std::string(k.str()) + "'");
    calibration = &node;
  }
  if (calibration == nullptr) throw InputError({path, 0, 0, {}}, "no [calibration] table");
  config::read_section<HostSpec>(expect_table(*calibration, config::pos_of(*calibration, path, "calibration")),
                                 host_knobs(), hosts, path, "calibration");
}

std::string config_reference() {
  std::string out;
  config::for_each_section([&](std::string_view header, auto knobs) { config::append_reference(out, header, knobs); });
  out += std::string(config::kHashOverrideTables) + "\n      " + std::string(config::kHashOverrideDoc) + "\n";
  return out;
}

}  // namespace ecmpsim
