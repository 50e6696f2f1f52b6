#include <memory>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.h"
#include "sim/cli/size_flags.h"
#include "sim/config/config.h"
#include "sim/base/error.h"
#include "sim/model/flows_import.h"
#include "sim/output/output.h"
#include "sim/base/parse.h"
#include "sim/routing/seeds.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/config/overrides.h"

namespace ecmpsim::cli {
namespace {

void add_override_flags(CLI::App* sub, Overrides& o, std::string& seed_mode) {
  sub->add_option("--scenario", o.scenario, "Evaluate only the scenario of this name");
  sub->add_option("--algo", o.algo, "Hash algorithm of every ECMP scenario (catalogue name)");
  sub->add_option("--seed", o.seed, "Hash seed of every switch of every ECMP scenario (32-bit; replaces per-tier and per-switch seeds)")->check(integer_in(0, 0xFFFFFFFF));
  sub->add_option("--seed-mode", seed_mode, "How the seed reaches switches: same, per-tier or per-switch")
      ->check(one_of(kSeedModes));
  sub->add_option("--sport-base", o.sport_base, "Source ports from this base (the \"range\" model)")
      ->check(integer_in(0, 0xFFFF));
  sub->add_option("--qpn-base", o.qpn_base, "First QP number on every NIC")->check(integer_in(0, 0xFFFFFF));
  sub->add_option("--qps", o.qps, "QPs per connection")->check(integer_in(1, 128));
  sub->add_option("--placement-seed", o.placement_seed, "Place ranks by a shuffle with this seed (\"random\")")
      ->check(integer_in(0, ~0ULL >> 1));
}

// Every scenario gets a twin NAME+down with the listed failures added.
void add_down_scenarios(Spec& spec, const std::vector<std::string>& list) {
  std::vector<LinkRef> refs;
  for (const std::string& item : list) refs.push_back({item, {{}, 0, 0, "--down"}});
  std::vector<ScenarioSpec> out;
  for (const ScenarioSpec& s : spec.scenarios) {
    out.push_back(s);
    ScenarioSpec twin = s;
    twin.base = s.name;
    twin.name = s.name + "+down";
    twin.down.insert(twin.down.end(), refs.begin(), refs.end());
    out.push_back(std::move(twin));
  }
  spec.scenarios = std::move(out);
}

}  // namespace

Action add_run_command(CLI::App& app) {
  struct Options {
    Limits limits;
    std::string config;
    std::string format;
    std::string out;
    Overrides overrides;
    std::string seed_mode;
    std::vector<std::string> down;
    FlowsImportOptions import;
    std::string flow_bytes;
    SizeFlags sizes;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("run", "Route the config's flows under every scenario and report imbalance");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml");
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits, true);
  add_override_flags(sub, opt->overrides, opt->seed_mode);
  sub->add_option("--down", opt->down,
                  "What-if failures: comma-separated cables (leaf0-spine1, leaf1-spine0#2) and switches (spine2); "
                  "each scenario is reported healthy and, next to it, as NAME+down with these down")
      ->delimiter(',');
  sub->add_option("--flows", opt->import.flows,
                  "Import the flows from FILE instead of generating the config's workload (rdma: FILE,FILE... "
                  "or a directory)");
  sub->add_option("--flows-format", opt->import.format, "Format of --flows: csv, rdma or pcap (default: detected)")
      ->check(one_of(workloads::kFlowsFormats));
  sub->add_option("--rdma-map", opt->import.rdma_map, "rdma: CSV map host,ifname,ip from RDMA devices to addresses");
  sub->add_option("--flow-bytes", opt->flow_bytes,
                  "rdma: bytes each QP pair carries, half in each direction (default: the first job's "
                  "message_bytes)")
      ->check(byte_size());
  sub->add_flag("--allow-unpaired", opt->import.allow_unpaired,
                "rdma: skip (and count) QPs with no partner instead of failing");
  add_size_flags(sub, opt->sizes);
  sub->footer("Config keys (TOML):\n" + config_reference());
  return [opt, sub](Io io) {
    const std::string path = opt->config.empty() ? default_config_path() : opt->config;
    Spec spec = load_spec(path, opt->limits);
    Overrides o = opt->overrides;
    if (!opt->seed_mode.empty()) o.seed_mode = parse_name(kSeedModes, opt->seed_mode);
    apply_overrides(spec, o);
    check_hash_overrides(spec, o);
    apply_size_flags(spec, opt->sizes);
    if (!opt->down.empty()) add_down_scenarios(spec, opt->down);
    if (!opt->flow_bytes.empty()) opt->import.flow_bytes = parse_size(opt->flow_bytes);  // checked by byte_size
    if (sub->count("--flows") > 0 && opt->import.flows.empty())
      throw InputError({{}, 0, 0, "--flows"}, "no file given");
    if (opt->import.flows.empty()) {
      for (const char* flag : {"--flows-format", "--rdma-map", "--flow-bytes", "--allow-unpaired"})
        if (sub->count(flag) > 0) throw InputError({{}, 0, 0, flag}, "only used with --flows");
    }
    if (!opt->import.flows.empty() && wants_sizes(spec))
      throw InputError({{}, 0, 0, "--flows"}, "no size table for imported flows (they name no collective)");
    std::vector<std::string> notes;
    const Simulation sim = [&] {
      if (opt->import.flows.empty()) return Simulation(std::move(spec));
      const auto imported = import_flows(opt->import, spec);
      notes = imported.notes;
      return Simulation(std::move(spec), imported);
    }();
    const auto results = sim.run_all();
    for (const auto& n : notes) io.err << "ecmpsim: " << n << "\n";
    emit(io, write(chosen_format(opt->format), run_result(sim, results)), opt->out,
         spec_inputs(sim.spec(), {opt->import.flows, opt->import.rdma_map}));
    return 0;
  };
}

}  // namespace ecmpsim::cli
