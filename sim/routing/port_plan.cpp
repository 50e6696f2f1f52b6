#include "sim/routing/port_plan.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "sim/routing/edge_colouring.h"
#include "sim/routing/next_link.h"
#include "workloads/roce.h"

namespace ecmpsim {
namespace {

// A candidate source port, set the way a host sets it: through the QP's flow
// label (flow_label_for_udp_sport), which an IPv6 packet also carries and a
// hash may read.
void set_port(hashing::Tuple& t, std::uint16_t port) noexcept {
  t.sport = port;
  if (!t.src_ip.is_v4()) t.flow_label = workloads::flow_label_for_udp_sport(port);
}

// On IPv6 the flow label follows the planned port (set_port), so a hash of
// the label is steered too (linux-l3's policy 0 reads it there).
bool reads_source_port(const SwitchHash& h, hashing::Family family) {
  const auto hashed = hashing::key_fields(h.algo->layout, family, h.fields);
  auto reads = [&](hashing::Field f) { return std::find(hashed.begin(), hashed.end(), f) != hashed.end(); };
  return reads(hashing::Field::SrcPort) || (family == hashing::Family::V6 && reads(hashing::Field::FlowLabel));
}

// A path's loads (bytes / speed) with the flow on it: the highest, then the
// total; lower is better, in that order.
struct Score {
  double max = std::numeric_limits<double>::infinity();
  double sum = std::numeric_limits<double>::infinity();
  bool operator<(const Score& o) const { return max < o.max || (max == o.max && sum < o.sum); }
};

// The step between consecutive candidate ports: the number nearest 0.618 N
// that is coprime with N, so j -> j x stride mod N visits every port once and
// consecutive candidates lie far apart. A linear hash often ignores the
// lowest port bits in the bits that select a member (CRC-16/CCITT modulo 4
// sends 8 consecutive ports to one member), so neighbours are poor candidates.
std::uint32_t golden_stride(std::uint32_t n) {
  auto s = static_cast<std::uint32_t>(0.6180339887498949 * n);
  for (; s > 1 && std::gcd(s, n) != 1; --s) {
  }
  return std::max<std::uint32_t>(s, 1);
}

class Planner {
 public:
  Planner(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows, const ScenarioSpec& scenario);
  PortPlan run();

 private:
  // Walks flow f under `port`, keeping its switch-to-switch links in `out`;
  // returns the hashed decisions. With `widest`, records the largest group decided in.
  std::uint32_t walk_with(std::size_t f, std::uint16_t port, std::vector<LinkId>& out,
                          std::pair<std::size_t, std::uint32_t>* widest = nullptr) const;
  std::uint16_t candidate(std::size_t f, std::uint64_t i) const {
    const std::uint64_t j = (std::uint64_t{f} * kPlanCandidates + i) % ports_;
    return static_cast<std::uint16_t>(lo_ + j * stride_ % ports_);
  }
  double util(LinkId l) const { return bytes_on_[l] * inv_speed_[l]; }
  // Flow f's path under `port` into cand_ and its score, the loads of its
  // switch-to-switch links with the flow's bytes added: false as soon as it
  // cannot beat `bound`.
  bool try_port(std::size_t f, const hashing::Tuple& flow, const FlowEnds& e, std::uint16_t port, Score bound,
                Score& out);
  void hash_classes();
  void commit(std::size_t f, std::uint16_t port, const std::vector<LinkId>& path);
  void add(std::size_t f, double sign);
  // Tries `budget` candidates of flow f; the best port and score, its path in best_.
  std::pair<std::uint16_t, Score> search(std::size_t f, std::uint64_t budget);
  void first_pass();
  bool two_tier(std::vector<std::uint32_t>& spines) const;
  void colour(const std::vector<std::uint32_t>& spines);
  void greedy(std::size_t f);
  // No routing of these flows can keep every link below this load: per ToR,
  // the bytes its flows send (receive) over the total speed of its working
  // switch links up (down).
  double floor_load() const;
  void repair();

