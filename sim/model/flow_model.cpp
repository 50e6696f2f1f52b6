#include "sim/model/flow_model.h"

#include <algorithm>
#include <cassert>

namespace ecmpsim {

using max_min::kInf;

void FlowModel::load(const FlowNetwork& net) {
  // Dense local indices for the links that carry at least one flow, so every
  // scan below is over used links only.
  local_of_.assign(net.capacity.size(), kNone);
  cap_.clear();
  flow_links_.clear();
  flow_frac_.clear();
  group_flows(net);
  const std::size_t groups = count_.size();
  rate_.assign(groups, 0.0);
  delivered_.assign(groups, 0.0);
  since_.assign(groups, 0.0);
  version_.assign(groups, 0);
  done_.assign(groups, 0);
  // Groups starting at 0 are active; later ones wait in pending_ by start.
  order_.clear();
  pending_.clear();
  next_pending_ = 0;
  for (std::uint32_t g = 0; g < groups; ++g) (group_start_.empty() || group_start_[g] <= 0 ? order_ : pending_).push_back(g);
  std::stable_sort(pending_.begin(), pending_.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return group_start_[a] < group_start_[b]; });
  solve_stamp_.assign(groups, {});
  used_.resize(cap_.size());
  link_version_.assign(cap_.size(), 0);
  loads_known_ = false;
  link_slot_.assign(cap_.size(), {});
  dense_ = cap_.size() <= scan_links_;
  if (dense_) {
    // Every used link is a sub-problem link under its own index, and its
    // groups are listed once for the run; a solve skips those it does not
    // re-solve.
    const std::size_t links = cap_.size();
    sub_links_.resize(links);
    for (std::uint32_t j = 0; j < links; ++j) link_slot_[j].sub = sub_links_[j] = j;
    groups_by_link(sub_begin_, sub_flows_);
  }
  if (!dense_ && local_) {
    // Every group on each link, for the local re-solve's checks.
    const std::size_t links = cap_.size();
    groups_by_link(link_group_begin_, link_groups_);
    link_group_end_.assign(link_group_begin_.begin() + 1, link_group_begin_.end());
    cand_mark_.assign(groups, 0);
    checked_.assign(groups, 0);
    bneck_.assign(groups, kNone);
    bneck_next_.assign(groups, kNone);
    bneck_prev_.assign(groups, kNone);
    bneck_lists_ = false;
    link_check_.assign(links, {});
    link_dirty_.assign(links, 0);
    dirty_links_.clear();
    dirty_stamp_ = 0;
    cand_stamp_ = round_ = 0;
    skip_ = last_skip_ = 0;
  }
  finishes_.clear();
  finished_ = 0;
  stamp_ = 0;
}

void FlowModel::run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress) {
  // The local re-solve assumes finishes only; a run with arrivals re-solves suffixes.
  const bool local = local_;
  local_ = local && std::ranges::none_of(net.start, [](double t) { return t > 0; });
  max_min::EventLoop::run(*this, net, out, progress);
  local_ = local;
}

std::size_t FlowModel::admit(double& now, FlowTimes& out) {
  now = next_arrival();
  for (; waiting() && group_start_[pending_[next_pending_]] == now; ++next_pending_) {
    const std::uint32_t g = pending_[next_pending_];
    since_[g] = now;
    order_.push_back(g);
  }
  solve(0, now);
  for (const std::uint32_t g : order_) {
    if (group_start_[g] != now) continue;
    for (std::uint32_t m = member_begin_[g]; m < member_begin_[g + 1]; ++m) out.start_rate[members_[m]] = Gbps{rate_[g]};
  }
  return order_.size();
}

std::optional<std::size_t> FlowModel::solve_locally(std::size_t from, double threshold, double now) {
  if (dense_ || !local_ || !solve_local(from, threshold, now)) return std::nullopt;
  return cand_.size();
}

void FlowModel::start_rates(FlowTimes& out) const {
  for (std::uint32_t g : order_)
    for (std::uint32_t m = member_begin_[g]; m < member_begin_[g + 1]; ++m) out.start_rate[members_[m]] = Gbps{rate_[g]};
}

