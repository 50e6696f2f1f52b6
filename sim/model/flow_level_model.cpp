// reference::FlowLevelModel (reference_models.h): the incremental solver
// with one variable per flow, as the production one was before grouping.
#include "sim/model/reference_models.h"

#include <algorithm>

namespace ecmpsim::reference {

using max_min::kInf;

void FlowLevelModel::load(const FlowNetwork& net) {
  const std::size_t flows = net.bytes.size();
  // Dense local indices for the links that carry at least one flow, so every
  // scan below is over used links only.
  local_of_.assign(net.capacity.size(), kNone);
  cap_.clear();
  flow_begin_.assign(flows + 1, 0);
  flow_links_.clear();
  flow_frac_.clear();
  rate_.assign(flows, 0.0);
  remaining_.assign(flows, 0.0);
  since_.assign(flows, 0.0);
  version_.assign(flows, 0);
  frozen_.assign(flows, 0);
  done_.assign(flows, 0);
  order_.clear();
  for (std::size_t f = 0; f < flows; ++f) {
    if (net.bytes[f] > 0 && net.path_begin[f + 1] > net.path_begin[f]) {
      for (std::uint32_t i = net.path_begin[f]; i < net.path_begin[f + 1]; ++i) {
        const LinkId l = net.path_links[i];
        if (local_of_[l] == kNone) {
          local_of_[l] = static_cast<std::uint32_t>(cap_.size());
          cap_.push_back(net.capacity[l].value);
        }
        flow_links_.push_back(local_of_[l]);
        if (!net.fraction.empty()) flow_frac_.push_back(net.fraction[i]);
      }
      remaining_[f] = static_cast<double>(net.bytes[f]) * 8e-9;
      order_.push_back(static_cast<std::uint32_t>(f));
    }
    flow_begin_[f + 1] = static_cast<std::uint32_t>(flow_links_.size());
  }
  used_.resize(cap_.size());
  loads_known_ = false;
  mark_.assign(cap_.size(), 0);
  sub_of_.resize(cap_.size());
  finishes_.clear();
  stamp_ = 0;
}

void FlowLevelModel::run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress) {
  max_min::EventLoop::run(*this, net, out, progress);
}

void FlowLevelModel::start_rates(FlowTimes& out) const {
  for (std::uint32_t f : order_) out.start_rate[f] = Gbps{rate_[f]};
}

void FlowLevelModel::never_finish(std::uint32_t f, FlowTimes& out) const { out.finish[f] = Seconds{kInf}; }

void FlowLevelModel::finish(std::uint32_t f, double now, FlowTimes& out) {
  out.finish[f] = Seconds{now};
  done_[f] = 1;
  ++version_[f];
  if (loads_known_)
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) used_[flow_links_[i]] -= rate_[f] * frac(i);
}

void FlowLevelModel::build_subproblem(std::size_t from) {
  // Each link the re-solved flows cross offers what the fixed flows leave:
  // its capacity less the current rates, plus the re-solved flows' own rates
  // (with no flow fixed, its capacity). The link loads are only needed once
  // some flows stay fixed: summed then.
  if (from > 0 && !loads_known_) {
    std::fill(used_.begin(), used_.end(), 0.0L);
    for (std::uint32_t f : order_)
      for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) used_[flow_links_[i]] += rate_[f] * frac(i);
    loads_known_ = true;
  }
  sub_links_.clear();
  rem_cap_.clear();
  unfrozen_.clear();
  weight_.clear();
  for (std::size_t k = from; k < order_.size(); ++k) {
    const std::uint32_t f = order_[k];
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) {
      const std::uint32_t j = flow_links_[i];
      if (mark_[j] != stamp_) {
        mark_[j] = stamp_;
        sub_of_[j] = static_cast<std::uint32_t>(sub_links_.size());
        sub_links_.push_back(j);
        rem_cap_.push_back(from == 0 ? cap_[j] : static_cast<double>(static_cast<long double>(cap_[j]) - used_[j]));
        unfrozen_.push_back(0);
        weight_.push_back(0);
      }
      if (from > 0) rem_cap_[sub_of_[j]] += rate_[f] * frac(i);
      ++unfrozen_[sub_of_[j]];
      weight_[sub_of_[j]] += frac(i);
    }
  }
  const std::size_t links = sub_links_.size();
  sub_begin_.assign(links + 1, 0);
  for (std::size_t s = 0; s < links; ++s) sub_begin_[s + 1] = sub_begin_[s] + unfrozen_[s];
  sub_flows_.resize(sub_begin_[links]);
  cursor_.assign(sub_begin_.begin(), sub_begin_.end() - 1);
  for (std::size_t k = from; k < order_.size(); ++k) {
    const std::uint32_t f = order_[k];
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) sub_flows_[cursor_[sub_of_[flow_links_[i]]]++] = f;
  }
}

