// The local re-solve of FlowModel (flow_model.h): after an event, re-solve
// only the groups around the finishing flows, and prove the result max-min
// fair by the bottleneck condition, growing the set where it fails.
//
// An allocation is max-min fair if and only if every flow has a bottleneck: a
// link of its path that is saturated and carries no faster flow (Bertsekas
// and Gallager, Data Networks, 2nd ed., section 6.5.2), and that allocation
// is unique. Every unfinished group carries the link last proven its
// bottleneck: the link it froze at in a suffix solve (the filling leaves that
// link saturated with no faster group), or the one a passing check found. A
// group whose recorded link did not change since keeps its bottleneck, so the
// groups to check are those recorded on a link whose load changed (each link
// lists its recorded groups), the members of the re-solved set C, and the
// groups whose last check failed. C starts as the finishing groups and the
// groups recorded on the finishing flows' links (only they can rise at once);
// it is re-solved by the same filling on the capacity the others leave; then
// an outsider without a bottleneck joins C, and a member without one pulls in
// the faster outsiders on its saturated links (they hold the capacity it
// should share). C is re-solved and checked again until every check passes.
// Outsiders below the threshold keep their rates (run(): a link that froze
// them carries no finishing flow) and are never checked; a member is checked
// whatever its rate (a round can push it below the threshold).
// The checks err towards failing (a link within 1e-13 of its capacity is
// saturated, a rate within 1e-12 of another is not faster): a wrong failure
// costs a larger C, never a wrong rate. The attempt gives up, restoring every
// rate, when its filling work passes half the suffix or its checks a budget
// of link entries; the suffix solve then runs as before. docs/prediction.md,
// "Local re-solves", has the argument and the measurements.
#include "sim/model/flow_model.h"

#include <algorithm>

namespace ecmpsim {

namespace {
constexpr long double kSaturated = 1e-13L;  // load within this fraction of capacity: saturated
constexpr double kFaster = 1e-12;           // a rate more than this fraction above another is faster
}  // namespace

void FlowModel::add_candidate(std::uint32_t g) {
  cand_mark_[g] = cand_stamp_;
  cand_.push_back(g);
  orig_rate_.push_back(rate_[g]);
}

// The unfinished groups on local link l: finished ones are dropped from its
// list as they are met (each once), so an all-to-all that ended leaves no
// cost on the links it crossed.
std::span<const std::uint32_t> FlowModel::live_groups(std::uint32_t l) {
  std::uint32_t kept = link_group_begin_[l];
  for (std::uint32_t k = link_group_begin_[l]; k < link_group_end_[l]; ++k)
    if (!done_[link_groups_[k]]) link_groups_[kept++] = link_groups_[k];
  link_group_end_[l] = kept;
  return {link_groups_.data() + link_group_begin_[l], kept - link_group_begin_[l]};
}

// The link recorded as g's bottleneck is tried first: while its check holds
// the answer costs one record, where the path's other links may need a fresh
// scan of their groups. The answer is the same in any order; a bottleneck
// found elsewhere is recorded.
bool FlowModel::has_bottleneck(std::uint32_t g) {
  const auto bottleneck = [&](std::uint32_t l) {
    LinkCheck& c = link_check_[l];
    if (c.version != link_version_[l] || c.epoch != loads_epoch_) {
      c.version = link_version_[l];
      c.epoch = loads_epoch_;
      c.saturated = used_[l] >= static_cast<long double>(cap_[l]) * (1 - kSaturated);
      c.fastest = 0;
      const auto on = live_groups(l);
      budget_ -= std::min(budget_, on.size());
      for (const std::uint32_t h : on) c.fastest = std::max(c.fastest, rate_[h]);
    }
    return c.saturated && c.fastest <= rate_[g] * (1 + kFaster);
  };
  const std::uint32_t recorded = bneck_[g];
  if (recorded != kNone && bottleneck(recorded)) return true;
  for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
    const std::uint32_t l = flow_links_[i];
    if (l != recorded && bottleneck(l)) {
      set_bottleneck(g, l);
      return true;
    }
  }
  return false;
}

