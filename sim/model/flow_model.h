// The production max-min solver (the interface and its model: max_min.h).
// Flows on identical paths (same links, same fractions) always get one rate,
// so they are one variable of the solve, a group weighted by its unfinished flows;
// its flows finish in order of their bytes (one cursor per group), and a
// finish only lowers its group's weight. Re-sharing is incremental by
// bottleneck level: when the groups with flows finishing at an event have
// rates >= r, every slower group keeps its rate (a link that froze it
// saturated below r, so no finishing flow crosses it); only the groups at
// levels >= r (a suffix of the groups sorted by rate) are re-solved on the
// capacity the rest leave. An event re-solving H group-hops costs O(H)
// (sub-problem, candidate links: those with two or more of its groups plus one
// own link per group), a stable radix sort of the candidates' shares (3-4
// linear passes), a heap only for shares that rose before they were reached
// (lazy keys: freezing a group never lowers another link's share), and
// log(groups) per changed rate in the finish heap (stale entries dropped once
// they outnumber live ones). Before that suffix, an event first tries a local
// re-solve (flow_local.cpp): only the groups on the finishing flows' links,
// grown while some group lacks a bottleneck link (saturated, no faster group
// on it), which proves the allocation max-min fair; it falls back to the
// suffix when the set grows past a fraction of it. Proof and measurements:
// docs/prediction.md, "How the model re-shares".
//
// Flows may also arrive later than time 0 (FlowNetwork::start, for replayed
// traces): flows of one path and one start time are a group, a group joins
// the solve at its start, and an arrival re-solves every active group (the
// suffix argument holds for finishes only: an arrival can lower any rate).
// Runs with arrivals use the suffix solve alone (docs/traces.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/model/max_min.h"
#include "sim/model/max_min_events.h"

namespace ecmpsim {

// Its references, the solvers before grouping and before incremental
// re-solves, are beside it in reference_models.h.
class FlowModel : public MaxMinSolver {
 public:
  // `scan_links` chooses the bottleneck search (see kScanLinks); both give
  // the same rates, and tests/model/flow_model_test.cpp compares them.
  // `local` allows the local re-solve (flow_local.cpp); both give the same
  // rates to rounding, and the tests compare them.
  explicit FlowModel(std::size_t scan_links = kScanLinks, bool local = true)
      : scan_links_(scan_links), local_(local) {}

  void run(const FlowNetwork& net, FlowTimes& out, FlowProgress* progress = nullptr) override;

 private:
  friend struct max_min::EventLoop;
  // The event loop's steps (max_min_events.h), over groups.
  void load(const FlowNetwork& net);
  std::size_t active_flows() const noexcept { return members_.size(); }
  std::optional<std::size_t> solve_locally(std::size_t from, double threshold, double now);
  void start_rates(FlowTimes& out) const;
  void begin_event() noexcept { touched_.clear(); }
  void finish(std::uint32_t g, double now, FlowTimes& out);
  void never_finish(std::uint32_t g, FlowTimes& out) const;
  // Arrivals: groups not yet started, the next start time (+inf if none), and
  // the groups starting then joining with every active group re-solved at that
  // instant (returns the groups re-solved).
  std::size_t waiting() const noexcept { return pending_.size() - next_pending_; }
  double next_arrival() const noexcept { return waiting() ? group_start_[pending_[next_pending_]] : max_min::kInf; }
  std::size_t admit(double& now, FlowTimes& out);
  // Groups the active flows by path (see the .cpp) into group_begin_,
  // flow_links_, flow_frac_, members_ and member_begin_.
  void group_flows(const FlowNetwork& net);
  // Max-min rates of the groups in order_[from, end) on the capacity the
  // groups before `from` leave; sorts that range by its new rates.
  void solve(std::size_t from, double now);
  // Max-min rates of `groups` on the capacity every other group leaves
  // (`partial`: some group is fixed), old rates kept in old_rate_.
  void fill(std::span<const std::uint32_t> groups, bool partial, double now);
  void build_subproblem(std::span<const std::uint32_t> groups, bool partial);
  // The same on a fabric of few links (dense_), without renumbering.
  void dense_subproblem(std::size_t from);
  // The sub links the filling searches (see the .cpp), into live_.
  void pick_links(std::span<const std::uint32_t> groups);
  // used_ summed from the rates, once.
  void ensure_loads();
  // used_ on g's links moved by `delta` Gb/s of g's rate.
  void add_load(std::uint32_t g, double delta);
  void mark_dirty(std::uint32_t l) {
    if (link_dirty_.empty() || link_dirty_[l] == dirty_stamp_) return;
    link_dirty_[l] = dirty_stamp_;
    dirty_links_.push_back(l);
  }
  // The local re-solve (flow_local.cpp): false, with every rate as it was,
  // when it gave up; the caller then re-solves the suffix.
  bool solve_local(std::size_t from, double threshold, double now);
  // `joined`: the first member not yet checked as a member.
  bool grow_candidates(double threshold, std::size_t joined);
  bool has_bottleneck(std::uint32_t g);
  void set_bottleneck(std::uint32_t g, std::uint32_t l);
  void unlink_bottleneck(std::uint32_t g);
  void rebuild_bottlenecks();
  std::span<const std::uint32_t> live_groups(std::uint32_t l);
  void add_candidate(std::uint32_t g);
  void reorder_local(std::size_t from);
  // Each of `groups` whose rate moved from `before[k]`: its finish entry
  // renewed at the new rate, and its links' loads moved when `loads`.
  void requeue_changed(std::span<const std::uint32_t> groups, std::span<const double> before, bool loads);
  // Every group on each used link as a CSR (begin: links + 1 entries).
  void groups_by_link(std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& groups);
  void scan_fill(std::size_t left);
  void heap_fill(std::size_t left);
  // Fixes the rate of every unfrozen group on sub-problem link j at `rate`.
  template <typename OnChange>
  std::size_t freeze(std::uint32_t j, double rate, OnChange on_change);
  // The finish entry of g's next flow at g's rate.
  max_min::FinishQueue::Entry head_entry(std::uint32_t g) const;

