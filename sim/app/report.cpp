// `report` (see report.h).
#include "sim/app/report.h"

#include "sim/app/load.h"
#include "sim/app/reproduce.h"
#include "sim/app/run_data.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/parallel.h"
#include "sim/config/ranges.h"
#include "sim/report/published.h"
#include "sim/report/report.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim::app {
namespace {

// The ECMP scenarios whose seeds the report sweeps: the one named, or every one.
std::vector<const ScenarioSpec*> swept_scenarios(const Spec& spec, const std::string& name) {
  std::vector<const ScenarioSpec*> out;
  for (const ScenarioSpec& s : spec.scenarios)
    if (routing_mode(s.routing).hashes && (name.empty() || s.name == name)) out.push_back(&s);
  if (!name.empty() && out.empty()) throw InputError(option_at("scenario"), "no ECMP scenario named '" + name + "'");
  return out;
}

// run_all() returns one result per scenario, in the spec's order.
const ScenarioResult& result_of(const RunData& data, const ScenarioSpec& s) {
  return data.results[static_cast<std::size_t>(&s - data.sim.spec().scenarios.data())];
}

}  // namespace

ReportPage report(const ReportRequest& q) {
  ReportPage page;
  if (q.published) {
    std::vector<PublishedResult> results;
    for (const PublishedExperiment& e : published_experiments()) results.push_back(reproduce_published(e, q.limits));
    page.html = published_html(results);
    return page;
  }
  const UintRange seeds = parse_range(q.seeds, 0xFFFFFFFFu, option_at("seeds"));
  std::vector<EmulationRun> emulation;
  for (const std::string& file : q.emulation)
    emulation.push_back(parse_emulation(
        file, read_input_file(file, option_at("emulation", file), "file", {q.limits.max_capture_bytes, "max_capture_bytes"})));
  Spec spec = load_spec(q.config, q.limits);
  page.inputs = spec_inputs(spec);
  page.inputs.insert(page.inputs.end(), q.emulation.begin(), q.emulation.end());
  check_out(q.out, page.inputs);
  apply_size_flags(spec, q.sizes);
  const std::shared_ptr<const RunData> data = simulate(std::move(spec), nullptr, true);
  const Simulation& sim = data->sim;
  // Each ECMP scenario's seeds on their own: one distribution per scenario.
  const std::vector<const ScenarioSpec*> ecmp = swept_scenarios(sim.spec(), q.scenario);
  std::vector<SeedSweep> dists;
  for (const ScenarioSpec* s : ecmp) dists.push_back(sweep_seeds(sim.spec(), *s, seeds, default_threads()));
  ReportInput in{&sim, &data->results, data->sizes, dists, nullptr, q.command};
  FlowTracerComparison cmp;
  const ScenarioSpec* stat = nullptr;
  for (const ScenarioSpec& s : sim.spec().scenarios)
    if (!stat && routing_mode(s.routing).tables) stat = &s;
  if (!emulation.empty()) in.emulation = &emulation;
  if (!ecmp.empty() && stat) {
    cmp = compare_flowtracer(dists.front(), result_of(*data, *ecmp.front()), result_of(*data, *stat));
    cmp.alternatives = alternatives(sim, *ecmp.front());
    in.flowtracer = &cmp;
  }
  page.html = report_html(in);
  return page;
}

}  // namespace ecmpsim::app