  const Fabric& fabric_;
  const Forwarding& fwd_;
  const workloads::Flows& flows_;
  const ScenarioSpec& scenario_;
  std::uint32_t lo_, ports_, stride_;
  std::vector<double> bytes_on_, inv_speed_;  // per link
  std::vector<std::uint8_t> transit_;         // per link: joins two switches
  std::vector<std::uint32_t> path_begin_;     // per flow + 1: its transit links in path_links_
  std::vector<LinkId> path_links_;
  std::vector<std::uint8_t> decides_;         // per flow: some switch on its path hashes it
  std::vector<LinkId> cand_, best_;
  // Switches whose hash of a flow is one function (algorithm, key fields,
  // seed, bit window, no in-port) form a class, hashed once per candidate.
  std::vector<std::uint32_t> class_of_;  // per switch; kNone: hashed at every hop
  std::vector<std::uint64_t> class_stamp_, class_value_;
  std::uint64_t stamp_ = 0;
  PortPlan plan_;
};

Planner::Planner(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows,
                 const ScenarioSpec& scenario)
    : fabric_(fabric), fwd_(fwd), flows_(flows), scenario_(scenario), lo_(scenario.sport_min),
      ports_(scenario.sport_max - scenario.sport_min + 1), stride_(golden_stride(ports_)) {
  const auto nl = fabric.links().size();
  bytes_on_.assign(nl, 0.0);
  inv_speed_.assign(nl, 0.0);
  transit_.assign(nl, 0);
  for (LinkId l = 0; l < nl; ++l) {
    const Link& link = fabric.link(l);
    inv_speed_[l] = link.speed.value > 0 ? 1.0 / link.speed.value : 0.0;
    transit_[l] = fabric.is_switch(link.from) && fabric.is_switch(link.to);
  }
  plan_.sport.assign(flows.size(), 0);
  plan_.flow_label.assign(flows.size(), 0);
  hash_classes();
}

void Planner::hash_classes() {
  std::vector<std::uint32_t> reps;  // a switch of each class
  for (std::uint32_t sw = 0; sw < fabric_.switches().size(); ++sw) {
    const SwitchHash& h = fwd_.hash_of(sw);
    const bool per_hop = h.per_hop;
    auto same = [&](std::uint32_t r) {
      const SwitchHash& o = fwd_.hash_of(r);
      return o.algo == h.algo && o.fields == h.fields && o.seed == h.seed && o.offset == h.offset &&
             o.rss_key == h.rss_key;
    };
    const auto it = per_hop ? reps.end() : std::find_if(reps.begin(), reps.end(), same);
    if (per_hop) {
      class_of_.push_back(kNone);
    } else if (it != reps.end()) {
      class_of_.push_back(static_cast<std::uint32_t>(it - reps.begin()));
    } else {
      class_of_.push_back(static_cast<std::uint32_t>(reps.size()));
      reps.push_back(sw);
    }
  }
  class_stamp_.assign(reps.size(), 0);
  class_value_.assign(reps.size(), 0);
}

std::uint32_t Planner::walk_with(std::size_t f, std::uint16_t port, std::vector<LinkId>& out,
                                 std::pair<std::size_t, std::uint32_t>* widest) const {
  hashing::Tuple t = flows_.tuple(f);
  set_port(t, port);
  const FlowEnds e = ends_of(fabric_, flows_, f);
  std::uint32_t decisions = 0;
  auto hash = [&](std::uint32_t sw, const Hop& hop, HashRole role) {
    hop.apply(t);
    if (role != HashRole::Ecmp) return fwd_.hash_for(sw, role).hash(t);
    ++decisions;
    if (widest) {
      const std::size_t n = fwd_.sets().members(fwd_.sets().group(sw, e.dst_tor)).size();
      if (n > widest->first) *widest = {n, sw};
    }
    return fwd_.hash_of(sw).hash(t);
  };
  out.clear();
  walk(fabric_, fwd_, e, hash, [&](LinkId l) {
    if (transit_[l]) out.push_back(l);
  });
  return decisions;
}

bool Planner::try_port(std::size_t f, const hashing::Tuple& flow, const FlowEnds& e, std::uint16_t port,
                       Score bound, Score& out) {
  hashing::Tuple t = flow;
  set_port(t, port);
  ++stamp_;
  auto hash = [&](std::uint32_t sw, const Hop& hop, HashRole role) {
    if (role != HashRole::Ecmp) {
      hashing::Tuple th = t;
      hop.apply(th);
      return fwd_.hash_for(sw, role).hash(th);
    }
    const std::uint32_t c = class_of_[sw];
    if (c != kNone && class_stamp_[c] == stamp_) return class_value_[c];
    hop.apply(t);
    const std::uint64_t h = fwd_.hash_of(sw).hash(t);
    if (c != kNone) {
      class_stamp_[c] = stamp_;
      class_value_[c] = h;
    }
    return h;
  };
  const auto bytes = static_cast<double>(flows_.bytes[f]);
  cand_.clear();
  Score s{0, 0};
  bool beaten = false;
  walk(fabric_, fwd_, e, hash, [&](LinkId link) {
    if (!transit_[link]) return true;
    cand_.push_back(link);
    const double u = (bytes_on_[link] + bytes) * inv_speed_[link];
    s.max = std::max(s.max, u);
    s.sum += u;
    // Loads only add up along the path: this prefix already cannot win.
    beaten = s.max > bound.max || (s.max == bound.max && s.sum >= bound.sum);
    return !beaten;
  });
  if (beaten) return false;
  out = s;
  return s < bound;
}

void Planner::add(std::size_t f, double sign) {
  const double b = sign * static_cast<double>(flows_.bytes[f]);
  for (std::uint32_t i = path_begin_[f]; i < path_begin_[f + 1]; ++i) bytes_on_[path_links_[i]] += b;
}

// Equal-cost paths of one flow have one length: the path is rewritten in place.
void Planner::commit(std::size_t f, std::uint16_t port, const std::vector<LinkId>& path) {
  plan_.sport[f] = port;
  std::copy(path.begin(), path.end(), path_links_.begin() + path_begin_[f]);
  add(f, +1);
}

std::pair<std::uint16_t, Score> Planner::search(std::size_t f, std::uint64_t budget) {
  Score best;
  std::uint16_t best_port = candidate(f, 0);
  budget = std::min<std::uint64_t>(budget, ports_);
  const hashing::Tuple flow = flows_.tuple(f);
  const FlowEnds e = ends_of(fabric_, flows_, f);
  for (std::uint64_t i = 0; i < budget; ++i) {
    const std::uint16_t port = candidate(f, i);
    ++plan_.ports_tried;
    if (Score s; try_port(f, flow, e, port, best, s)) {
      best = s;
      best_port = port;
      std::swap(best_, cand_);
    }
  }
  return {best_port, best};
}

// Every flow walked once under its first candidate: path lengths, which flows
// decide anywhere, the widest group decided in; flows with no choice placed.
void Planner::first_pass() {
  std::pair<std::size_t, std::uint32_t> widest{0, 0};
  path_begin_.assign(1, 0);
  decides_.assign(flows_.size(), 0);
  for (std::size_t f = 0; f < flows_.size(); ++f) {
    decides_[f] = walk_with(f, candidate(f, 0), cand_, &widest) > 0;
    path_links_.insert(path_links_.end(), cand_.begin(), cand_.end());
    path_begin_.push_back(static_cast<std::uint32_t>(path_links_.size()));
    plan_.sport[f] = candidate(f, 0);
    if (!decides_[f]) add(f, +1);
  }
  if (widest.first > ports_) {
    const std::string sw = fabric_.node(fabric_.switches()[widest.second]).name;
    const SourcePos& at = scenario_.sport_range_at.field.empty() ? scenario_.sports_at : scenario_.sport_range_at;
    throw InputError(at, "sport_min..sport_max (" + std::to_string(scenario_.sport_min) + ".." +
                                              std::to_string(scenario_.sport_max) + ") holds " +
                                              std::to_string(ports_) + " port" + (ports_ == 1 ? "" : "s") +
                                              ", fewer than the " + std::to_string(widest.first) + " members " +
                                              sw + " chooses among: too small to spread the flows");
  }
}

// The colouring applies when every deciding flow's only choice is its source
// ToR's uplink, each uplink leads to a distinct spine that reaches the
// destination ToR over a single link, all such links are equally fast, and
// every ToR pair sees the same spines.
bool Planner::two_tier(std::vector<std::uint32_t>& spines) const {
  const EqualCostSets& sets = fwd_.sets();
  std::vector<std::uint8_t> checked(sets.groups(), 0);
  double speed = -1;
  bool first = true;
  std::vector<std::uint32_t> mids;
  for (std::size_t f = 0; f < flows_.size(); ++f) {
    if (!decides_[f]) continue;
    const std::uint32_t src_tor = fabric_.tor_of(flows_.src[f]), dst_tor = fabric_.tor_of(flows_.dst[f]);
    const std::uint32_t g = sets.group(fabric_.switch_index(fabric_.tors()[src_tor]), dst_tor);
    if (g == EqualCostSets::kNoGroup) return false;
    if (checked[g]) continue;
    checked[g] = 1;
    mids.clear();
    for (LinkId up : sets.members(g)) {
      const std::uint32_t mid = fabric_.switch_after(up);
      const std::uint32_t mg = sets.group(mid, dst_tor);
      if (mg == EqualCostSets::kNoGroup || sets.members(mg).size() != 1) return false;
      const LinkId down = sets.members(mg)[0];
      if (fabric_.link(down).to != fabric_.tors()[dst_tor]) return false;
      for (LinkId l : {up, down}) {
        if (speed < 0) speed = fabric_.link(l).speed.value;
        if (fabric_.link(l).speed.value != speed) return false;
      }
      mids.push_back(mid);
    }
    std::sort(mids.begin(), mids.end());
    if (std::adjacent_find(mids.begin(), mids.end()) != mids.end()) return false;
    if (first) spines = mids;
    if (mids != spines) return false;
    first = false;
  }
  return !first;
}

void Planner::colour(const std::vector<std::uint32_t>& spines) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  std::vector<std::size_t> edge_flow;
  for (std::size_t f = 0; f < flows_.size(); ++f)
    if (decides_[f]) {
      edges.emplace_back(fabric_.tor_of(flows_.src[f]), fabric_.tor_of(flows_.dst[f]));
      edge_flow.push_back(f);
    }
  const auto tors = static_cast<std::uint32_t>(fabric_.tors().size());
  const auto colours = equitable_edge_colouring(tors, tors, edges, static_cast<std::uint32_t>(spines.size()));
  std::vector<std::size_t> off;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::size_t f = edge_flow[e];
    const std::uint32_t spine = spines[colours[e]];
    bool found = false;
    for (std::uint64_t i = 0; i < ports_ && !found; ++i) {
      const std::uint16_t port = candidate(f, i);
      walk_with(f, port, cand_);
      ++plan_.ports_tried;
      found = !cand_.empty() && fabric_.switch_after(cand_.front()) == spine;
      if (found) commit(f, port, cand_);
    }
    if (!found) off.push_back(f);
  }
  plan_.off_colour = off.size();
  for (std::size_t f : off) greedy(f);
}

