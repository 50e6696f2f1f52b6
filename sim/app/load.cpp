// Config loading for every command (see load.h).
#include "sim/app/load.h"

#include <filesystem>

#include "sim/app/published_configs.h"
#include "sim/base/error.h"
#include "sim/base/output_file.h"
#include "sim/config/config.h"
#include "sim/report/published.h"

#ifndef ECMPSIM_DATA_DIR
#define ECMPSIM_DATA_DIR "."
#endif

namespace ecmpsim::app {

std::string default_config_path() {
  const std::string rel = "configs/paper16.toml";
  if (std::filesystem::exists(rel)) return rel;
  const std::string shipped = std::string(ECMPSIM_DATA_DIR) + "/" + rel;
  return std::filesystem::exists(shipped) ? shipped : rel;
}

namespace {

// A loaded config within the limits that apply once it is read, which it keeps.
Spec checked_spec(Spec spec, const Limits& limits) {
  if (spec.scenarios.size() > limits.max_scenarios)
    throw InputError(option_at("max_scenarios", spec.source),
                     "the config has " + over_limit(spec.scenarios.size(), "scenarios", limits.max_scenarios));
  spec.limits = limits;
  return spec;
}

}  // namespace

Spec load_spec(const std::string& path, const Limits& limits) {
  const std::string file = path.empty() ? default_config_path() : path;
  // Refused before it is read: a 1 GB config line would take its size several times over in memory.
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (!ec && size > limits.max_config_bytes)
    throw InputError(option_at("max_config_bytes", file),
                     "the config file has " + over_limit(size, "bytes", limits.max_config_bytes));
  return checked_spec(load_config(file, limits), limits);
}

Spec load_spec_text(std::string_view text, const std::string& name, const Limits& limits) {
  if (text.size() > limits.max_config_bytes)
    throw InputError(option_at("max_config_bytes", name),
                     "the config text has " + over_limit(text.size(), "bytes", limits.max_config_bytes));
  return checked_spec(parse_config(text, name, limits), limits);
}

Spec published_spec(const PublishedExperiment& e, const Limits& limits) {
  for (const PublishedConfig& c : kPublishedConfigs)
    if (c.path == e.config) {
      Spec spec = parse_config(c.text, std::string(e.config));
      spec.limits = limits;
      return spec;
    }
  throw InputError({{}, 0, 0, "NAME"}, "'" + std::string(e.name) + "' names " + std::string(e.config) +
                                           ", which this build does not have");
}

std::vector<std::string> spec_inputs(const Spec& spec, std::initializer_list<std::string> extra) {
  std::vector<std::string> files{spec.source, spec.fabric.topology.source};
  for (const ScenarioSpec& s : spec.scenarios)
    if (s.routes_file) files.push_back(s.routes_file->path);
  for (const std::string& list : extra) {
    std::string_view rest = list;  // --flows takes a comma-separated list
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      files.emplace_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  return files;
}

void check_out(const std::string& out_path, const std::vector<std::string>& inputs) {
  check_output(out_path.empty() ? "-" : out_path, inputs);
}

}  // namespace ecmpsim::app
