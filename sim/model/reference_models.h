// The references of the production max-min solver (FlowModel,
// flow_model.h), beside it so that all three answer to one interface
// (MaxMinSolver, max_min.h): the tests hold FlowModel to both to 1e-9 and
// the bench times all three. Not used by the simulation itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/model/max_min.h"
#include "sim/model/max_min_events.h"

namespace ecmpsim::reference {

// The incremental solver with one variable per flow: the model as it was
// before flows on identical links were grouped (issue 36), kept as the
// reference the grouped FlowModel must match to 1e-9
// (tests/model/flow_model_groups_test.cpp) and as the "before" of
// bench/flow_model_bench.cpp. It runs the same event loop as FlowModel
// (max_min_events.h) over flows instead of groups.
class FlowLevelModel : public MaxMinSolver {
 public:
  // `scan_links` chooses the bottleneck search (see kScanLinks); both give
  // the same rates, and tests/model/flow_model_test.cpp compares them.
  explicit FlowLevelModel(std::size_t scan_links = kScanLinks) : scan_links_(scan_links) {}

  void run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress = nullptr) override;

 private:
  friend struct max_min::EventLoop;
  // The event loop's steps (max_min_events.h), over flows.
  void load(const FlowNetwork& net);
  std::size_t active_flows() const noexcept { return order_.size(); }
  std::optional<std::size_t> solve_locally(std::size_t, double, double) const noexcept { return std::nullopt; }
  void start_rates(FlowTimes& out) const;
  void begin_event() const noexcept {}
  void finish(std::uint32_t f, double now, FlowTimes& out);
  void never_finish(std::uint32_t f, FlowTimes& out) const;
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
  max_min::FinishQueue finishes_;         // projected finish times, one live entry per flow
  std::size_t finished_ = 0;              // flows finished so far

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

// The solver before incremental re-solving: every finish event recomputes
// the whole max-min allocation from scratch (progressive filling, by a scan
// of the links or an eager heap of shares), and time advances by a scan of
// every active flow's time left. Slow on uneven load but simple enough to
// trust: it shares neither the event loop nor the lazy bottleneck search of
// the other two, and so checks them (tests/model/flow_model_reference_test.cpp,
// flow_local_test.cpp). It reports no progress.
class ReferenceFlowModel : public MaxMinSolver {
 public:
  // `scan_links` chooses the bottleneck search (see kScanLinks); both give
  // the same rates.
  explicit ReferenceFlowModel(std::size_t scan_links = kScanLinks) : scan_links_(scan_links) {}

  void run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress = nullptr) override;

 private:
  // Max-min fair rates of the active flows (progressive filling), into rate_.
  void water_fill();
  void scan_fill(std::size_t left);
  void heap_fill(std::size_t left);
  // Fixes the rate of every unfrozen active flow on local link j at `rate`.
  template <typename OnChange>
  std::size_t freeze(std::uint32_t j, double rate, OnChange on_change);

  // Per used link (dense local index), per active flow.
  std::vector<std::uint32_t> local_of_;   // global link -> local index, kNone if unused
  std::vector<double> cap_;               // local link capacity
  std::vector<std::uint32_t> active_on_;  // active flows per local link
  std::vector<std::uint32_t> link_begin_; // local link -> its flows (CSR)
  std::vector<std::uint32_t> link_flows_;
  std::vector<std::uint32_t> flow_links_; // per path entry, local link index
  std::vector<double> flow_frac_;         // per path entry, the flow's fraction on it (1 unless split)
  std::vector<std::uint32_t> flow_begin_;
  std::vector<double> remaining_;         // Gbit still to send, per flow
  std::vector<double> rate_;              // Gb/s in the current allocation
  std::vector<double> left_time_;         // seconds to finish at rate_
  std::vector<std::uint32_t> frozen_;     // allocation stamp in which the flow's rate was fixed
  std::vector<std::uint8_t> active_flag_;
  std::vector<std::uint32_t> active_;     // active flow ids
  std::vector<double> rem_cap_;           // water-filling scratch per local link
  std::vector<std::uint32_t> unfrozen_;
  std::vector<double> weight_;            // unfrozen flows' fractions summed, per local link
  struct Share {
    double share;
    std::uint32_t link;
  };
  std::vector<Share> heap_;               // water-filling: candidate bottlenecks
  std::vector<std::uint32_t> live_;       // water-filling: links with unfrozen flows
  std::vector<double> live_share_;        // and their equal shares, in a scan
  std::uint32_t stamp_ = 0;
  std::size_t scan_links_;
};

}  // namespace ecmpsim::reference
