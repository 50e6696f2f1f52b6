#include <benchmark/benchmark.h>

#include <array>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/flow_model.h"
#include "sim/model/simulation.h"
#include "sim/model/reference_models.h"

namespace {

// Times Model on the flows of `config`, routed by its scenario `scenario`,
// from the first allocation until every byte is delivered; returns the last
// run's times and sets the "flows" and "events" counters.
template <typename Model>
ecmpsim::FlowTimes time_model(benchmark::State& state, const std::string& config, std::size_t scenario) {
  const ecmpsim::Simulation sim(ecmpsim::load_config(std::string(ECMPSIM_SOURCE_DIR) + config));
  const auto r = sim.run(sim.spec().scenarios.at(scenario), {.model = false});
  std::vector<ecmpsim::Gbps> capacity;
  for (const auto& l : sim.fabric().links()) capacity.push_back(l.speed);
  const ecmpsim::FlowNetwork net{capacity, sim.flows().bytes, r.trace.path_begin, r.trace.path_links};
  Model model;
  ecmpsim::FlowTimes times;
  for (auto _ : state) {
    model.run(net, times);
    benchmark::DoNotOptimize(times.finish.data());
  }
  state.counters["flows"] = static_cast<double>(sim.flows().size());
  state.counters["events"] = static_cast<double>(times.events);
  state.counters["local_events"] = static_cast<double>(times.local);
  return times;
}

// The model without its local re-solve (sim/model/flow_local.cpp): every
// event re-solves the suffix above its lowest finishing rate, as before issue
// 36's local re-solves; the "before" of the rows below, in the same run.
struct SuffixOnlyModel : ecmpsim::FlowModel {
  SuffixOnlyModel() : ecmpsim::FlowModel(ecmpsim::kScanLinks, false) {}
};

// The max-min flow model alone on paper16's flows, routed by the scenario
// given (0 = ecmp, 1 = static): time_per_flow (CPU time, printed in ns) is the
// cost per flow of one full run.
template <typename Model>
void BM_FlowModelPaper16(benchmark::State& state) {
  time_model<Model>(state, "/configs/paper16.toml", static_cast<std::size_t>(state.range(0)));
  state.counters["time_per_flow"] = benchmark::Counter(
      state.counters["flows"], benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_FlowModelPaper16, ecmpsim::FlowModel)->Arg(0)->Arg(1)->ArgName("scenario");
BENCHMARK_TEMPLATE(BM_FlowModelPaper16, ecmpsim::reference::ReferenceFlowModel)->Arg(0)->Arg(1)->ArgName("scenario");
BENCHMARK_TEMPLATE(BM_FlowModelPaper16, ecmpsim::reference::FlowLevelModel)->Arg(0)->Arg(1)->ArgName("scenario");

// The grouped model against the from-scratch reference
// (sim/model/reference_models.h) and the model before grouping
// (reference_models.h too) on the k = 16 fat-tree's 4,096 ring
// flows placed contiguously (arg 0: few distinct rates) and at random (arg 1:
// many), and on the four-job mix of scale-ft16-jobs.toml (arg 2: 8,376 flows
// at uneven rates), measured in one run; `resolved` counts the variables
// re-solved (groups of flows on one path; flows in the references),
// time_per_event is CPU time per distinct finish time, flows_per_s the flows
// through the whole run per CPU second.
template <typename Model>
void BM_FlowModelFatTree(benchmark::State& state) {
  const char* config = std::array{"/bench/configs/scale-ft16.toml", "/bench/configs/scale-ft16-random.toml",
                                  "/bench/configs/scale-ft16-jobs.toml"}[static_cast<std::size_t>(state.range(0))];
  const ecmpsim::FlowTimes times = time_model<Model>(state, config, 0);
  state.counters["resolved"] = static_cast<double>(times.resolved);
  state.counters["time_per_event"] = benchmark::Counter(
      static_cast<double>(times.events), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["flows_per_s"] = benchmark::Counter(state.counters["flows"], benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, ecmpsim::FlowModel)->Arg(0)->Arg(1)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, SuffixOnlyModel)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, ecmpsim::reference::ReferenceFlowModel)
    ->Arg(0)->Arg(1)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_FlowModelFatTree, ecmpsim::reference::FlowLevelModel)
    ->Arg(0)->Arg(1)->Arg(2)->ArgName("random")->Unit(benchmark::kMillisecond);

// Imported traffic where every flow has its own size (issue 36): paper16's 64
// ECMP paths carrying `range(0)` flows of random sizes (1 KiB to 1 GiB), each
// on a random one of the paths, as `run configs/paper16.toml --flows F.csv`
// with bench/random_flows.py solves them. FlowModel groups the flows on each
// path; FlowLevelModel, the model before grouping, is only timed at 4,000
// flows (quadratic: 100,000 took ~464 s). Counters: events and
// time_per_event (real time per distinct finish time). Kept to 10^4 flows so
// CI's single pass stays short; bench/run.sh times 10^4..10^6 end to end.
template <typename Model>
void BM_FlowModelRandomSizes(benchmark::State& state) {
  const ecmpsim::Simulation sim(ecmpsim::load_config(std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml"));
  const auto r = sim.run(sim.spec().scenarios.at(0));
  const auto flows = static_cast<std::size_t>(state.range(0));
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin{0};
  std::vector<ecmpsim::LinkId> links;
  std::mt19937_64 rng(36);
  for (std::size_t f = 0; f < flows; ++f) {
    const std::size_t p = rng() % sim.flows().size();
    bytes.push_back(1024 + rng() % (1u << 30));
    links.insert(links.end(), r.trace.path_links.begin() + r.trace.path_begin[p],
                 r.trace.path_links.begin() + r.trace.path_begin[p + 1]);
    begin.push_back(static_cast<std::uint32_t>(links.size()));
  }
  const ecmpsim::FlowNetwork net{sim.capacity(), bytes, begin, links};
  Model model;
  ecmpsim::FlowTimes times;
  for (auto _ : state) {
    model.run(net, times);
    benchmark::DoNotOptimize(times.finish.data());
  }
  state.counters["events"] = static_cast<double>(times.events);
  state.counters["groups"] = static_cast<double>(times.groups);
  state.counters["resolved_per_event"] = static_cast<double>(times.resolved) / static_cast<double>(times.events);
  state.counters["time_per_event"] = benchmark::Counter(
      static_cast<double>(times.events), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(BM_FlowModelRandomSizes, ecmpsim::FlowModel)
    ->Arg(4'000)->Arg(10'000)->ArgName("flows")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_TEMPLATE(BM_FlowModelRandomSizes, ecmpsim::reference::FlowLevelModel)
    ->Arg(4'000)->ArgName("flows")->Unit(benchmark::kMillisecond)->UseRealTime();

// The k = 48 four-job mix (bench/configs/scale-ft48-jobs.toml, 1,145,984
// flows): the model with and without local re-solves, one run each (minutes:
// only registered when ECMPSIM_BENCH_K48 is set, so CI's pass skips it).
// Counters as BM_FlowModelFatTree's, per event in seconds.
template <typename Model>
void BM_FlowModelMixK48(benchmark::State& state) {
  const ecmpsim::FlowTimes times = time_model<Model>(state, "/bench/configs/scale-ft48-jobs.toml", 0);
  state.counters["resolved"] = static_cast<double>(times.resolved);
  state.counters["s_per_event"] = benchmark::Counter(
      static_cast<double>(times.events), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["flows_per_s"] = benchmark::Counter(state.counters["flows"], benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (std::getenv("ECMPSIM_BENCH_K48") != nullptr) {
    benchmark::RegisterBenchmark("BM_FlowModelMixK48<FlowModel>", BM_FlowModelMixK48<ecmpsim::FlowModel>)
        ->Iterations(1)->Unit(benchmark::kSecond);
    benchmark::RegisterBenchmark("BM_FlowModelMixK48<SuffixOnlyModel>", BM_FlowModelMixK48<SuffixOnlyModel>)
        ->Iterations(1)->Unit(benchmark::kSecond);
  }
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
