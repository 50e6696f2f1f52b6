#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/published_configs.h"
#include "sim/config/config.h"
#include "sim/base/parallel.h"
#include "sim/config/ranges.h"
#include "sim/sweep/sweep.h"
#include "sim/report/report.h"
#include "sim/report/published.h"
#include "sim/report/reproduce.h"
#include "sim/report/sensitivity.h"
#include "sim/model/simulation.h"

namespace ecmpsim::cli {

namespace {

// run_all() returns one result per scenario, in the spec's order.
std::size_t index_of(const Spec& spec, const ScenarioSpec& s) {
  return static_cast<std::size_t>(&s - spec.scenarios.data());
}

}  // namespace

Spec published_spec(const PublishedExperiment& e, const Limits& limits) {
  for (const PublishedConfig& c : kPublishedConfigs)
    if (c.path == e.config) {
      Spec spec = parse_config(c.text, std::string(e.config));
      spec.limits = limits;
      return spec;
    }
  throw InputError({{}, 0, 0, "NAME"}, "'" + std::string(e.name) + "' names " + std::string(e.config) +
                                           ", which this build does not have");
}

Action add_reproduce_command(CLI::App& app) {
  struct Options {
    Limits limits;
    std::string config, out = "report.html", seeds = "0:1000", format;
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
    if (const PublishedExperiment* e = find_published(opt->config)) {
      const PublishedResult r = run_published(*e, published_spec(*e, opt->limits));
      emit(io, format, published_result(r), "-");
      return 0;
    }
    std::error_code ec;
    if (!opt->config.empty() && opt->config.find('/') == std::string::npos && !opt->config.ends_with(".toml") &&
        !std::filesystem::exists(opt->config, ec))
      throw InputError({{}, 0, 0, "NAME"}, "'" + opt->config + "' is neither an experiment of the catalogue "
                                                               "(ecmpsim reproduce --list) nor a config file");
    if (format == Format::Csv)
      throw InputError({{}, 0, 0, "--format"}, "csv is written for a catalogue experiment (reproduce NAME) or --list, "
                                               "not for a config");
    const std::string path = opt->config.empty() ? default_config_path() : opt->config;
    const UintRange seeds = parse_range(opt->seeds, 0xFFFFFFFFu, {{}, 0, 0, "--seeds"});
    const Simulation sim(load_spec(path, opt->limits));
    check_out(opt->out, spec_inputs(sim.spec()));
    const ScenarioSpec& ecmp = first_scenario(sim.spec(), &RoutingMode::hashes);
    const ScenarioSpec& stat = first_scenario(sim.spec(), &RoutingMode::tables);
    const auto results = sim.run_all();
    const SeedSweep dist = sweep_seeds(sim.spec(), ecmp, seeds, default_threads());
    FlowTracerComparison cmp =
        compare_flowtracer(dist, results[index_of(sim.spec(), ecmp)], results[index_of(sim.spec(), stat)]);
    cmp.alternatives = alternatives(sim, ecmp);
    const Sensitivity sens = sensitivity(sim.spec(), ecmp, stat, seeds, cmp.reduction_vs_mean, default_threads());
    cmp.verdict = sens.verdict;
    std::vector<std::string> words{"ecmpsim", "reproduce"};
    if (!opt->config.empty()) words.push_back(opt->config);
    words.insert(words.end(), {"--seeds", opt->seeds});
    const std::string command = shell_command(words);
    const ReportInput in{&sim, &results, {&dist, 1}, &cmp, command};
    emit(io, [&](const Sink& put) { report_html(in, put); }, opt->out, spec_inputs(sim.spec()));
    // With --out - the page is standard output, so the table goes to stderr.
    std::ostream& table = opt->out == "-" ? io.err : io.out;
    table << write(format, reproduce_result(sim.spec(), cmp, sens));
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