void Planner::greedy(std::size_t f) {
  commit(f, search(f, kPlanCandidates).first, best_);
}

// One side of a ToR (its flows out over its uplinks, or in over its downlinks).
struct Side {
  double bytes = 0, least_bytes = std::numeric_limits<double>::infinity(), speed = 0, top_speed = 0;
  std::uint64_t flows = 0, links = 0;
  void add_flow(double b) {
    bytes += b;
    least_bytes = std::min(least_bytes, b);
    ++flows;
  }
  void add_link(double s) {
    speed += s;
    top_speed = std::max(top_speed, s);
    ++links;
  }
  // Total bytes over total speed, and the pigeonhole: some link carries
  // ceil(flows / links) flows, each of at least least_bytes.
  double floor() const {
    if (links == 0 || flows == 0) return 0;
    return std::max(bytes / speed, static_cast<double>((flows + links - 1) / links) * least_bytes / top_speed);
  }
};

double Planner::floor_load() const {
  const std::size_t nt = fabric_.tors().size();
  std::vector<Side> out(nt), in(nt);
  for (std::size_t f = 0; f < flows_.size(); ++f) {
    if (!decides_[f]) continue;
    out[fabric_.tor_of(flows_.src[f])].add_flow(static_cast<double>(flows_.bytes[f]));
    in[fabric_.tor_of(flows_.dst[f])].add_flow(static_cast<double>(flows_.bytes[f]));
  }
  double floor = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    for (LinkId l : fabric_.out_links(fabric_.tors()[t])) {
      if (!transit_[l]) continue;
      if (!fwd_.sets().is_down(l)) out[t].add_link(fabric_.link(l).speed.value);
      if (!fwd_.sets().is_down(fabric_.link(l).reverse)) in[t].add_link(fabric_.link(l).speed.value);
    }
    floor = std::max({floor, out[t].floor(), in[t].floor()});
  }
  return floor;
}