void FlowLevelModel::solve(std::size_t from, double now) {
  ++stamp_;
  const std::size_t count = order_.size() - from;
  old_rate_.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t f = order_[from + k];
    remaining_[f] -= rate_[f] * (now - since_[f]);
    since_[f] = now;
    old_rate_[k] = rate_[f];
  }
  build_subproblem(from);
  pick_links(from);
  live_share_.resize(live_.size());
  by_rate_.clear();
  if (live_.size() <= scan_links_)
    scan_fill(count);
  else
    heap_fill(count);

  const std::size_t queued = finishes_.size();
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t f = order_[from + k];
    const double delta = rate_[f] - old_rate_[k];
    if (delta == 0) continue;  // its queued finish time still holds
    if (loads_known_)
      for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) used_[flow_links_[i]] += delta * frac(i);
    ++version_[f];
    if (rate_[f] > 0) finishes_.append({since_[f] + remaining_[f] / rate_[f], f, version_[f]});
  }
  finishes_.merge(queued, order_.size(), version_);
  // The filling froze the flows level by level, so by_rate_ (rate, flow) in
  // freeze order is nearly sorted by rate; ties in flow order number the next
  // sub-problem's links, and so the order its sums are rounded in, as they
  // always were. One level (a symmetric collective) is in order in order_
  // already; otherwise the freeze order is sorted (pairs keep the comparisons
  // in cache).
  const auto lower = [](const Level& a, const Level& b) { return a.rate < b.rate || (a.rate == b.rate && a.flow < b.flow); };
  const auto first = order_.begin() + static_cast<std::ptrdiff_t>(from);
  const auto slower = [&](std::uint32_t a, std::uint32_t b) { return rate_[a] < rate_[b] || (rate_[a] == rate_[b] && a < b); };
  if (!std::is_sorted(first, order_.end(), slower)) {
    if (by_rate_.size() != count) {
      by_rate_.resize(count);
      for (std::size_t k = 0; k < count; ++k) by_rate_[k] = {rate_[order_[from + k]], order_[from + k]};
    }
    if (!std::is_sorted(by_rate_.begin(), by_rate_.end(), lower)) std::sort(by_rate_.begin(), by_rate_.end(), lower);
    for (std::size_t k = 0; k < count; ++k) order_[from + k] = by_rate_[k].flow;
  }
  // The re-solved flows are at or above the lowest finishing level; should
  // rounding put one a hair below a fixed flow, merging restores the order.
  if (from > 0 && slower(*first, *(first - 1))) std::inplace_merge(order_.begin(), first, order_.end(), slower);
}

