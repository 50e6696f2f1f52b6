// What `run` computed, as its writers take it: the simulation, one result per
// scenario, and what each scenario's result is printed with beyond the
// routes and metrics, computed once by the command (sim/app/run.h): the size
// table (sim/model/size_table.h) and, for a sprayed scenario, each flow's
// paths with their shares. The writers only format these.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "sim/model/simulation.h"
#include "sim/model/size_table.h"

namespace ecmpsim {

// A sprayed scenario's flows, each split over its paths: flow f's paths are
// p in [flow_begin[f], flow_begin[f + 1]), path p crossing
// links[path_begin[p] .. path_begin[p + 1]) and carrying share[p] of the flow.
struct SplitPaths {
  std::vector<std::uint64_t> flow_begin{0};
  std::vector<std::uint64_t> path_begin{0};
  std::vector<LinkId> links;
  std::vector<double> share;
  std::span<const LinkId> path(std::uint64_t p) const {
    return {links.data() + path_begin[p], static_cast<std::size_t>(path_begin[p + 1] - path_begin[p])};
  }
};

struct RunData {
  // The simulation is built in place (Simulation's arguments): results point into it.
  template <class... Args>
  explicit RunData(Args&&... args) : sim(std::forward<Args>(args)...) {}
  Simulation sim;
  std::vector<ScenarioResult> results;  // one per scenario of sim.spec(), in order
  // One per result: its size table, empty unless a job asks for sizes (wants_sizes).
  std::vector<std::vector<SizeRow>> sizes;
  // One per result: set for a scenario whose flows split (trace.split()).
  std::vector<std::optional<SplitPaths>> split;
};

}  // namespace ecmpsim
