// The flow model as it was before incremental re-solving: every finish event
// recomputes the whole max-min allocation from scratch (progressive filling,
// by a scan of the links or a heap of shares). Slow on uneven load but simple
// enough to trust; tests/model/flow_model_test.cpp checks the production
// FlowModel against it on randomized fabrics and workloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/model/flow_model.h"

namespace ecmpsim::reference {

inline constexpr std::size_t kReferenceScanLinks = 256;

class ReferenceFlowModel {
 public:
  // `scan_links` chooses the bottleneck search (see kReferenceScanLinks); both give
  // the same rates, and tests/flow_model_test.cpp compares them.
  explicit ReferenceFlowModel(std::size_t scan_links = kReferenceScanLinks) : scan_links_(scan_links) {}

  // A flow of 0 bytes or with an empty path has nothing to send: finish 0,
  // rate 0. A flow whose path holds a link of capacity 0 never finishes
  // (finish +inf, rate 0).
  void run(const FlowNetwork& net, FlowTimes& out);

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