  // The network, per used link (dense local index) and per group.
  std::vector<std::uint32_t> local_of_;   // global link -> local index, kNone if unused
  std::vector<double> cap_;               // local link capacity
  std::vector<long double> used_;         // sum of the current rates on each local link, once loads_known_
  bool loads_known_ = false;
  std::vector<std::uint32_t> flow_links_; // per group path entry, local link index
  std::vector<double> flow_frac_;         // per group path entry, its fraction; empty when no flow is split
  std::vector<std::uint32_t> group_begin_;// per group, into flow_links_; size groups + 1
  std::vector<std::uint32_t> members_;    // per group, its flows by rising bytes (ties by flow id)
  std::vector<std::uint32_t> member_begin_;
  std::vector<std::uint32_t> head_;       // per group: its first unfinished member, into members_
  std::vector<std::uint32_t> count_;      // per group: its unfinished flows (the group's weight)
  std::vector<double> member_bits_;       // parallel to members_: each flow's Gbit to send
  std::vector<double> rate_;              // per group: Gb/s of each of its flows in the current allocation
  std::vector<double> delivered_;         // per group: Gbit each of its flows sent by since_
  std::vector<double> since_;             // when delivered_ was last brought up to date
  std::vector<std::uint32_t> version_;    // bumped on every rate change (stale heap entries)
  std::vector<std::uint32_t> order_;      // active groups by rising rate (ties by group id)
  std::vector<std::uint8_t> done_;        // all flows finished, at the current event
  max_min::FinishQueue finishes_;         // projected finish times, one live entry per group
  std::vector<double> group_start_;       // per group: its flows' start; empty without arrivals
  std::vector<std::uint32_t> pending_;    // groups starting after 0, by (start, group)
  std::size_t next_pending_ = 0;          // the first of pending_ not yet admitted
  std::vector<std::uint32_t> slot_;       // grouping: open-addressing table of groups by path hash
  std::vector<std::uint32_t> group_of_;   // grouping: per flow, its group; kNone if inactive