max_min::FinishQueue::Entry FlowModel::head_entry(std::uint32_t g) const {
  return {since_[g] + (member_bits_[head_[g]] - delivered_[g]) / rate_[g], g, version_[g]};
}

void FlowModel::never_finish(std::uint32_t g, FlowTimes& out) const {
  for (std::uint32_t m = head_[g]; m < member_begin_[g + 1]; ++m) out.finish[members_[m]] = Seconds{kInf};
}

// The group's flow with the fewest bytes left finishes; the next one is
// queued at the same rate (it may finish at this instant too).
void FlowModel::finish(std::uint32_t g, double now, FlowTimes& out) {
  touched_.push_back(g);
  out.finish[members_[head_[g]++]] = Seconds{now};
  --count_[g];
  if (loads_known_)
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      used_[flow_links_[i]] -= rate_[g] * frac(i);
      ++link_version_[flow_links_[i]];
    }
  if (count_[g] == 0) {
    done_[g] = 1;
    ++version_[g];
  } else {
    finishes_.push(head_entry(g));
  }
}

void FlowModel::add_load(std::uint32_t g, double delta) {
  for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
    used_[flow_links_[i]] += delta * weight(g, i);
    ++link_version_[flow_links_[i]];
    mark_dirty(flow_links_[i]);
  }
}

void FlowModel::ensure_loads() {
  if (loads_known_) return;
  std::fill(used_.begin(), used_.end(), 0.0L);
  for (std::uint32_t g : order_)
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) used_[flow_links_[i]] += rate_[g] * weight(g, i);
  loads_known_ = true;
  ++loads_epoch_;  // no link check made before holds
}

void FlowModel::build_subproblem(std::span<const std::uint32_t> groups, bool partial) {
  // Each link the re-solved groups cross offers what the fixed groups leave:
  // its capacity less the current rates, plus the re-solved groups' own
  // rates (with no group fixed, its capacity). The link loads are only needed
  // once some groups stay fixed: summed then.
  // The dense path re-solves a suffix of order_ (local re-solves are sparse only).
  assert(!dense_ || groups.data() + groups.size() == order_.data() + order_.size());
  if (dense_) return dense_subproblem(order_.size() - groups.size());
  if (partial) ensure_loads();
  sub_links_.clear();
  sub_.clear();
  for (const std::uint32_t g : groups) {
    solve_stamp_[g].in_solve = stamp_;
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      const std::uint32_t j = flow_links_[i];
      if (link_slot_[j].mark != stamp_) {
        link_slot_[j].mark = stamp_;
        link_slot_[j].sub = static_cast<std::uint32_t>(sub_links_.size());
        sub_links_.push_back(j);
        sub_.push_back({partial ? static_cast<double>(static_cast<long double>(cap_[j]) - used_[j]) : cap_[j], 0.0, 0});
      }
      if (partial) sub_[link_slot_[j].sub].rem += rate_[g] * weight(g, i);
      ++sub_[link_slot_[j].sub].unfrozen;
      sub_[link_slot_[j].sub].weight += weight(g, i);
    }
  }
  const std::size_t links = sub_links_.size();
  sub_begin_.assign(links + 1, 0);
  for (std::size_t s = 0; s < links; ++s) sub_begin_[s + 1] = sub_begin_[s] + sub_[s].unfrozen;
  sub_flows_.resize(sub_begin_[links]);
  cursor_.assign(sub_begin_.begin(), sub_begin_.end() - 1);
  for (const std::uint32_t g : groups)
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) sub_flows_[cursor_[link_slot_[flow_links_[i]].sub]++] = g;
}