void FlowModel::unlink_bottleneck(std::uint32_t g) {
  const std::uint32_t l = bneck_[g], prev = bneck_prev_[g], next = bneck_next_[g];
  if (l == kNone) return;
  (prev == kNone ? bneck_head_[l] : bneck_next_[prev]) = next;
  if (next != kNone) bneck_prev_[next] = prev;
  bneck_[g] = kNone;
}

void FlowModel::set_bottleneck(std::uint32_t g, std::uint32_t l) {
  if (bneck_[g] == l) return;
  if (!bneck_lists_) {
    bneck_[g] = l;
    return;
  }
  unlink_bottleneck(g);
  bneck_[g] = l;
  bneck_prev_[g] = kNone;
  bneck_next_[g] = bneck_head_[l];
  if (bneck_head_[l] != kNone) bneck_prev_[bneck_head_[l]] = g;
  bneck_head_[l] = g;
}

// The lists from bneck_, after a suffix solve recorded where its groups froze.
void FlowModel::rebuild_bottlenecks() {
  bneck_head_.assign(cap_.size(), kNone);
  bneck_unknown_.clear();
  bneck_lists_ = true;
  for (const std::uint32_t g : order_) {
    const std::uint32_t l = bneck_[g];
    bneck_[g] = kNone;
    if (l == kNone)
      bneck_unknown_.push_back(g);
    else
      set_bottleneck(g, l);
  }
}

// One round of checks (see the top of the file): true when C grew. It reads
// the groups recorded on the links whose load changed since the last round
// (dirty_links_), the groups without a recorded link (bneck_unknown_: their
// last check failed) and the members that joined last round, and nothing
// else. Stops early once the budget is spent (the caller gives up).
bool FlowModel::grow_candidates(double threshold, std::size_t joined) {
  ++round_;
  const std::size_t before = cand_.size();
  const auto check = [&](std::uint32_t h) {
    if (checked_[h] == round_ || (rate_[h] < threshold && cand_mark_[h] != cand_stamp_)) return;
    checked_[h] = round_;
    if (has_bottleneck(h)) return;
    // Its recorded link does not hold: checked every round until one does.
    if (bneck_[h] != kNone) {
      unlink_bottleneck(h);
      bneck_unknown_.push_back(h);
    }
    if (cand_mark_[h] != cand_stamp_) return add_candidate(h);
    // A member without a bottleneck: the faster outsiders on its saturated
    // links hold the capacity it should share.
    for (std::uint32_t i = group_begin_[h]; i < group_begin_[h + 1]; ++i) {
      const std::uint32_t m = flow_links_[i];
      if (!link_check_[m].saturated) continue;
      for (const std::uint32_t o : live_groups(m))
        if (cand_mark_[o] != cand_stamp_ && rate_[o] > rate_[h] * (1 + kFaster)) add_candidate(o);
    }
  };
  round_links_.swap(dirty_links_);
  dirty_links_.clear();
  ++dirty_stamp_;
  // A group with no recorded bottleneck is checked every round until it has one.
  std::erase_if(bneck_unknown_, [&](std::uint32_t h) { return done_[h] || bneck_[h] != kNone; });
  for (const std::uint32_t h : bneck_unknown_) check(h);
  for (const std::uint32_t l : round_links_) {
    for (std::uint32_t h = bneck_head_[l], next; h != kNone && budget_ > 0; h = next) {
      next = bneck_next_[h];
      --budget_;
      if (done_[h])
        unlink_bottleneck(h);
      else
        check(h);
    }
    if (budget_ == 0) break;
  }
  for (std::size_t k = joined; k < before && budget_ > 0; ++k) check(cand_[k]);
  return cand_.size() > before;
}

