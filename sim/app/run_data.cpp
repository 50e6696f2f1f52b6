// Completing a run's results (see run_data.h).
#include "sim/app/run_data.h"

#include <utility>

#include "sim/routing/forwarding.h"
#include "sim/routing/next_link.h"
#include "sim/routing/spray.h"

namespace ecmpsim::app {
namespace {

// A sprayed scenario's paths of every flow, as the sprayer splits them.
SplitPaths split_paths(const Simulation& sim, const ScenarioSpec& scenario) {
  const std::shared_ptr<const EqualCostSets> sets = sim.sets_for(scenario);
  const Forwarding fwd(sim.fabric(), *sets, scenario, sim.spec().source);
  const Sprayer sprayer(sim.fabric(), fwd, {fwd.weights().begin(), fwd.weights().end()});
  SplitPaths out;
  for (std::size_t f = 0; f < sim.flows().size(); ++f) {
    sprayer.paths(ends_of(sim.fabric(), sim.flows(), f), [&](std::span<const LinkId> p, double share) {
      out.links.insert(out.links.end(), p.begin(), p.end());
      out.path_begin.push_back(out.links.size());
      out.share.push_back(share);
    });
    out.flow_begin.push_back(out.share.size());
  }
  return out;
}

// The flow model's progress as the door's callback sees it.
FlowProgress flow_progress(const Progress& progress) {
  FlowProgress out;
  if (progress)
    out.changed = [&progress](const FlowProgress& p) {
      progress({ProgressUpdate::Stage::FlowModel, p.finished, p.flows, p.events, p.now});
    };
  return out;
}

}  // namespace

void complete(RunData& data) {
  const bool sizes = wants_sizes(data.sim.spec());
  data.sizes.assign(data.results.size(), {});
  data.split.assign(data.results.size(), std::nullopt);
  for (std::size_t i = 0; i < data.results.size(); ++i) {
    const ScenarioResult& r = data.results[i];
    if (sizes) data.sizes[i] = size_table(data.sim, r);
    if (r.trace.split()) data.split[i] = split_paths(data.sim, *r.spec);
  }
}

std::shared_ptr<RunData> simulate(Spec spec, const workloads::ImportedFlows* imported, bool model,
                                  const Progress& progress) {
  auto data = imported ? std::make_shared<RunData>(std::move(spec), *imported) : std::make_shared<RunData>(std::move(spec));
  FlowProgress watch = flow_progress(progress);
  data->results = data->sim.run_all({model, progress ? &watch : nullptr});
  complete(*data);
  return data;
}

}  // namespace ecmpsim::app
