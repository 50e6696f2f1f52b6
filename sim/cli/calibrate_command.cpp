// The commands on measured nccl-tests tables, their flags as requests:
// `ecmpsim calibrate NCCL_TESTS_OUTPUT --config C` as app::CalibrateRequest
// (sim/app/calibrate.h), the fit written and the [calibration] snippet to
// --snippet; `ecmpsim validate TABLE... --config C` as app::ValidateRequest
// (sim/app/validate.h), the scores written.
#include <memory>

#include "sim/app/calibrate.h"
#include "sim/app/validate.h"
#include "sim/base/output_file.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {
namespace {

// The flags calibrate and validate share: the nccl-tests output(s) read,
// the config(s) they ran on, which scenario routes the measured job, which
// job, and which run of a file holding several; `several` words them for
// validate's tables, each with a --config of its own or one for all.
template <class Request, class Tables, class Configs>
void add_table_flags(CLI::App* sub, Request& q, Tables& tables, Configs& configs, bool several) {
  const std::string kinds = "all_reduce_perf, all_gather_perf or reduce_scatter_perf";
  sub->add_option(several ? "tables" : "nccl_tests_output", tables,
                  several ? "nccl-tests outputs (" + kinds + "), each run on the config's fabric"
                          : "nccl-tests stdout (" + kinds + "; NCCL_DEBUG=INFO lines allowed)")
      ->required()
      ->check(file_role(FileRole::Input));
  CLI::Option* config = sub->add_option(
      "-c,--config", configs,
      std::string("Experiment config (TOML) describing the fabric the ") +
          (several ? "tests ran on: once for every table, or once per table in their order; "
                   : "test ran on; ") + "default configs/paper16.toml");
  config->check(file_role(FileRole::Input));
  if (several) config->allow_extra_args(false);  // one value per --config: tables and configs may interleave
  const std::string whose = several ? "each config's" : "the config's";
  sub->add_option("--scenario", q.scenario, "The scenario to route (default: " + whose + " first)");
  sub->add_option("--job", q.job, several ? "The job the tables measured (default: the first NCCL prices that matches each table)"
                                          : "The job the table measured (default: the first NCCL prices)");
  sub->add_option("--run", q.run, std::string(several ? "Of each" : "Of a") +
                                      " file of several runs, the one to read (1: the first); else it is refused")
      ->check(integer_in(1, 1000000));
}

}  // namespace

Action add_calibrate_command(CLI::App& app) {
  struct Options : app::CalibrateRequest {
    std::string format;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Fit the hosts' parameters to a real nccl-tests output on the config's routed fabric");
  add_table_flags(sub, *opt, opt->input, opt->config, false);
  sub->add_option("--fit-sizes", opt->fit_sizes,
                  "Fit on the sizes from MIN to MAX only, predict the rest (e.g. 256M: or 8:1M; default all)");
  sub->add_option("--snippet", opt->snippet, "Write the [calibration] snippet to FILE (never an input), to append to a config")
      ->check(file_role(FileRole::Output));
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits, true);
  return [opt](Io io) {
    const app::CalibrateReport r = app::calibrate(*opt);
    for (const std::string& n : r.notes) io.err << "ecmpsim: " << escape_text(n) << "\n";
    if (!opt->snippet.empty()) write_output(opt->snippet, calibration_snippet(r.report), io.out, r.inputs);
    emit(io, chosen_format(opt->format), calibration_result(r.report), opt->out, r.inputs);
    return 0;
  };
}

Action add_validate_command(CLI::App& app) {
  struct Options : app::ValidateRequest {
    std::vector<std::string> paths, configs;
    std::string format;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Score the predicted against measured nccl-tests tables, per size and per size band, without refitting");
  add_table_flags(sub, *opt, opt->paths, opt->configs, true);
  sub->add_option("--calibration", opt->calibration,
                  "Predict with this [calibration] file (calibrate --snippet) over the config's hosts")
      ->check(file_role(FileRole::Input));
  sub->add_option("--fit-on", opt->fit_on.table,
                  "Fit nic_efficiency and net_latency_us on this nccl-tests output, then score the tables with them")
      ->check(file_role(FileRole::Input));
  sub->add_option("--fit-config", opt->fit_on.config, "The config the --fit-on table ran on (default --config)")
      ->check(file_role(FileRole::Input));
  sub->add_option("--fit-sizes", opt->fit_sizes,
                  "Fit on the --fit-on table's sizes from MIN to MAX only (e.g. 64M: or 8:1M; default all)");
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table,
                  "summary: the bands without the rows");
  add_out_flag(sub, opt->out, "the scores");
  add_limit_flags(sub, opt->limits);
  return [opt](Io io) {
    app::ValidateRequest q = *opt;
    app::add_tables(q, opt->paths, opt->configs);
    const app::ValidateReport r = app::validate(q);
    emit(io, write(chosen_format(opt->format), validation_result(r.report)), opt->out, r.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
