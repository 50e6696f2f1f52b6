// `ecmpsim report`: its flags, as app::ReportRequest (sim/app/report.h), and the page written.
#include <memory>
#include <vector>

#include "sim/app/load.h"
#include "sim/app/report.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/size_flags.h"

namespace ecmpsim::cli {

Action add_report_command(CLI::App& app) {
  struct Options : app::ReportRequest {
    Options() { out = "report.html"; }
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("report", "Write a self-contained HTML report: fabric drawings, per-link load, "
                                               "the distribution over hash seeds and the scenario comparison");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  add_out_flag(sub, opt->out, "the HTML report")->capture_default_str();
  add_limit_flags(sub, opt->limits, true);
  sub->add_option("--seeds", opt->seeds, "Hash seeds A:B[:STEP] (half-open) of the ECMP distribution")
      ->capture_default_str();
  sub->add_option("--scenario", opt->scenario, "ECMP scenario whose seed is swept; default every one, each on its own");
  sub->add_option("--emulation", opt->emulation,
                  "JSON of `ecmpsim emulate --measure-time --format json` runs, shown measured beside predicted "
                  "(repeat or separate with commas)")
      ->delimiter(',')
      ->check(file_role(FileRole::Input));
  sub->add_flag("--published", opt->published,
                "The catalogue of published experiments instead of a config: an index and a section per experiment "
                "with the published figure marked on ecmpsim's distribution (docs/published.md)");
  add_size_flags(sub, opt->sizes);
  return [opt](Io io) {
    app::ReportRequest q = *opt;
    const std::string path = opt->config.empty() ? app::default_config_path() : opt->config;
    const std::vector<std::string> command{"ecmpsim", "report", path, "--seeds", opt->seeds};
    q.command = shell_command(command) + size_flags_text(opt->sizes);
    const app::ReportPage page = app::report(q);
    emit(io, page.html, opt->out, page.inputs);
    if (opt->out != "-") io.out << "wrote " << escape_text(opt->out) << " (" << page.html.size() / 1024 << " KiB)\n";
    return 0;
  };
}

}  // namespace ecmpsim::cli
