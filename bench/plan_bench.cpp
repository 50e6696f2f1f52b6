// Planning source ports against routing the same flows with ECMP (issue 20:
// planning 1M flows on a k = 48 fat-tree within 10x of ECMP routing them).
//
//   BM_EcmpRoute/<case>   route_and_count() under the config's ECMP scenario: per flow its
//                         hashes, group lookups, path and link counters
//   BM_PlanPorts/<case>   plan_ports() for that scenario with sports = "planned": the plan
//                         alone (routing the planned flows afterwards costs one BM_EcmpRoute)
//
// Cases, both bench/configs/scale-ft48-1m.toml (ring all-reduce over all 27,648 nodes,
// 4 channels x 9 QPs = 995,328 flows, CRC-16/CCITT at every switch):
//   contiguous  as shipped: 23 of every 24 ring hops stay inside their edge switch
//   strided     placement = "strided": consecutive ranks on different edges, every flow
//               crosses the fabric and every one is planned
// Items are flows. The Simulation of each case is built once, outside the timing.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

#include "sim/config/config.h"
#include "sim/model/simulation.h"
#include "sim/model/trace.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/port_plan.h"

namespace {

using namespace ecmpsim;

const Simulation& simulation(const std::string& placement) {
  static std::map<std::string, std::unique_ptr<Simulation>> cache;
  auto& sim = cache[placement];
  if (!sim) {
    Spec spec = load_config(ECMPSIM_SOURCE_DIR "/bench/configs/scale-ft48-1m.toml");
    spec.jobs.front().placement = *parse_name(workloads::kPlacements, placement);
    spec.limits.max_flows = 1ULL << 24;
    sim = std::make_unique<Simulation>(std::move(spec));
  }
  return *sim;
}

ScenarioSpec planned(const Simulation& sim) {
  ScenarioSpec s = sim.spec().scenarios.front();
  s.sports = SportPlan::Planned;
  return s;
}

void ecmp_route(benchmark::State& state, const std::string& placement) {
  const Simulation& sim = simulation(placement);
  const Forwarding fwd(sim.fabric(), sim.sets(), sim.spec().scenarios.front(), sim.spec().source);
  Trace t;
  for (auto _ : state) {
    route_and_count(sim.fabric(), fwd, sim.flows(), t);
    benchmark::DoNotOptimize(t.link_flows.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sim.flows().size()));
}

void plan(benchmark::State& state, const std::string& placement) {
  const Simulation& sim = simulation(placement);
  const ScenarioSpec scenario = planned(sim);
  const Forwarding fwd(sim.fabric(), sim.sets(), scenario, sim.spec().source);
  PortPlan p;
  for (auto _ : state) {
    p = plan_ports(sim.fabric(), fwd, sim.flows(), scenario);
    benchmark::DoNotOptimize(p.sport.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sim.flows().size()));
  state.counters["ports_tried_per_flow"] =
      static_cast<double>(p.ports_tried) / static_cast<double>(sim.flows().size());
  state.counters["repaired"] = static_cast<double>(p.repaired);
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* placement : {"contiguous", "strided"}) {
    benchmark::RegisterBenchmark((std::string("BM_EcmpRoute/") + placement).c_str(), ecmp_route, placement)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark((std::string("BM_PlanPorts/") + placement).c_str(), plan, placement)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
