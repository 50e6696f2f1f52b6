// The flow model as it was before flows on identical links were grouped
// (issue 36): the incremental max-min solver with one variable per flow, kept
// verbatim as the reference the grouped production FlowModel must match to
// 1e-9 (tests/model/flow_model_groups_test.cpp) and as the "before" of
// bench/flow_model_bench.cpp. Its derivation is in docs/prediction.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sim/model/flow_model.h"

namespace ecmpsim::reference {

inline constexpr std::size_t kFlowLevelScanLinks = 256;

// Reusable solver: buffers are kept between runs, so a run on flows of a
// size seen before allocates nothing.
class FlowLevelModel {
 public:
  // `scan_links` chooses the bottleneck search (see kFlowLevelScanLinks); both give
  // the same rates, and tests/model/flow_model_test.cpp compares them.
  explicit FlowLevelModel(std::size_t scan_links = kFlowLevelScanLinks) : scan_links_(scan_links) {}

  // A flow of 0 bytes or with an empty path has nothing to send: finish 0,
  // rate 0. A flow whose path holds a link of capacity 0 never finishes
  // (finish +inf, rate 0).
  void run(const FlowNetwork& net, FlowTimes& out);

 private:
  void load(const FlowNetwork& net);
  // Max-min rates of the flows in order_[from, end) on the capacity the
  // flows before `from` leave; sorts that range by its new rates.
  void solve(std::size_t from, double now);
  void build_subproblem(std::size_t from);
  // The sub links the filling searches (see the .cpp), into live_.
  void pick_links(std::size_t from);
  void scan_fill(std::size_t left);
  void heap_fill(std::size_t left);
  // Fixes the rate of every unfrozen flow on sub-problem link j at `rate`.
  template <typename OnChange>
  std::size_t freeze(std::uint32_t j, double rate, OnChange on_change);
  // Flows whose projected finish is within the tolerance of the earliest:
  // finished at that instant; returns the lowest rate among them, 0 if none
  // can finish.
  double finish_next(double& now, FlowTimes& out);

  // The network, per used link (dense local index) and per flow.
  std::vector<std::uint32_t> local_of_;   // global link -> local index, kNone if unused
  std::vector<double> cap_;               // local link capacity
  std::vector<long double> used_;         // sum of the current rates on each local link, once loads_known_
  bool loads_known_ = false;
  std::vector<std::uint32_t> flow_links_; // per path entry, local link index
  std::vector<double> flow_frac_;         // per path entry, its fraction; empty when no flow is split
  std::vector<std::uint32_t> flow_begin_;
  std::vector<double> rate_;              // Gb/s in the current allocation
  std::vector<double> remaining_;         // Gbit still to send at since_
  std::vector<double> since_;             // when remaining_ was last brought up to date
  std::vector<std::uint32_t> version_;    // bumped on every rate change (stale heap entries)
  std::vector<std::uint32_t> order_;      // active flows by rising rate (ties by flow id)
  std::vector<std::uint8_t> done_;        // finished at the current event
  struct Finish {
    double at;
    std::uint32_t flow;
    std::uint32_t version;
  };
  std::vector<Finish> finishes_;          // min-heap of projected finish times

  // The sub-problem being re-solved: its links (sub index) and their flows (CSR).
  std::vector<std::uint32_t> sub_of_;     // local link -> sub index, stamped by mark_
  std::vector<std::uint32_t> mark_;
  std::vector<std::uint32_t> sub_links_;  // sub index -> local link
  std::vector<double> rem_cap_;           // per sub link: capacity left to unfrozen flows
  std::vector<std::uint32_t> unfrozen_;   // per sub link
  std::vector<double> weight_;            // per sub link: its unfrozen flows' fractions summed
  std::vector<std::uint32_t> sub_begin_;  // per sub link, into sub_flows_
  std::vector<std::uint32_t> sub_flows_;
  std::vector<std::uint32_t> cursor_;     // filling sub_flows_
  std::vector<std::uint32_t> frozen_;     // per flow: stamp of the solve that fixed it
  struct Share {
    double share;
    std::uint32_t link;
  };
  std::vector<Share> heap_;               // water-filling: re-queued candidate bottlenecks
  std::vector<Share> sorted_;             // water-filling: the first keys, sorted
  std::vector<double> key_;               // per sub link: its latest key
  std::vector<std::uint32_t> live_;       // water-filling: links with unfrozen flows
  std::vector<std::uint8_t> pick_;        // per sub link: a flow's least link of its own
  std::vector<double> live_share_;        // and their equal shares, in a scan
  std::vector<double> old_rate_;          // per flow of the sub-problem, before the solve
  struct Level {
    double rate;
    std::uint32_t flow;
  };
  std::vector<Level> by_rate_;            // sorting the re-solved flows by their new rates
  std::uint32_t stamp_ = 0;
  std::size_t scan_links_;

  double frac(std::uint32_t entry) const { return flow_frac_.empty() ? 1.0 : flow_frac_[entry]; }
};

}  // namespace ecmpsim::reference
