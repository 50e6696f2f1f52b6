#include <memory>
#include <vector>

#include "sim/base/input_file.h"
#include "sim/base/parallel.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/size_flags.h"
#include "sim/report/published.h"
#include "sim/config/config.h"
#include "sim/config/ranges.h"
#include "sim/sweep/sweep.h"
#include "sim/report/report.h"
#include "sim/model/simulation.h"

namespace ecmpsim::cli {

namespace {

// The ECMP scenarios whose seeds the report sweeps: the one named, or every one.
std::vector<const ScenarioSpec*> swept_scenarios(const Spec& spec, const std::string& name) {
  std::vector<const ScenarioSpec*> out;
  for (const ScenarioSpec& s : spec.scenarios)
    if (routing_mode(s.routing).hashes && (name.empty() || s.name == name)) out.push_back(&s);
  if (!name.empty() && out.empty()) throw InputError({{}, 0, 0, "--scenario"}, "no ECMP scenario named '" + name + "'");
  return out;
}

// run_all() returns one result per scenario, in the spec's order.
const ScenarioResult& result_of(const std::vector<ScenarioResult>& results, const Spec& spec, const ScenarioSpec& s) {
  return results[static_cast<std::size_t>(&s - spec.scenarios.data())];
}

}  // namespace

Action add_report_command(CLI::App& app) {
  struct Options {
    Limits limits;
    std::string config, out = "report.html", seeds = "0:1000", scenario;
    std::vector<std::string> emulation;
    bool published = false;
    SizeFlags sizes;
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
    if (opt->published) {
      std::vector<PublishedResult> results;
      for (const PublishedExperiment& e : published_experiments())
        results.push_back(run_published(e, published_spec(e, opt->limits)));
      const std::string page = published_html(results);
      emit(io, page, opt->out);
      if (opt->out != "-") io.out << "wrote " << escape_text(opt->out) << " (" << page.size() / 1024 << " KiB)\n";
      return 0;
    }
    const std::string path = opt->config.empty() ? default_config_path() : opt->config;
    const UintRange seeds = parse_range(opt->seeds, 0xFFFFFFFFu, {{}, 0, 0, "--seeds"});
    std::vector<EmulationRun> emulation;
    for (const std::string& file : opt->emulation)
      emulation.push_back(parse_emulation(file, read_input_file(file, {file, 0, 0, "--emulation"}, "file",
                                                                      {opt->limits.max_capture_bytes, "--max-capture-bytes"})));
    Spec spec = load_spec(path, opt->limits);
    std::vector<std::string> inputs = spec_inputs(spec);
    inputs.insert(inputs.end(), opt->emulation.begin(), opt->emulation.end());
    check_out(opt->out, inputs);
    apply_size_flags(spec, opt->sizes);
    const Simulation sim(std::move(spec));
    const auto results = sim.run_all();
    // Each ECMP scenario's seeds on their own: one distribution per scenario.
    const std::vector<const ScenarioSpec*> ecmp = swept_scenarios(sim.spec(), opt->scenario);
    std::vector<SeedSweep> dists;
    for (const ScenarioSpec* s : ecmp) dists.push_back(sweep_seeds(sim.spec(), *s, seeds, default_threads()));
    const std::vector<std::string> command{"ecmpsim", "report", path, "--seeds", opt->seeds};
    ReportInput in{&sim, &results, dists, nullptr, shell_command(command) + size_flags_text(opt->sizes)};
    FlowTracerComparison cmp;
    const ScenarioSpec* stat = nullptr;
    for (const ScenarioSpec& s : sim.spec().scenarios)
      if (!stat && routing_mode(s.routing).tables) stat = &s;
    if (!emulation.empty()) in.emulation = &emulation;
    if (!ecmp.empty() && stat) {
      cmp = compare_flowtracer(dists.front(), result_of(results, sim.spec(), *ecmp.front()),
                               result_of(results, sim.spec(), *stat));
      cmp.alternatives = alternatives(sim, *ecmp.front());
      in.flowtracer = &cmp;
    }
    std::uint64_t bytes = 0;  // the page is written as it is made
    const auto page = [&](const Sink& put) {
      report_html(in, [&](std::string_view piece) {
        bytes += piece.size();
        put(piece);
      });
    };
    emit(io, page, opt->out, inputs);
    if (opt->out != "-") io.out << "wrote " << escape_text(opt->out) << " (" << bytes / 1024 << " KiB)\n";
    return 0;
  };
}

}  // namespace ecmpsim::cli
