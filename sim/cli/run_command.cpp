#include <memory>

#include "sim/cli/cli.h"
#include "sim/config.h"
#include "sim/output.h"
#include "sim/simulation.h"

namespace ecmpsim::cli {

Action add_run_command(CLI::App& app) {
  struct Options {
    std::string config;
    std::string format = "table";
    std::string out;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("run", "Route the config's flows under every scenario and report imbalance");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml");
  sub->add_option("--format", opt->format, "Output format: table, json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  sub->add_option("--out", opt->out, "Write the output to FILE (atomically) instead of stdout");
  sub->footer("Config keys (TOML):\n" + config_reference());
  return [opt](Io io) {
    const std::string path = opt->config.empty() ? default_config_path() : opt->config;
    const Simulation sim(load_config(path));
    const auto results = sim.run_all();
    std::string text;
    if (opt->format == "json")
      text = run_json(sim, results);
    else if (opt->format == "csv")
      text = run_csv(sim, results);
    else
      text = run_table(sim, results);
    emit(io, text, opt->out);
    return 0;
  };
}

}  // namespace ecmpsim::cli
