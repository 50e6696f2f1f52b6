#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.h"
#include "sim/config/config.h"
#include "sim/fabric/fabric.h"
#include "sim/output/flows_output.h"
#include "sim/config/overrides.h"
#include "sim/routing/flow_label_note.h"
#include "sim/model/simulation.h"

namespace ecmpsim::cli {

namespace {

struct FlowsOptions {
  Limits limits;
  std::string config;
  std::string format;
  std::string out;
  std::string scenario;
};

// The flows as a scenario's source-port plan routes them.
int print_plan(Io io, const FlowsOptions& opt, const Spec& spec) {
  const auto it = std::find_if(spec.scenarios.begin(), spec.scenarios.end(),
                               [&](const ScenarioSpec& s) { return s.name == opt.scenario; });
  if (it == spec.scenarios.end()) throw InputError({{}, 0, 0, "--scenario"}, no_scenario_named(spec, opt.scenario));
  if (it->sports != SportPlan::Planned)
    throw InputError({{}, 0, 0, "--scenario"}, "scenario '" + it->name +
                                                   "' does not plan its source ports (sports = \"planned\"): its "
                                                   "flows are the workload's, printed without --scenario");
  const Simulation sim(spec);
  const PortPlan plan = sim.plan_ports(*it);
  emit(io, chosen_format(opt.format), flows_result(spec, sim.fabric(), sim.flows(), &plan), opt.out,
       spec_inputs(spec));
  return 0;
}

}  // namespace

Action add_flows_command(CLI::App& app) {
  auto opt = std::make_shared<FlowsOptions>();
  CLI::App* sub = app.add_subcommand("flows", "Print the RoCEv2 flows the config's jobs put on the fabric");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  add_format_flag(sub, opt->format, {Shape::Json, Shape::Csv}, Format::Json);
  sub->add_option("--scenario", opt->scenario,
                  "A scenario with sports = \"planned\": print its source-port plan (the planned sport and the "
                  "flow_label a host sets on each QP)");
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits);
  return [opt](Io io) {
    const Spec spec = load_spec(opt->config, opt->limits);
    if (!opt->scenario.empty()) return print_plan(io, *opt, spec);
    const Fabric fabric = fabric_for(spec);
    const workloads::Flows flows = generate_flows(spec, fabric);
    if (const auto note = flow_label_note(spec, fabric.family())) io.err << "ecmpsim: note: " << *note << "\n";
    emit(io, chosen_format(opt->format), flows_result(spec, fabric, flows), opt->out, spec_inputs(spec));
    return 0;
  };
}

}  // namespace ecmpsim::cli
