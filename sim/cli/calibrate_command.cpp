// The commands on measured nccl-tests tables, their flags as requests:
// `ecmpsim calibrate NCCL_TESTS_OUTPUT --config C` as app::CalibrateRequest
// (sim/app/calibrate.h), the fit written and the [calibration] snippet to
// --snippet; `ecmpsim validate TABLE... --config C` as app::ValidateRequest
// (sim/app/validate.h), the scores written.
#include <memory>

#include "sim/app/calibrate.h"
#include "sim/app/validate.h"
#include "sim/base/error.h"
#include "sim/base/output_file.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {

Action add_calibrate_command(CLI::App& app) {
  struct Options : app::CalibrateRequest {
    std::string format;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "calibrate", "Fit the hosts' parameters to a real nccl-tests output on the config's routed fabric");
  sub->add_option("nccl_tests_output", opt->input, "nccl-tests stdout (all_reduce_perf, all_gather_perf or "
                                                    "reduce_scatter_perf; NCCL_DEBUG=INFO lines allowed)")
      ->required()
      ->check(file_role(FileRole::Input));
  sub->add_option("-c,--config", opt->config, "Experiment config (TOML) describing the fabric the test ran on; "
                                              "default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_option("--scenario", opt->scenario, "The scenario to route (default: the config's first)");
  sub->add_option("--job", opt->job, "The job the table measured (default: the first NCCL prices)");
  sub->add_option("--run", opt->run, "Of a file of several runs, the one to fit (1: the first); else it is refused")
      ->check(integer_in(1, 1000000));
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
  sub->add_option("tables", opt->paths, "nccl-tests outputs (all_reduce_perf, all_gather_perf or reduce_scatter_perf), "
                                        "each run on the config's fabric")
      ->required()
      ->check(file_role(FileRole::Input));
  sub->add_option("-c,--config", opt->configs, "Experiment config (TOML) describing the fabric the tests ran on: once "
                                               "for every table, or once per table in their order; default "
                                               "configs/paper16.toml")
      ->allow_extra_args(false)  // one value per --config: tables and configs may interleave
      ->check(file_role(FileRole::Input));
  sub->add_option("--scenario", opt->scenario, "The scenario to route (default: each config's first)");
  sub->add_option("--job", opt->job, "The job the tables measured (default: the first NCCL prices that matches each table)");
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
    const std::vector<std::string>& configs = opt->configs;
    if (configs.size() > 1 && configs.size() != opt->paths.size())
      throw InputError(option_at("config"), "give one config for every table or one per table (" +
                                                std::to_string(opt->paths.size()) + " tables, " +
                                                std::to_string(configs.size()) + " configs)");
    if (configs.size() == 1) opt->config = configs.front();
    for (std::size_t i = 0; i < opt->paths.size(); ++i)
      opt->tables.push_back({opt->paths[i], configs.size() > 1 ? configs[i] : std::string(), {}, {}, {}});
    const app::ValidateReport r = app::validate(*opt);
    emit(io, write(chosen_format(opt->format), validation_result(r.report)), opt->out, r.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
