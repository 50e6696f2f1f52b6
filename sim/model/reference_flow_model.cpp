// reference::ReferenceFlowModel (reference_models.h): the whole max-min
// allocation re-solved from scratch at every finish.
#include "sim/model/reference_models.h"

#include <algorithm>

namespace ecmpsim::reference {

using max_min::kInf;

void ReferenceFlowModel::run(const FlowNetwork& net, FlowTimes& out, FlowProgress*) {
  const std::size_t flows = net.bytes.size();
  out.start_rate.assign(flows, Gbps{0});
  out.finish.assign(flows, Seconds{0});
  out.events = 0;

  // Dense local indices for the links that carry at least one flow, so every
  // scan below is over used links only.
  local_of_.assign(net.capacity.size(), kNone);
  cap_.clear();
  flow_begin_.assign(flows + 1, 0);
  flow_links_.clear();
  flow_frac_.clear();
  remaining_.assign(flows, 0.0);
  rate_.assign(flows, 0.0);
  left_time_.resize(flows);
  frozen_.assign(flows, 0);
  active_flag_.assign(flows, 0);
  active_.clear();
  stamp_ = 0;
  for (std::size_t f = 0; f < flows; ++f) {
    if (net.bytes[f] > 0 && net.path_begin[f + 1] > net.path_begin[f]) {
      for (std::uint32_t i = net.path_begin[f]; i < net.path_begin[f + 1]; ++i) {
        const LinkId l = net.path_links[i];
        if (local_of_[l] == kNone) {
          local_of_[l] = static_cast<std::uint32_t>(cap_.size());
          cap_.push_back(net.capacity[l].value);
        }
        flow_links_.push_back(local_of_[l]);
        flow_frac_.push_back(net.fraction.empty() ? 1.0 : net.fraction[i]);
      }
      remaining_[f] = static_cast<double>(net.bytes[f]) * 8e-9;
      active_flag_[f] = 1;
      active_.push_back(static_cast<std::uint32_t>(f));
    }
    flow_begin_[f + 1] = static_cast<std::uint32_t>(flow_links_.size());
  }
  const std::size_t links = cap_.size();
  active_on_.assign(links, 0);
  for (std::uint32_t j : flow_links_) ++active_on_[j];
  link_begin_.assign(links + 1, 0);
  for (std::size_t j = 0; j < links; ++j) link_begin_[j + 1] = link_begin_[j] + active_on_[j];
  link_flows_.resize(flow_links_.size());
  // Fill each link's flow list from the back, reusing active_on_ as the cursor.
  for (std::uint32_t f : active_)
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) {
      const std::uint32_t j = flow_links_[i];
      link_flows_[link_begin_[j] + --active_on_[j]] = f;
    }
  for (std::size_t j = 0; j < links; ++j) active_on_[j] = link_begin_[j + 1] - link_begin_[j];
  rem_cap_.resize(links);
  unfrozen_.resize(links);
  weight_.resize(links);

  double now = 0;
  while (!active_.empty()) {
    water_fill();
    if (out.events++ == 0)
      for (std::uint32_t f : active_) out.start_rate[f] = Gbps{rate_[f]};
    double step = kInf;
    for (std::uint32_t f : active_) {
      left_time_[f] = rate_[f] > 0 ? remaining_[f] / rate_[f] : kInf;
      step = std::min(step, left_time_[f]);
    }
    if (step == kInf) {
      for (std::uint32_t f : active_) out.finish[f] = Seconds{kInf};
      break;
    }
    now += step;
    const double finish_by = step * (1 + kFinishTolerance);
    std::size_t kept = 0;
    for (std::uint32_t f : active_) {
      if (left_time_[f] <= finish_by) {
        out.finish[f] = Seconds{now};
        active_flag_[f] = 0;
        for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) --active_on_[flow_links_[i]];
      } else {
        remaining_[f] -= rate_[f] * step;
        active_[kept++] = f;
      }
    }
    active_.resize(kept);
  }
}

void ReferenceFlowModel::water_fill() {
  ++stamp_;
  live_.clear();
  for (std::uint32_t j = 0; j < cap_.size(); ++j) {
    if (active_on_[j] == 0) continue;
    rem_cap_[j] = cap_[j];
    unfrozen_[j] = active_on_[j];
    weight_[j] = 0;
    live_.push_back(j);
  }
  for (std::uint32_t f : active_)
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) weight_[flow_links_[i]] += flow_frac_[i];
  live_share_.resize(live_.size());
  if (live_.size() <= scan_links_)
    scan_fill(active_.size());
  else
    heap_fill(active_.size());
}

template <typename OnChange>
std::size_t ReferenceFlowModel::freeze(std::uint32_t j, double rate, OnChange on_change) {
  std::size_t fixed = 0;
  for (std::uint32_t k = link_begin_[j]; k < link_begin_[j + 1]; ++k) {
    const std::uint32_t f = link_flows_[k];
    if (!active_flag_[f] || frozen_[f] == stamp_) continue;
    frozen_[f] = stamp_;
    rate_[f] = rate;
    ++fixed;
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) {
      const std::uint32_t m = flow_links_[i];
      rem_cap_[m] -= rate * flow_frac_[i];
      weight_[m] -= flow_frac_[i];
      if (--unfrozen_[m] > 0 && m != j) on_change(m);
    }
  }
  return fixed;
}

// Progressive filling: the link offering the smallest equal share to its
// unfrozen flows is the bottleneck; its flows get that share, their other
// links lose it, and the next bottleneck is sought. Ties go to the lower link
// index in both searches.
void ReferenceFlowModel::scan_fill(std::size_t left) {
  const auto share_of = [&](std::uint32_t j) { return std::max(rem_cap_[j], 0.0) / weight_[j]; };
  while (left > 0 && !live_.empty()) {
    double best = kInf;
    std::size_t kept = 0;
    for (std::uint32_t j : live_) {
      if (unfrozen_[j] == 0) continue;
      const double share = share_of(j);
      live_[kept] = j;
      live_share_[kept++] = share;
      best = std::min(best, share);
    }
    live_.resize(kept);
    // Every link at the minimum is a bottleneck at this level: one pass
    // freezes them all (a link's share never falls below `best` meanwhile).
    for (std::size_t k = 0; k < kept; ++k) {
      const std::uint32_t j = live_[k];
      if (live_share_[k] == best && unfrozen_[j] > 0 && share_of(j) == best)
        left -= freeze(j, best, [](std::uint32_t) {});
    }
  }
}

void ReferenceFlowModel::heap_fill(std::size_t left) {
  // A min-heap of (equal share, link): every change to a link pushes its new
  // share, so the top, once entries that no longer match their link are
  // dropped, is the bottleneck.
  const auto share_of = [&](std::uint32_t j) { return std::max(rem_cap_[j], 0.0) / weight_[j]; };
  const auto later = [](const Share& a, const Share& b) {
    return a.share > b.share || (a.share == b.share && a.link > b.link);
  };
  heap_.clear();
  for (std::uint32_t j : live_) heap_.push_back({share_of(j), j});
  std::make_heap(heap_.begin(), heap_.end(), later);
  while (left > 0 && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Share top = heap_.back();
    heap_.pop_back();
    const std::uint32_t bottleneck = top.link;
    if (unfrozen_[bottleneck] == 0 || share_of(bottleneck) != top.share) continue;
    left -= freeze(bottleneck, top.share, [&](std::uint32_t m) {
      heap_.push_back({share_of(m), m});
      std::push_heap(heap_.begin(), heap_.end(), later);
    });
  }
}

}  // namespace ecmpsim::reference