  // The sub-problem being re-solved: its links (sub index) and their groups (CSR).
  // Each hop of a re-solved group reads its link's slot and its sub link:
  // two records rather than five arrays (docs/prediction.md).
  struct LinkSlot {
    std::uint32_t mark = 0;               // the solve that numbered the link
    std::uint32_t sub = 0;                // its sub index, valid when mark is current
  };
  std::vector<LinkSlot> link_slot_;       // per local link
  std::vector<std::uint32_t> sub_links_;  // sub index -> local link
  struct SubLink {
    double rem;                           // capacity left to unfrozen groups
    double weight;                        // its unfrozen flows' fractions summed
    std::uint32_t unfrozen;               // its unfrozen groups
  };
  std::vector<SubLink> sub_;              // per sub link
  std::vector<std::uint32_t> sub_begin_;  // per sub link, into sub_flows_
  std::vector<std::uint32_t> sub_flows_;  // the groups
  std::vector<std::uint32_t> cursor_;     // filling sub_flows_
  struct GroupStamp {
    std::uint32_t frozen = 0;             // the solve that fixed the group
    std::uint32_t in_solve = 0;           // the solve that re-solves it
  };
  std::vector<GroupStamp> solve_stamp_;   // per group
  bool dense_ = false;                    // at most scan_links_ used links: sub index = local index
  struct Share {
    double share;
    std::uint32_t link;
  };
  std::vector<Share> heap_;               // water-filling: re-queued candidate bottlenecks
  std::vector<Share> sorted_;             // water-filling: the first keys, sorted
  std::vector<double> key_;               // per sub link: its latest key
  std::vector<std::uint32_t> live_;       // water-filling: links with unfrozen groups
  std::vector<std::uint8_t> pick_;        // per sub link: a group's least link of its own
  std::vector<double> live_share_;        // and their equal shares, in a scan
  std::vector<double> old_rate_;          // per group of the sub-problem, before the solve
  struct Level {
    double rate;
    std::uint32_t group;
  };
  std::vector<Level> by_rate_;            // sorting the re-solved groups by their new rates
  std::uint32_t stamp_ = 0;
  std::size_t finished_ = 0;              // flows finished so far, for the progress
  std::size_t scan_links_;

  // The local re-solve (flow_local.cpp).
  bool local_;
  std::vector<std::uint32_t> link_group_begin_; // per local link, into link_groups_; size links + 1
  std::vector<std::uint32_t> link_group_end_;   // per local link: the end of its unfinished groups
  std::vector<std::uint32_t> link_groups_;      // the groups on each local link, unfinished ones first
  std::vector<std::uint32_t> touched_;          // groups with a flow finishing at this event
  std::vector<std::uint32_t> cand_;             // the groups re-solved locally
  std::vector<double> orig_rate_;               // parallel to cand_: the rate before the event
  std::vector<std::uint32_t> cand_mark_;        // per group: the event that made it a candidate
  std::vector<std::uint32_t> checked_;          // per group: the round that checked it
  // Each unfinished group's bottleneck link as last proven (by the filling
  // that froze it in a suffix solve, or by a passing check), and per link the
  // groups it holds (doubly linked through the groups): a group whose
  // recorded link did not change keeps its bottleneck, so a round checks only
  // the groups recorded on links whose load changed.
  std::vector<std::uint32_t> bneck_;            // per group: local link, kNone if not known
  std::vector<std::uint32_t> bneck_next_, bneck_prev_; // per group: its neighbours in its link's list
  std::vector<std::uint32_t> bneck_head_;       // per local link: the first group of its list
  std::vector<std::uint32_t> bneck_unknown_;    // unfinished groups without a recorded link
  bool bneck_lists_ = false;                    // the lists hold bneck_ (rebuilt after suffix solves)
  bool record_bneck_ = false;                   // the filling records where groups freeze (a suffix solve)
  // A link's check holds until its load or a rate on it changes (add_load
  // and every finish bump link_version_), across rounds and events.
  struct LinkCheck {
    std::uint32_t version = 0;            // link_version_ when computed
    std::uint32_t epoch = 0;              // loads_epoch_ when computed
    bool saturated = false;
    double fastest = 0;                   // the highest rate of an unfinished group on the link
  };
  std::vector<LinkCheck> link_check_;     // per local link
  std::vector<std::uint32_t> link_dirty_; // per local link: dirty_stamp_ when it joined dirty_links_
  std::vector<std::uint32_t> dirty_links_;// links whose load changed since the last round of checks
  std::vector<std::uint32_t> round_links_;// the links a round checks
  std::uint32_t dirty_stamp_ = 0;
  std::vector<std::uint32_t> link_version_; // per local link: bumped when its load changes
  std::uint32_t loads_epoch_ = 0;         // bumped when used_ is summed afresh
  std::uint32_t cand_stamp_ = 0, round_ = 0;
  std::size_t budget_ = 0;                // link entries the checks may still read
  std::size_t skip_ = 0, last_skip_ = 0;  // events left to the suffix solve after a give-up (backoff)

  double frac(std::uint32_t entry) const { return flow_frac_.empty() ? 1.0 : flow_frac_[entry]; }
  // The load a path entry of group g puts on its link per Gb/s of the group's rate.
  double weight(std::uint32_t g, std::uint32_t entry) const { return frac(entry) * static_cast<double>(count_[g]); }
};

}  // namespace ecmpsim
