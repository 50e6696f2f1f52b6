// The flow-level time model's one interface: flows stream their bytes along
// fixed paths from time 0, link bandwidth is shared max-min fairly
// (progressive filling) and re-shared whenever flows finish, until every byte
// is delivered. Three solvers implement it, all in sim/model:
//   FlowModel (flow_model.h)                    production: flows on one path
//                                               grouped, incremental re-solves
//   reference::FlowLevelModel (reference_models.h)  one variable per flow,
//                                               incremental: the model before grouping
//   reference::ReferenceFlowModel (reference_models.h)  the whole allocation
//                                               re-solved from scratch at every finish
// The tests (tests/model/flow_model_*_test.cpp, flow_local_*_test.cpp) hold
// the first to the other two to 1e-9; bench/flow_model_bench.cpp times all
// three. Derivation: docs/prediction.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/base/units.h"

namespace ecmpsim {

// The model's input, as views: any flows on any paths over any capacities.
struct FlowNetwork {
  std::span<const Gbps> capacity;            // per link; 0 for a link that is down
  std::span<const std::uint64_t> bytes;      // per flow
  std::span<const std::uint32_t> path_begin; // per flow, into path_links; size flows + 1
  std::span<const LinkId> path_links;
  // Split flows (spraying), else empty: parallel to path_links, the fraction
  // of the flow's rate that link carries. A link's fair share is then its
  // remaining capacity over the sum of its unfrozen flows' fractions.
  std::span<const double> fraction = {};
  // Per flow, the time it starts sending (seconds, >= 0), else empty: every
  // flow from time 0. FlowTimes::finish stays absolute. FlowModel alone
  // takes arrivals (replayed traces); the references take flows from 0.
  std::span<const double> start = {};
};

struct FlowTimes {
  std::vector<Gbps> start_rate;  // the max-min rate at time 0 (with arrivals: at the flow's start)
  std::vector<Seconds> finish;   // when the last byte is delivered; +inf if never
  std::size_t events = 0;        // rate allocations computed (one per distinct finish time)
  std::size_t groups = 0;        // variables of the solve: flows on identical paths are one
  std::size_t resolved = 0;      // groups re-solved over all events (the model's work)
  std::size_t local = 0;         // events re-solved locally, around the finishing flows
};

// How far a run has got, handed to `changed` on the solving thread after
// each event, for a front door's progress display (sim/app/progress.h).
struct FlowProgress {
  std::uint64_t events = 0;    // rate allocations so far, this run
  std::uint64_t finished = 0;  // flows finished so far, this run
  std::uint64_t flows = 0;     // flows of this run
  double now = 0;              // simulated seconds reached
  std::function<void(const FlowProgress&)> changed;
};

// Flows that finish within this relative margin of the next event finish
// together at it, so symmetric flows end at one identical instant.
inline constexpr double kFinishTolerance = 1e-9;

// Below this many loaded links a water-filling pass finds each bottleneck by
// scanning the links (cost: links x distinct rates) rather than through sorted
// keys (cost: flow-hops + a radix sort); paper16 (64 links) is scanned. Each
// solver takes its threshold at construction; both searches give the same rates.
inline constexpr std::size_t kScanLinks = 256;

namespace max_min {
struct EventLoop;  // the incremental solvers' event loop (max_min_events.h)
}  // namespace max_min

class MaxMinSolver {
 public:
  virtual ~MaxMinSolver() = default;
  // Every flow's max-min start rate and finish time. A flow of 0 bytes or with
  // an empty path has nothing to send: finish 0, rate 0. A flow whose path
  // holds a link of capacity 0 never finishes (finish +inf, rate 0).
  // `progress`, if given and the solver reports one, is kept up to date.
  // Solvers keep their buffers between runs: a run on flows of a size seen
  // before allocates nothing.
  virtual void run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress = nullptr) = 0;
};

}  // namespace ecmpsim