void FlowModel::dense_subproblem(std::size_t from) {
  const std::size_t links = cap_.size();
  sub_.resize(links);
  // What the fixed groups leave, summed from them: no link loads to keep
  // (loads_known_ stays false), and no cancellation in capacity - load.
  for (std::size_t j = 0; j < links; ++j) sub_[j] = {cap_[j], 0.0, 0};
  for (std::size_t k = 0; k < from; ++k) {
    const std::uint32_t g = order_[k];
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) sub_[flow_links_[i]].rem -= rate_[g] * weight(g, i);
  }
  for (std::size_t k = from; k < order_.size(); ++k) {
    const std::uint32_t g = order_[k];
    solve_stamp_[g].in_solve = stamp_;
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      ++sub_[flow_links_[i]].unfrozen;
      sub_[flow_links_[i]].weight += weight(g, i);
    }
  }
  // Every loaded link is searched (pick_links only pays on many links).
  live_.clear();
  for (std::uint32_t j = 0; j < links; ++j)
    if (sub_[j].unfrozen > 0) live_.push_back(j);
}

void FlowModel::fill(std::span<const std::uint32_t> groups, bool partial, double now) {
  ++stamp_;
  const std::size_t count = groups.size();
  old_rate_.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint32_t g = groups[k];
    delivered_[g] += rate_[g] * (now - since_[g]);
    since_[g] = now;
    old_rate_[k] = rate_[g];
  }
  build_subproblem(groups, partial);
  if (!dense_) pick_links(groups);
  live_share_.resize(live_.size());
  by_rate_.clear();
  if (live_.size() <= scan_links_)
    scan_fill(count);
  else
    heap_fill(count);
}

void FlowModel::groups_by_link(std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& groups) {
  const std::size_t links = cap_.size();
  begin.assign(links + 1, 0);
  for (const std::uint32_t j : flow_links_) ++begin[j + 1];
  for (std::size_t j = 0; j < links; ++j) begin[j + 1] += begin[j];
  groups.resize(flow_links_.size());
  cursor_.assign(begin.begin(), begin.end() - 1);
  for (std::uint32_t g = 0; g + 1 < group_begin_.size(); ++g)
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) groups[cursor_[flow_links_[i]]++] = g;
}

void FlowModel::requeue_changed(std::span<const std::uint32_t> groups, std::span<const double> before, bool loads) {
  const std::size_t queued = finishes_.size();
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const std::uint32_t g = groups[k];
    const double delta = rate_[g] - before[k];
    if (delta == 0) continue;  // its queued finish time still holds
    if (loads) add_load(g, delta);
    ++version_[g];
    if (rate_[g] > 0) finishes_.append(head_entry(g));
  }
  finishes_.merge(queued, order_.size(), version_);
}

void FlowModel::solve(std::size_t from, double now) {
  const std::size_t count = order_.size() - from;
  // Where each group freezes is its bottleneck (the filling leaves that link
  // saturated with no faster group): recorded for the local re-solves.
  record_bneck_ = !dense_ && local_;
  bneck_lists_ = false;
  fill(std::span<const std::uint32_t>(order_).subspan(from), from > 0, now);
  record_bneck_ = false;

  requeue_changed(std::span<const std::uint32_t>(order_).subspan(from), old_rate_, loads_known_);
  // The filling froze the groups level by level, so by_rate_ in freeze order
  // is sorted by rate but where rounding put a level an ulp low: it becomes
  // the suffix's order as it is (ties stay in freeze order, deterministic),
  // and is only sorted when it is out of order. One level (a symmetric
  // collective) leaves order_ in order already.
  const auto first = order_.begin() + static_cast<std::ptrdiff_t>(from);
  const auto slower = [&](std::uint32_t a, std::uint32_t b) { return rate_[a] < rate_[b]; };
  if (!std::is_sorted(first, order_.end(), slower)) {
    if (by_rate_.size() != count) {
      by_rate_.resize(count);
      for (std::size_t k = 0; k < count; ++k) by_rate_[k] = {rate_[order_[from + k]], order_[from + k]};
    }
    const auto by_level = [](const Level& x, const Level& y) { return x.rate < y.rate; };
    const auto lower = [](const Level& x, const Level& y) { return x.rate < y.rate || (x.rate == y.rate && x.group < y.group); };
    if (!std::is_sorted(by_rate_.begin(), by_rate_.end(), by_level)) std::sort(by_rate_.begin(), by_rate_.end(), lower);
    for (std::size_t k = 0; k < count; ++k) order_[from + k] = by_rate_[k].group;
  }
  // The re-solved groups are at or above the lowest finishing level; should
  // rounding put one a hair below a fixed group, merging restores the order.
  // Only the fixed groups above the suffix's least rate take part (a stable
  // merge leaves those before it in place): a merge of all of order_ cost a
  // pass over a million groups at k = 48 for a few re-ordered ones.
  if (from > 0 && slower(*first, *(first - 1))) {
    const auto low = std::upper_bound(order_.begin(), first, *first, slower);
    std::inplace_merge(low, first, order_.end(), slower);
  }
}

