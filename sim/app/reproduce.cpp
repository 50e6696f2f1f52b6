// `reproduce` (see reproduce.h).
#include "sim/app/reproduce.h"

#include <filesystem>

#include "sim/app/catalogue.h"
#include "sim/app/load.h"
#include "sim/app/run_data.h"
#include "sim/base/error.h"
#include "sim/base/parallel.h"
#include "sim/config/ranges.h"
#include "sim/report/report.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim::app {
namespace {

// run_all() returns one result per scenario, in the spec's order.
std::size_t index_of(const Spec& spec, const ScenarioSpec& s) {
  return static_cast<std::size_t>(&s - spec.scenarios.data());
}

}  // namespace

PublishedResult reproduce_published(const PublishedExperiment& e, const Limits& limits) {
  return run_published(e, published_spec(e, limits));
}

ReproduceReport reproduce(const ReproduceRequest& q) {
  ReproduceReport r;
  if (const PublishedExperiment* e = find_published(q.config)) {
    r.published = reproduce_published(*e, q.limits);
    return r;
  }
  std::error_code ec;
  if (!q.config.empty() && q.config.find('/') == std::string::npos && !q.config.ends_with(".toml") &&
      !std::filesystem::exists(q.config, ec))
    throw InputError({{}, 0, 0, "NAME"}, "'" + q.config + "' is neither an experiment of the catalogue "
                                                          "(ecmpsim reproduce --list) nor a config file");
  if (q.csv)
    throw InputError(option_at("format"), "csv is written for a catalogue experiment (reproduce NAME) or " + option_ref("list") +
                                             ", not for a config");
  const UintRange seeds = parse_range(q.seeds, 0xFFFFFFFFu, option_at("seeds"));
  Spec spec = load_spec(q.config, q.limits);
  r.inputs = spec_inputs(spec);
  check_out(q.out, r.inputs);
  r.run = simulate(std::move(spec), nullptr, true);
  const Simulation& sim = r.run->sim;
  const ScenarioSpec& ecmp = first_scenario(sim.spec(), &RoutingMode::hashes);
  const ScenarioSpec& stat = first_scenario(sim.spec(), &RoutingMode::tables);
  const SeedSweep dist = sweep_seeds(sim.spec(), ecmp, seeds, default_threads());
  r.comparison = compare_flowtracer(dist, r.run->results[index_of(sim.spec(), ecmp)],
                                    r.run->results[index_of(sim.spec(), stat)]);
  r.comparison.alternatives = alternatives(sim, ecmp);
  r.sensitivity = sensitivity(sim.spec(), ecmp, stat, seeds, r.comparison.reduction_vs_mean, default_threads());
  r.comparison.verdict = r.sensitivity.verdict;
  const ReportInput in{&sim, &r.run->results, r.run->sizes, {&dist, 1}, &r.comparison, q.command};
  r.html = report_html(in);
  return r;
}

}  // namespace ecmpsim::app
