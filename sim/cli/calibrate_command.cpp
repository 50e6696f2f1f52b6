// `ecmpsim calibrate NCCL_TESTS_OUTPUT --config C`: its flags, as
// app::CalibrateRequest (sim/app/calibrate.h), the fit written and the
// [calibration] snippet to --snippet.
#include <memory>

#include "sim/app/calibrate.h"
#include "sim/base/output_file.h"
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
  sub->add_option("--run", opt->run,
                  "The run to fit of a file holding several (1 for the first; a file of several is refused "
                  "with their list)")
      ->check(CLI::Range(1u, 1000000u));
  sub->add_option("--fit-sizes", opt->fit_sizes,
                  "Fit on the sizes from MIN to MAX only, predict the rest (e.g. 256M: or 8:1M; default all)");
  sub->add_option("--snippet", opt->snippet,
                  "Write the [calibration] snippet to FILE, a new file (never the config or the nccl-tests output); "
                  "copy its section into a config by hand")
      ->check(file_role(FileRole::Output));
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits);
  return [opt](Io io) {
    const app::CalibrateReport r = app::calibrate(*opt);
    for (const auto& n : r.notes) io.err << "ecmpsim: " << n << "\n";
    if (!opt->snippet.empty()) write_output(opt->snippet, calibration_snippet(r.report), io.out, r.inputs);
    emit(io, write(chosen_format(opt->format), calibration_result(r.report)), opt->out, r.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