// Links that carry one sub-problem group are most of a sub-problem's links
// (host links, and fabric links under uneven load), and such a link's share
// changes only when its one group freezes. Of a group's own links only the
// least (share, link) can then be a bottleneck: the others could only be
// reached after that group froze. The filling searches every link with two or
// more groups and that one link per group, in sub index order, and so finds
// the same bottlenecks in the same order as over all links.
void FlowModel::pick_links(std::span<const std::uint32_t> groups) {
  pick_.assign(sub_links_.size(), 0);
  for (const std::uint32_t g : groups) {
    std::uint32_t best_link = kNone;
    double best = 0;
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      const std::uint32_t s = link_slot_[flow_links_[i]].sub;
      if (sub_[s].unfrozen != 1) continue;
      const double share = std::max(sub_[s].rem, 0.0) / sub_[s].weight;
      if (best_link == kNone || share < best || (share == best && s < best_link)) {
        best = share;
        best_link = s;
      }
    }
    if (best_link != kNone) pick_[best_link] = 1;
  }
  live_.clear();
  for (std::uint32_t s = 0; s < sub_links_.size(); ++s)
    if (sub_[s].unfrozen > 1 || pick_[s]) live_.push_back(s);
}

template <typename OnChange>
std::size_t FlowModel::freeze(std::uint32_t j, double rate, OnChange on_change) {
  std::size_t fixed = 0;
  for (std::uint32_t k = sub_begin_[j]; k < sub_begin_[j + 1]; ++k) {
    const std::uint32_t g = sub_flows_[k];
    GroupStamp& at = solve_stamp_[g];
    if (at.frozen == stamp_ || at.in_solve != stamp_) continue;
    at.frozen = stamp_;
    rate_[g] = rate;
    if (record_bneck_) bneck_[g] = sub_links_[j];
    by_rate_.push_back({rate, g});
    ++fixed;
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      const std::uint32_t m = link_slot_[flow_links_[i]].sub;
      sub_[m].rem -= rate * weight(g, i);
      sub_[m].weight -= weight(g, i);
      if (--sub_[m].unfrozen > 0 && m != j) on_change(m);
    }
  }
  return fixed;
}

// Progressive filling: the link offering the smallest equal share to its
// unfrozen flows is the bottleneck; its flows get that share, their other
// links lose it, and the next bottleneck is sought. Ties go to the lower link
// index in both searches.
void FlowModel::scan_fill(std::size_t left) {
  const auto share_of = [&](std::uint32_t j) { return std::max(sub_[j].rem, 0.0) / sub_[j].weight; };
  while (left > 0 && !live_.empty()) {
    double best = kInf;
    std::size_t kept = 0;
    for (std::uint32_t j : live_) {
      if (sub_[j].unfrozen == 0) continue;
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
      if (live_share_[k] == best && sub_[j].unfrozen > 0 && share_of(j) == best)
        left -= freeze(j, best, [](std::uint32_t) {});
    }
  }
}

void FlowModel::heap_fill(std::size_t left) {
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
  const auto share_of = [&](std::uint32_t j) { return std::max(sub_[j].rem, 0.0) / sub_[j].weight; };
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
    if (sub_[bottleneck].unfrozen == 0 || top.share != key_[bottleneck]) continue;
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

}  // namespace ecmpsim
