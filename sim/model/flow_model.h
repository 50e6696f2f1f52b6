// Flow-level time model: every flow streams its bytes along a fixed path from
// time 0; link bandwidth is shared max-min fairly (progressive filling) and
// re-shared whenever a flow finishes, until every byte is delivered.
#pragma once

#include <cstddef>
#include <cstdint>
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
};

struct FlowTimes {
  std::vector<Gbps> start_rate;  // the max-min rate at time 0
  std::vector<Seconds> finish;   // when the last byte is delivered; +inf if never
  std::size_t events = 0;               // rate allocations computed (one per distinct finish time)
};

// Flows that finish within this relative margin of the next event finish
// together at it, so symmetric flows end at one identical instant.
inline constexpr double kFinishTolerance = 1e-9;

// Below this many loaded links a water-filling pass finds each bottleneck by
// scanning the links (cost: links x distinct rates) rather than through a heap
// of shares (cost: flow-hops x log); on paper16's 64 links the scan is ~10x faster.
inline constexpr std::size_t kScanLinks = 256;

// Reusable solver: buffers are kept between runs, so a run on flows of a
// size seen before allocates nothing.
class FlowModel {
 public:
  // `scan_links` chooses the bottleneck search (see kScanLinks); both give
  // the same rates, and tests/flow_model_test.cpp compares them.
  explicit FlowModel(std::size_t scan_links = kScanLinks) : scan_links_(scan_links) {}

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
  std::vector<std::uint32_t> flow_begin_;
  std::vector<double> remaining_;         // Gbit still to send, per flow
  std::vector<double> rate_;              // Gb/s in the current allocation
  std::vector<double> left_time_;         // seconds to finish at rate_
  std::vector<std::uint32_t> frozen_;     // allocation stamp in which the flow's rate was fixed
  std::vector<std::uint8_t> active_flag_;
  std::vector<std::uint32_t> active_;     // active flow ids
  std::vector<double> rem_cap_;           // water-filling scratch per local link
  std::vector<std::uint32_t> unfrozen_;
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

}  // namespace ecmpsim