// Links that carry one sub-problem flow are most of a sub-problem's links
// (host links, and fabric links under uneven load), and such a link's share
// changes only when its one flow freezes. Of a flow's own links only the
// least (share, link) can then be a bottleneck: the others could only be
// reached after that flow froze. The filling searches every link with two or
// more flows and that one link per flow, in sub index order, and so finds the
// same bottlenecks in the same order as over all links.
void FlowLevelModel::pick_links(std::size_t from) {
  pick_.assign(sub_links_.size(), 0);
  for (std::size_t k = from; k < order_.size(); ++k) {
    const std::uint32_t f = order_[k];
    std::uint32_t best_link = kNone;
    double best = 0;
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) {
      const std::uint32_t s = sub_of_[flow_links_[i]];
      if (unfrozen_[s] != 1) continue;
      const double share = std::max(rem_cap_[s], 0.0) / weight_[s];
      if (best_link == kNone || share < best || (share == best && s < best_link)) {
        best = share;
        best_link = s;
      }
    }
    if (best_link != kNone) pick_[best_link] = 1;
  }
  live_.clear();
  for (std::uint32_t s = 0; s < sub_links_.size(); ++s)
    if (unfrozen_[s] > 1 || pick_[s]) live_.push_back(s);
}

template <typename OnChange>
std::size_t FlowLevelModel::freeze(std::uint32_t j, double rate, OnChange on_change) {
  std::size_t fixed = 0;
  for (std::uint32_t k = sub_begin_[j]; k < sub_begin_[j + 1]; ++k) {
    const std::uint32_t f = sub_flows_[k];
    if (frozen_[f] == stamp_) continue;
    frozen_[f] = stamp_;
    rate_[f] = rate;
    by_rate_.push_back({rate, f});
    ++fixed;
    for (std::uint32_t i = flow_begin_[f]; i < flow_begin_[f + 1]; ++i) {
      const std::uint32_t m = sub_of_[flow_links_[i]];
      rem_cap_[m] -= rate * frac(i);
      weight_[m] -= frac(i);
      if (--unfrozen_[m] > 0 && m != j) on_change(m);
    }
  }
  return fixed;
}

// Progressive filling: the link offering the smallest equal share to its
// unfrozen flows is the bottleneck; its flows get that share, their other
// links lose it, and the next bottleneck is sought. Ties go to the lower link
// index in both searches.
void FlowLevelModel::scan_fill(std::size_t left) {
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

void FlowLevelModel::heap_fill(std::size_t left) {
  // Candidate bottlenecks as (equal share, link) with lazy keys. Freezing a
  // flow at the current level s never lowers the share of another link (its
  // share was >= s, so (rem - s x frac) / (weight - frac) >= rem / weight):
  // a key is a lower bound of its link's share, and a popped key below the
  // true share is queued again at that share. Only a share that rounding
  // lowered below its key is queued at once. The least key, when it matches
  // its link, is then the least (share, link) pair: the bottleneck an eager
  // heap finds. The first keys are sorted (one cache-friendly pass, links
  // whose flows all froze elsewhere skipped at O(1)); re-queued keys go to a
  // small heap beside them.
  const auto share_of = [&](std::uint32_t j) { return std::max(rem_cap_[j], 0.0) / weight_[j]; };
  const auto later = [](const Share& a, const Share& b) {
    return a.share > b.share || (a.share == b.share && a.link > b.link);
  };
  const auto push = [&](double share, std::uint32_t j) {
    key_[j] = share;
    heap_.push_back({share, j});
    std::push_heap(heap_.begin(), heap_.end(), later);
  };
  heap_.clear();
  sorted_.clear();
  key_.resize(sub_links_.size());
  for (std::uint32_t j : live_) {
    key_[j] = share_of(j);
    sorted_.push_back({key_[j], j});
  }
  max_min::radix_sort_by_share(sorted_, heap_);
  std::size_t next = 0;
  while (left > 0) {
    Share top{};
    if (next < sorted_.size() && (heap_.empty() || !later(sorted_[next], heap_.front()))) {
      top = sorted_[next++];
    } else if (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      top = heap_.back();
      heap_.pop_back();
    } else {
      break;
    }
    const std::uint32_t bottleneck = top.link;
    if (unfrozen_[bottleneck] == 0 || top.share != key_[bottleneck]) continue;
    const double share = share_of(bottleneck);
    if (share != top.share) {
      push(share, bottleneck);
      continue;
    }
    left -= freeze(bottleneck, top.share, [&](std::uint32_t m) {
      const double now = share_of(m);
      if (now < key_[m]) push(now, m);
    });
  }
}

}  // namespace ecmpsim::reference
