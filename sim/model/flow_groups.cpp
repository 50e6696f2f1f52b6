// Grouping the flows of a FlowNetwork by path for FlowModel (flow_model.h):
// flows on identical paths are one variable of the max-min solve.
#include "sim/model/flow_model.h"

#include <algorithm>
#include <bit>
#include <span>

namespace ecmpsim {

namespace {

// A path's identity for grouping: its links and, for split flows, their fractions.
std::uint64_t flow_path_hash(std::span<const LinkId> links, std::span<const double> fractions, double start) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ links.size();
  const auto mix = [&h](std::uint64_t v) {
    h = (h ^ v) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  };
  for (const LinkId l : links) mix(l);
  for (const double f : fractions) mix(std::bit_cast<std::uint64_t>(f));
  mix(std::bit_cast<std::uint64_t>(start));
  return h;
}

}  // namespace

// Max-min gives flows on identical paths identical rates (each constraint
// treats them alike, and the allocation is unique), so they are one variable
// weighted by their count; with arrivals, flows of one path and one start.
// Paths are matched by content through an open-addressing table of their hashes; a group is numbered by its first
// flow, so groups keep the flows' order.
void FlowModel::group_flows(const FlowNetwork& net) {
  const std::size_t flows = net.bytes.size();
  const auto active = [&](std::size_t f) { return net.bytes[f] > 0 && net.path_begin[f + 1] > net.path_begin[f]; };
  const auto path_of = [&](std::size_t f) {
    return net.path_links.subspan(net.path_begin[f], net.path_begin[f + 1] - net.path_begin[f]);
  };
  const auto start_of = [&](std::size_t f) { return net.start.empty() ? 0.0 : net.start[f]; };
  const auto fractions_of = [&](std::size_t f) {
    return net.fraction.empty() ? std::span<const double>{}
                                : net.fraction.subspan(net.path_begin[f], net.path_begin[f + 1] - net.path_begin[f]);
  };
  slot_.assign(std::bit_ceil(std::max<std::size_t>(16, 2 * flows)), kNone);
  const std::size_t mask = slot_.size() - 1;
  group_begin_.assign(1, 0);
  head_.clear();  // while grouping: each group's first flow
  count_.clear();
  group_start_.clear();
  group_of_.assign(flows, kNone);
  for (std::size_t f = 0; f < flows; ++f) {
    if (!active(f)) continue;
    const auto path = path_of(f);
    const auto fractions = fractions_of(f);
    std::size_t s = flow_path_hash(path, fractions, start_of(f)) & mask;
    for (; slot_[s] != kNone; s = (s + 1) & mask) {
      const std::uint32_t first = head_[slot_[s]];
      if (std::ranges::equal(path, path_of(first)) && std::ranges::equal(fractions, fractions_of(first)) &&
          start_of(first) == start_of(f))
        break;
    }
    if (slot_[s] == kNone) {
      slot_[s] = static_cast<std::uint32_t>(head_.size());
      head_.push_back(static_cast<std::uint32_t>(f));
      count_.push_back(0);
      if (!net.start.empty()) group_start_.push_back(start_of(f));
      for (std::uint32_t i = net.path_begin[f]; i < net.path_begin[f + 1]; ++i) {
        const LinkId l = net.path_links[i];
        if (local_of_[l] == kNone) {
          local_of_[l] = static_cast<std::uint32_t>(cap_.size());
          cap_.push_back(net.capacity[l].value);
        }
        flow_links_.push_back(local_of_[l]);
        if (!net.fraction.empty()) flow_frac_.push_back(net.fraction[i]);
      }
      group_begin_.push_back(static_cast<std::uint32_t>(flow_links_.size()));
    }
    group_of_[f] = slot_[s];
    ++count_[slot_[s]];
  }
  // Members by group, each group's by rising bytes: the order they finish in.
  const std::size_t groups = count_.size();
  member_begin_.assign(groups + 1, 0);
  for (std::size_t g = 0; g < groups; ++g) member_begin_[g + 1] = member_begin_[g] + count_[g];
  members_.resize(member_begin_[groups]);
  head_.assign(member_begin_.begin(), member_begin_.end() - 1);
  for (std::size_t f = 0; f < flows; ++f)
    if (group_of_[f] != kNone) members_[head_[group_of_[f]]++] = static_cast<std::uint32_t>(f);
  const auto fewer_bytes = [&](std::uint32_t a, std::uint32_t b) {
    return net.bytes[a] < net.bytes[b] || (net.bytes[a] == net.bytes[b] && a < b);
  };
  for (std::size_t g = 0; g < groups; ++g)
    std::sort(members_.begin() + member_begin_[g], members_.begin() + member_begin_[g + 1], fewer_bytes);
  member_bits_.resize(members_.size());
  for (std::size_t m = 0; m < members_.size(); ++m) member_bits_[m] = static_cast<double>(net.bytes[members_[m]]) * 8e-9;
  head_.assign(member_begin_.begin(), member_begin_.end() - 1);
}

}  // namespace ecmpsim
