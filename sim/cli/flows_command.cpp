#include <memory>

#include "sim/cli/cli.h"
#include "sim/config/config.h"
#include "sim/fabric/fabric.h"
#include "sim/output/flows_output.h"
#include "sim/model/simulation.h"

namespace ecmpsim::cli {

Action add_flows_command(CLI::App& app) {
  struct Options {
    Limits limits;
    std::string config;
    std::string format = "json";
    std::string out;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("flows", "Print the RoCEv2 flows the config's jobs put on the fabric");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml");
  sub->add_option("-f,--format", opt->format, "Output format: json (default) or csv")
      ->check(CLI::IsMember({"json", "csv"}));
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits);
  return [opt](Io io) {
    const Spec spec = load_spec(opt->config, opt->limits);
    const Fabric fabric = fabric_for(spec);
    const workloads::Flows flows = generate_flows(spec, fabric);
    emit(io, opt->format == "csv" ? flows_csv(spec, fabric, flows) : flows_json(spec, fabric, flows), opt->out);
    return 0;
  };
}

}  // namespace ecmpsim::cli