void Planner::repair() {
  std::vector<LinkId> old;
  const double floor = floor_load();
  for (std::uint32_t pass = 0; pass < kRepairPasses; ++pass) {
    double top = 0;
    for (LinkId l = 0; l < bytes_on_.size(); ++l)
      if (transit_[l]) top = std::max(top, util(l));
    // Within a millionth of the floor: flows of a collective differ by a byte.
    if (top <= floor * (1 + 1e-6)) return;
    std::uint64_t moved = 0;
    for (std::size_t f = 0; f < flows_.size(); ++f) {
      if (!decides_[f]) continue;
      const auto first = path_links_.begin() + path_begin_[f], last = path_links_.begin() + path_begin_[f + 1];
      if (std::none_of(first, last, [&](LinkId l) { return util(l) >= top; })) continue;
      const std::uint16_t was = plan_.sport[f];
      old.assign(first, last);
      add(f, -1);
      const auto [port, s] = search(f, kRepairCandidates);
      if (s.max < top) {
        commit(f, port, best_);
        ++moved;
      } else {
        commit(f, was, old);
      }
    }
    plan_.repaired += moved;
    if (moved == 0) return;
  }
}

PortPlan Planner::run() {
  bool steerable = false;
  for (std::uint32_t s = 0; s < fabric_.switches().size(); ++s) steerable = steerable || reads_source_port(fwd_.hash_of(s), fabric_.family());
  if (!steerable)
    throw InputError(scenario_.sports_at,
                     "sports = \"planned\" needs a hash that reads the source port (src-port, or linux-l4 / "
                     "bonding layer3+4; on IPv6 also the flow label, or linux-l3); no switch of scenario '" +
                         scenario_.name + "' does");
  first_pass();
  std::vector<std::uint32_t> spines;
  if (two_tier(spines)) {
    plan_.method = PlanMethod::Colouring;
    colour(spines);
    if (plan_.off_colour > 0) repair();
  } else {
    plan_.method = PlanMethod::Greedy;
    for (std::size_t f = 0; f < flows_.size(); ++f)
      if (decides_[f]) greedy(f);
    repair();
  }
  for (std::size_t f = 0; f < flows_.size(); ++f)
    plan_.flow_label[f] = workloads::flow_label_for_udp_sport(plan_.sport[f]);
  return std::move(plan_);
}

}  // namespace

PortPlan plan_ports(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows,
                    const ScenarioSpec& scenario) {
  if (scenario.sports_at.field.empty()) {  // built in code, or inherited nothing: name the scenario
    ScenarioSpec named = scenario;
    named.sports_at = {fwd.source(), 0, 0, "scenario '" + scenario.name + "'"};
    return Planner(fabric, fwd, flows, named).run();
  }
  return Planner(fabric, fwd, flows, scenario).run();
}

workloads::Flows with_ports(workloads::Flows flows, const PortPlan& plan) {
  flows.sport = plan.sport;
  // An IPv6 packet carries the label the host set to get that port.
  for (std::size_t f = 0; f < flows.size(); ++f)
    if (!flows.src_ip[f].is_v4()) flows.flow_label[f] = plan.flow_label[f];
  return flows;
}

}  // namespace ecmpsim
