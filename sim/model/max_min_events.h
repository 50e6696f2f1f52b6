// What the incremental max-min solvers share (FlowModel, flow_model.h, over
// groups of flows; reference::FlowLevelModel, reference_models.h, over single
// flows): the finish queue, the event loop that drives a solve from time 0 to
// the last finish, and the radix sort their bottleneck search orders link
// shares with. The solvers' headers include it (each holds a FinishQueue),
// so every includer of flow_model.h compiles it too. The from-scratch
// reference (ReferenceFlowModel) steps through time its own way on purpose:
// it is the independent check of this loop.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "sim/model/max_min.h"

namespace ecmpsim::max_min {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Variables within this relative margin below the lowest finishing rate are
// re-solved too: they may sit at the same level, rounded one ulp lower, and
// re-solving one that keeps its rate is only work, never an error.
inline constexpr double kLevelSlack = 1e-12;

// Stable LSD radix sort of (share, link) pairs by share, a byte per pass,
// skipping bytes that every key shares (the exponents mostly): pairs that
// arrive in link order leave in (share, link) order, several times faster
// than a comparison sort of the thousands of links a re-solve searches.
// Shares are >= 0 (a -0 counts as 0), so their bits order as the values do.
template <typename Pair>
void radix_sort_by_share(std::vector<Pair>& items, std::vector<Pair>& scratch) {
  const auto key = [](const Pair& p) { return std::bit_cast<std::uint64_t>(p.share == 0 ? 0.0 : p.share); };
  scratch.resize(items.size());
  for (unsigned shift = 0; shift < 64; shift += 8) {
    std::array<std::uint32_t, 257> start{};
    for (const Pair& p : items) ++start[((key(p) >> shift) & 0xff) + 1];
    if (std::find(start.begin() + 1, start.end(), items.size()) != start.end()) continue;
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    for (const Pair& p : items) scratch[start[(key(p) >> shift) & 0xff]++] = p;
    items.swap(scratch);
  }
  scratch.clear();
}

// Projected finish times, earliest first (ties by variable id): at most one
// live entry per variable, the one carrying its current version; entries of
// older versions are stale and skipped when they come up.
class FinishQueue {
 public:
  struct Entry {
    double at;
    std::uint32_t id;
    std::uint32_t version;
  };
  void clear() noexcept { heap_.clear(); }
  bool empty() const noexcept { return heap_.empty(); }
  std::size_t size() const noexcept { return heap_.size(); }
  const Entry& front() const noexcept { return heap_.front(); }
  // An entry left out of heap order until merge().
  void append(const Entry& e) { heap_.push_back(e); }
  void push(const Entry& e) {
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
  Entry pop() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Entry e = heap_.back();
    heap_.pop_back();
    return e;
  }
  void drop_stale(std::span<const std::uint32_t> version) {
    while (!heap_.empty() && heap_.front().version != version[heap_.front().id]) pop();
  }
  // Orders the entries appended since the queue held `queued`. Many new
  // entries (most re-solved variables changed rate), or stale entries
  // outnumbering the `live` variables': drop the stale ones and heapify what
  // is left, so the heap stays the live variables' size; a few: push them one
  // by one. Which entry comes up next never depends on the heap's layout.
  void merge(std::size_t queued, std::size_t live, std::span<const std::uint32_t> version) {
    if (heap_.size() - queued > queued / 8 || heap_.size() > 2 * live + 1024) {
      std::erase_if(heap_, [&](const Entry& e) { return e.version != version[e.id]; });
      std::make_heap(heap_.begin(), heap_.end(), Later{});
    } else {
      for (std::size_t k = queued + 1; k <= heap_.size(); ++k)
        std::push_heap(heap_.begin(), heap_.begin() + static_cast<std::ptrdiff_t>(k), Later{});
    }
  }

 private:
  // A type of its own, not a function pointer, so the heap algorithms inline
  // it (a pointer cost FlowModel 1% more instructions on the k = 16 mix).
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const noexcept {
      return a.at > b.at || (a.at == b.at && a.id > b.id);
    }
  };
  std::vector<Entry> heap_;
};

