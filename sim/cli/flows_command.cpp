// `ecmpsim flows`: its flags, as app::FlowsRequest (sim/app/flows.h), its
// note on stderr and the flows written.
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/app/flows.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {

Action add_flows_command(CLI::App& app) {
  struct Options {
    app::FlowsRequest q;
    std::string format, out;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("flows", "Print the RoCEv2 flows the config's jobs put on the fabric");
  sub->add_option("config", opt->q.config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  add_format_flag(sub, opt->format, {Shape::Json, Shape::Csv}, Format::Json);
  sub->add_option("--scenario", opt->q.scenario,
                  "A scenario with sports = \"planned\": print its source-port plan (the planned sport and the "
                  "flow_label a host sets on each QP)");
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->q.limits);
  return [opt](Io io) {
    const app::FlowsReport r = app::flows(opt->q);
    for (const std::string& n : r.notes) io.err << "ecmpsim: " << escape_text(n) << "\n";
    emit(io, chosen_format(opt->format), r.result(), opt->out, r.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
