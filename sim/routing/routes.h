// Route computation: for every switch and destination ToR, the set of
// next-hop links on hop-count shortest paths (Boost.Graph breadth-first
// search). Identical sets are stored once, as numbered groups. Each failure
// set (links down) has its own EqualCostSets.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/fabric/fabric.h"

namespace ecmpsim {

class EqualCostSets {
 public:
  static constexpr std::uint32_t kNoGroup = ~0u;

  // kNoGroup when the switch is the ToR itself or cannot reach it.
  std::uint32_t group(std::uint32_t switch_index, std::uint32_t tor) const {
    return group_of_[std::size_t{switch_index} * tors_ + tor];
  }
  std::size_t groups() const noexcept { return begin_.size() - 1; }
  std::span<const LinkId> members(std::uint32_t g) const {
    return {members_.data() + begin_[g], members_.data() + begin_[g + 1]};
  }
  // Hops from a switch to a ToR; kNone when unreachable.
  std::uint32_t distance(std::uint32_t switch_index, std::uint32_t tor) const {
    return distance_[std::size_t{switch_index} * tors_ + tor];
  }
  // Whether a link was down when the sets were computed.
  bool is_down(LinkId l) const { return !down_.empty() && down_[l] != 0; }
  std::span<const std::uint8_t> down() const noexcept { return down_; }
  std::uint32_t tors() const noexcept { return tors_; }
  std::uint32_t switches() const noexcept {
    return tors_ == 0 ? 0 : static_cast<std::uint32_t>(distance_.size() / tors_);
  }

 private:
  friend EqualCostSets compute_equal_cost_sets(const Fabric&, std::span<const std::uint8_t>);
  std::uint32_t tors_ = 0;
  std::vector<std::uint32_t> group_of_;
  std::vector<std::uint32_t> distance_;
  std::vector<std::uint32_t> begin_{0};
  std::vector<LinkId> members_;
  std::vector<std::uint8_t> down_;
};

// Only links that are up, not marked in `down` (indexed by LinkId; empty =
// none) and join two switches carry transit traffic.
EqualCostSets compute_equal_cost_sets(const Fabric& fabric, std::span<const std::uint8_t> down = {});

}  // namespace ecmpsim