bool FlowModel::solve_local(std::size_t from, double threshold, double now) {
  if (skip_ > 0) {
    --skip_;
    return false;
  }
  ensure_loads();
  if (!bneck_lists_) rebuild_bottlenecks();
  ++cand_stamp_;
  cand_.clear();
  orig_rate_.clear();
  const std::size_t suffix = order_.size() - from;
  budget_ = 16 * suffix + 1024;
  // The first round checks the finishing flows' links, then those the fillings move.
  dirty_links_.clear();
  ++dirty_stamp_;
  for (const std::uint32_t g : touched_)
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) mark_dirty(flow_links_[i]);
  for (const std::uint32_t g : touched_)
    if (!done_[g] && cand_mark_[g] != cand_stamp_) add_candidate(g);
  // Only a group whose bottleneck the finishing flows crossed can rise at
  // once (the others keep theirs): those start C, the checks add the rest.
  for (const std::uint32_t l : dirty_links_)
    for (std::uint32_t h = bneck_head_[l], next; h != kNone; h = next) {
      next = bneck_next_[h];
      if (done_[h])
        unlink_bottleneck(h);
      else if (cand_mark_[h] != cand_stamp_ && rate_[h] >= threshold)
        add_candidate(h);
    }
  std::size_t work = 0, joined = 0;
  bool grew = !cand_.empty();
  while (grew) {
    work += cand_.size();
    if (2 * work > suffix + 64) break;
    fill(cand_, true, now);
    for (std::size_t k = 0; k < cand_.size(); ++k) {
      const std::uint32_t g = cand_[k];
      const double delta = rate_[g] - old_rate_[k];
      if (delta != 0) add_load(g, delta);
    }
    const std::size_t solved = cand_.size();
    grew = grow_candidates(threshold, joined);
    joined = solved;
    if (budget_ == 0) break;
  }
  if (grew || budget_ == 0) {
    // Gave up: every rate (and link load) back as it was before the event.
    for (std::size_t k = 0; k < cand_.size(); ++k) {
      const std::uint32_t g = cand_[k];
      const double delta = orig_rate_[k] - rate_[g];
      if (delta == 0) continue;
      add_load(g, delta);
      rate_[g] = orig_rate_[k];
    }
    skip_ = std::min<std::size_t>(2 * last_skip_ + 1, 64);
    last_skip_ = skip_;
    return false;
  }
  last_skip_ = 0;
  requeue_changed(cand_, orig_rate_, false);  // the rounds moved the loads already
  reorder_local(from);
  return true;
}

// order_ by rate again: the groups whose rate changed (all in the suffix) are
// taken out, sorted by (rate, group) and merged back into the rest, which
// kept its order. Ties put the moved groups after the others.
void FlowModel::reorder_local(std::size_t from) {
  by_rate_.clear();
  for (std::size_t k = 0; k < cand_.size(); ++k)
    if (rate_[cand_[k]] != orig_rate_[k]) by_rate_.push_back({rate_[cand_[k]], cand_[k]});
  if (by_rate_.empty()) return;
  std::sort(by_rate_.begin(), by_rate_.end(),
            [](const Level& x, const Level& y) { return x.rate < y.rate || (x.rate == y.rate && x.group < y.group); });
  for (const Level& m : by_rate_) checked_[m.group] = kNone;  // marks a moved group until it is placed
  const auto slower = [&](std::uint32_t g, double r) { return rate_[g] < r; };
  const auto lo = static_cast<std::size_t>(
      std::lower_bound(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(from), by_rate_.front().rate, slower) -
      order_.begin());
  std::size_t kept = lo;
  for (std::size_t k = lo; k < order_.size(); ++k)
    if (checked_[order_[k]] != kNone) order_[kept++] = order_[k];
  std::size_t out = order_.size(), i = kept, j = by_rate_.size();
  while (j > 0) {
    if (i > lo && rate_[order_[i - 1]] > by_rate_[j - 1].rate)
      order_[--out] = order_[--i];
    else
      order_[--out] = by_rate_[--j].group;
  }
  for (const Level& m : by_rate_) checked_[m.group] = 0;
}

}  // namespace ecmpsim