// The event loop. A Solver holds, over its variables v (a group of flows on
// one path, or one flow): order_ (the active variables by rising rate),
// rate_[v], done_[v] (no flow of v left), version_[v], finishes_ (a
// FinishQueue) and finished_ (flows finished this run), and provides
//   load(net)                   reads the network: its variables into order_
//   active_flows()              flows with bytes to send
//   solve(from, now)            re-solves order_[from, end) on what the rest leave
//   solve_locally(from, threshold, now)
//                               variables re-solved around the finishing flows,
//                               or nullopt to re-solve the suffix instead
//   start_rates(out)            each flow's rate at time 0
//   begin_event()               before an event's finishes
//   finish(v, now, out)         v's next flow finishes at `now`
//   never_finish(v, out)        v's flows never finish (only dead links left)
// and, if it takes arrivals (FlowNetwork::start; FlowModel does):
//   waiting()                   variables not yet started
//   next_arrival()              the earliest start among them
//   admit(now, out)             those starting then join, now set to it; all
//                               active re-solved; returns how many
// The solvers befriend it.
struct EventLoop {
  // One event: the finishes within the tolerance of the earliest, done;
  // returns the lowest rate among them, 0 when none can finish.
  template <typename Solver>
  static double finish_next(Solver& s, double& now, FlowTimes& out) {
    s.finishes_.drop_stale(s.version_);
    if (s.finishes_.empty()) {
      // Only flows on a dead link are left: they never finish.
      for (const std::uint32_t v : s.order_) s.never_finish(v, out);
      s.order_.clear();
      return 0;
    }
    s.begin_event();
    const double before = now;
    const double step = s.finishes_.front().at - before;
    const double finish_by = step * (1 + kFinishTolerance);
    now += step;
    double lowest = kInf;
    while (!s.finishes_.empty() && s.finishes_.front().at - before <= finish_by) {
      const FinishQueue::Entry e = s.finishes_.pop();
      if (e.version != s.version_[e.id]) continue;
      s.finish(e.id, now, out);
      ++s.finished_;
      lowest = std::min(lowest, s.rate_[e.id]);
    }
    return lowest;
  }

  // Arrivals: none unless the solver takes them.
  template <typename Solver>
  static std::size_t waiting(const Solver& s) {
    if constexpr (requires { s.waiting(); }) return s.waiting();
    return 0;
  }
  // An arrival comes first when it is no later than the earliest finish; then
  // the arriving variables join and every active one is re-solved.
  template <typename Solver>
  static bool arrive(Solver& s, double& now, FlowTimes& out) {
    if constexpr (requires { s.next_arrival(); }) {
      if (s.waiting() == 0) return false;
      s.finishes_.drop_stale(s.version_);
      if (s.next_arrival() > (s.finishes_.empty() ? kInf : s.finishes_.front().at)) return false;
      out.resolved += s.admit(now, out);
      ++out.events;
      return true;
    }
    return false;
  }

  // Solves at time 0, then takes the earliest projected finish and every one
  // within kFinishTolerance of it as one event, and re-solves the variables at
  // or above the lowest rate among those finishing: every slower one keeps its
  // rate (the link that froze it saturated below that rate, so no finishing
  // flow crosses it). Arrivals re-solve everything (an arrival can lower any rate).
  template <typename Solver>
  static void run(Solver& s, const FlowNetwork& net, FlowTimes& out, FlowProgress* progress) {
    const std::size_t flows = net.bytes.size();
    out.start_rate.assign(flows, Gbps{0});
    out.finish.assign(flows, Seconds{0});
    out.events = 0;
    out.resolved = 0;
    out.local = 0;
    s.load(net);
    s.finished_ = 0;
    out.groups = s.order_.size() + waiting(s);
    if (progress) {
      progress->events = progress->finished = 0;
      progress->flows = s.active_flows();
      progress->now = 0;
      if (progress->changed) progress->changed(*progress);
    }
    if (!s.order_.empty()) {
      s.solve(0, 0.0);
      out.events = 1;
      out.resolved = s.order_.size();
      s.start_rates(out);
    }
    double now = 0;
    while (!s.order_.empty() || waiting(s) > 0) {
      if (arrive(s, now, out)) continue;
      const double lowest = finish_next(s, now, out);
      if (lowest == 0) break;
      const auto by_rate = [&](std::uint32_t v, double r) { return s.rate_[v] < r; };
      const auto from = static_cast<std::size_t>(
          std::lower_bound(s.order_.begin(), s.order_.end(), lowest * (1 - kLevelSlack), by_rate) - s.order_.begin());
      // The rest, without the variables whose flows all finished.
      std::size_t kept = from;
      for (std::size_t k = from; k < s.order_.size(); ++k)
        if (!s.done_[s.order_[k]]) s.order_[kept++] = s.order_[k];
      s.order_.resize(kept);
      if (kept == 0) continue;  // idle until the next arrival, if any
      ++out.events;
      if (progress) {
        progress->events = out.events;
        progress->finished = s.finished_;
        progress->now = now;
        if (progress->changed) progress->changed(*progress);
      }
      if (from == kept) continue;
      if (const std::optional<std::size_t> local = s.solve_locally(from, lowest * (1 - kLevelSlack), now)) {
        ++out.local;
        out.resolved += *local;
        continue;
      }
      s.solve(from, now);
      out.resolved += kept - from;
    }
  }
};

}  // namespace ecmpsim::max_min
