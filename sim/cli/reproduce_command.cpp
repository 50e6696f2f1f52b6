// `ecmpsim reproduce`: its flags, as app::ReproduceRequest (sim/app/reproduce.h),
// the catalogue's list, an experiment's result, or a config's page and table written.
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/app/reproduce.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {

Action add_reproduce_command(CLI::App& app) {
  struct Options : app::ReproduceRequest {
    Options() { out = "report.html"; }
    std::string format;
    bool list = false;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "reproduce", "A published experiment of the catalogue by NAME (--list names them; docs/published.md), or the "
                   "FlowTracer comparison on a config (default configs/paper16.toml): ECMP's FIM over many seeds "
                   "against the static table, with the config's assumptions; a config also writes the HTML report");
  add_out_flag(sub, opt->out, "the HTML report")->capture_default_str();
  add_limit_flags(sub, opt->limits);
  sub->add_option("--seeds", opt->seeds, "ECMP hash seeds A:B[:STEP] (half-open)")->capture_default_str();
  sub->add_option("config,--config", opt->config,
                  "A catalogue experiment's NAME, or an experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_flag("--list", opt->list, "List the catalogue of published experiments with their sources");
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Json, Shape::Csv}, Format::Table,
                  "the table holds the comparison, the sensitivity and the verdict; csv: a catalogue experiment's "
                  "cases, or the list");
  return [opt](Io io) {
    const Format format = chosen_format(opt->format);
    if (opt->list) {
      emit(io, format, published_list_result(), "-");
      return 0;
    }
    app::ReproduceRequest q = *opt;
    q.csv = format == Format::Csv;
    std::vector<std::string> words{"ecmpsim", "reproduce"};
    if (!opt->config.empty()) words.push_back(opt->config);
    words.insert(words.end(), {"--seeds", opt->seeds});
    q.command = shell_command(words);
    const app::ReproduceReport r = app::reproduce(q);
    if (r.published) {
      emit(io, format, published_result(*r.published), "-");
      return 0;
    }
    emit(io, r.html, opt->out, r.inputs);
    // With --out - the page is standard output, so the table goes to stderr.
    std::ostream& table = opt->out == "-" ? io.err : io.out;
    table << write(format, reproduce_result(r.run->sim.spec(), r.comparison, r.sensitivity));
    // The JSON alone on its stream, so it parses; the table ends with where the page went.
    if (opt->out != "-") {
      if (format == Format::Json)
        io.err << "report written to " << escape_text(opt->out) << "\n";
      else
        table << "\nreport written to " << escape_text(opt->out) << "\n";
    }
    table << std::flush;
    return 0;
  };
}

}  // namespace ecmpsim::cli
