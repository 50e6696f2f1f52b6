// The per-flow route step on paper16, reported per flow-hop (one switch
// forwarding decision): items_per_second is flow-hop decisions per second.
//
//   BM_Paper16Scenario  a whole `Simulation::run` (route, metrics, flow model), items = flows
//   BM_Trace            the library's trace(): per hop key build + hash + group lookup + path record
//   BM_RouteStep        the sweep inner loop on flat tables: keys packed once, per hop
//                       group lookup + selection + link count, one hash per flow
//   BM_HashOnly         the same hash on the same packed keys, nothing else (the 3x yardstick)
//
// BM_RouteStep and BM_HashOnly run on 1 and 2 threads; each thread has its own
// Simulation and counters, as sweep workers do.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "hashing/key.h"
#include "sim/config/config.h"
#include "sim/routing/forwarding.h"
#include "sim/model/simulation.h"
#include "sim/model/trace.h"

namespace {

using namespace ecmpsim;

Simulation paper16() { return Simulation(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml")); }

void BM_Paper16Scenario(benchmark::State& state) {
  const Simulation sim = paper16();
  for (auto _ : state) {
    auto r = sim.run(sim.spec().scenarios.front());
    benchmark::DoNotOptimize(r.flows.fim);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(sim.flows().size()));
}
BENCHMARK(BM_Paper16Scenario);

// Decisions in a trace: every link of a path but the first leaves a switch.
std::int64_t flow_hops(const Trace& t) {
  return static_cast<std::int64_t>(t.path_links.size()) - static_cast<std::int64_t>(t.path_begin.size() - 1);
}

void BM_Trace(benchmark::State& state) {
  const Simulation sim = paper16();
  const Forwarding fwd(sim.fabric(), sim.sets(), sim.spec().scenarios.front(), sim.spec().source);
  Trace t;
  route_and_count(sim.fabric(), fwd, sim.flows(), t);
  for (auto _ : state) {
    route_and_count(sim.fabric(), fwd, sim.flows(), t);
    benchmark::DoNotOptimize(t.link_flows.data());
  }
  state.SetItemsProcessed(state.iterations() * flow_hops(t));
}
BENCHMARK(BM_Trace);

// The flows of paper16 compiled to what the sweep loop reads: per flow its
// first and last link, destination ToR and packed key; per link the switch at
// its far end; per switch its ToR index.
struct FlatRoutes {
  explicit FlatRoutes(const Simulation& sim)
      : fwd(sim.fabric(), sim.sets(), sim.spec().scenarios.front(), sim.spec().source) {
    const Fabric& fabric = sim.fabric();
    const auto& flows = sim.flows();
    const SwitchHash& h = fwd.hash_of(0);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      first.push_back(fabric.uplink(flows.src[f]));
      last.push_back(fabric.downlink(flows.dst[f]));
      dst_tor.push_back(fabric.tor_of(flows.dst[f]));
      const hashing::Tuple t = flows.tuple(f);
      hashing::KeyBuffer buf{};
      key_len = hashing::build_key(h.algo->layout, h.fields, t, buf);
      keys.insert(keys.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(key_len));
    }
    for (const Link& l : fabric.links()) link_switch.push_back(fabric.is_switch(l.to) ? fabric.switch_index(l.to) : kNone);
    for (NodeId s : fabric.switches()) sw_tor.push_back(fabric.tor_index(s));
    counts.assign(fabric.links().size(), 0);
  }

  std::uint64_t hash(std::size_t f, std::uint32_t seed) const {
    const SwitchHash& h = fwd.hash_of(0);
    return h.algo->fn({keys.data() + f * key_len, key_len}, seed);
  }

  Forwarding fwd;
  std::vector<LinkId> first, last, link_switch;
  std::vector<std::uint32_t> dst_tor, sw_tor, counts;
  std::vector<std::uint8_t> keys;
  std::size_t key_len = 0;
};

// One variant: every flow routed with `seed`, counts per link. Returns the decisions made.
std::int64_t route_all(FlatRoutes& r, const EqualCostSets& sets, std::uint32_t seed) {
  std::fill(r.counts.begin(), r.counts.end(), 0u);
  std::int64_t decisions = 0;
  const auto n = r.first.size();
  for (std::size_t f = 0; f < n; ++f) {
    const std::uint64_t h = r.hash(f, seed);
    const std::uint32_t tor = r.dst_tor[f];
    LinkId link = r.first[f];
    ++r.counts[link];
    for (std::uint32_t s; (s = r.link_switch[link]) != kNone; ++decisions) {
      if (r.sw_tor[s] == tor) {
        link = r.last[f];
      } else {
        const auto members = sets.members(sets.group(s, tor));
        link = members[h % members.size()];
      }
      ++r.counts[link];
    }
  }
  return decisions;
}

void BM_RouteStep(benchmark::State& state) {
  const Simulation sim = paper16();
  FlatRoutes r(sim);
  std::uint32_t seed = 0;
  std::int64_t decisions = 0;
  for (auto _ : state) {
    decisions += route_all(r, sim.sets(), seed++);
    benchmark::DoNotOptimize(r.counts.data());
  }
  state.SetItemsProcessed(decisions);
  state.counters["flows"] = static_cast<double>(r.first.size());
}
BENCHMARK(BM_RouteStep)->Threads(1)->Threads(2)->UseRealTime();

void BM_HashOnly(benchmark::State& state) {
  const Simulation sim = paper16();
  const FlatRoutes r(sim);
  std::uint32_t seed = 0;
  for (auto _ : state) {
    std::uint64_t acc = 0;
    for (std::size_t f = 0; f < r.first.size(); ++f) acc ^= r.hash(f, seed);
    ++seed;
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.first.size()));
}
BENCHMARK(BM_HashOnly)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
