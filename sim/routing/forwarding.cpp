#include "sim/routing/forwarding.h"

#include <algorithm>
#include <unordered_map>

#include "sim/routing/balanced.h"
#include "sim/fabric/failures.h"
#include "sim/routing/seeds.h"
#include "sim/base/parse.h"

namespace ecmpsim {

SwitchHash resolve_hash(const HashSpec& spec, const SourcePos& where) {
  SwitchHash h;
  h.algo = hashing::find(spec.algo);
  if (h.algo == nullptr) throw InputError(where, "unknown hash algorithm '" + spec.algo + "'");
  if (const auto r = hashing::repeated_field(spec.fields)) {
    SourcePos at = where;
    at.field = "scenario.hash.fields";
    throw InputError(at, "hash field '" + std::string(hashing::field_name(*r)) + "' listed twice");
  }
  h.fields = spec.fields;
  h.seed = spec.seed;
  h.offset = spec.offset;
  h.select = spec.select;
  h.buckets = spec.buckets;
  return h;
}

SwitchHash resolve_hash(const HashSpec& spec, const std::string& source) {
  return resolve_hash(spec, SourcePos{source, 0, 0, "scenario.hash.algo"});
}

namespace {

void apply(HashSpec& to, const HashOverride& o) {
  if (o.keys & kHashAlgo) to.algo = o.values.algo;
  if (o.keys & kHashFields) to.fields = o.values.fields;
  if (o.keys & kHashSeed) to.seed = o.values.seed;
  if (o.keys & kHashSeedMode) to.seed_mode = o.values.seed_mode;
  if (o.keys & kHashOffset) to.offset = o.values.offset;
  if (o.keys & kHashSelect) to.select = o.values.select;
  if (o.keys & kHashBuckets) to.buckets = o.values.buckets;
}

bool matches(std::uint32_t ip, std::uint32_t prefix, std::uint8_t len) {
  const std::uint32_t mask = len == 0 ? 0 : ~0u << (32 - len);
  return (ip & mask) == prefix;
}

}  // namespace

HashSpec hash_for_switch(const ScenarioSpec& scenario, Tier tier, std::string_view name) {
  HashSpec h = scenario.hash;
  for (const HashOverride& o : scenario.hash_tiers)
    if (o.tier == tier) apply(h, o);
  for (const HashOverride& o : scenario.hash_switches)
    if (o.switch_name == name) apply(h, o);
  return h;
}

Forwarding::Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                       const std::string& source, const workloads::Flows* flows)
    : sets_(&sets), source_(source), scenario_name_(scenario.name) {
  for (const HashOverride& o : scenario.hash_switches) {
    const NodeId n = fabric.find(o.switch_name);
    if (n == kNone || !fabric.is_switch(n)) throw InputError(o.where, "no switch named '" + o.switch_name + "'");
  }
  hashes_.reserve(fabric.switches().size());
  const SourcePos algo_at{source, 0, 0, "scenario.hash.algo"};
  for (NodeId sw : fabric.switches()) {
    const Node& n = fabric.node(sw);
    const HashSpec spec = hash_for_switch(scenario, n.tier, n.name);
    hashes_.push_back(resolve_hash(spec, algo_at));
    hashes_.back().seed = derive_seed(spec.seed, spec.seed_mode, static_cast<std::uint32_t>(n.tier),
                                      static_cast<std::uint32_t>(hashes_.size() - 1));
  }
  build_selection(fabric, scenario);
  if (scenario.routing == RoutingKind::Static) build_static(fabric, scenario, flows);
}

void Forwarding::build_selection(const Fabric& fabric, const ScenarioSpec& scenario) {
  const std::vector<std::uint32_t> weight = link_weights(fabric, scenario.weights);

  const auto ng = sets_->groups();
  bounds_begin_.assign(ng, 0);
  table_begin_.assign(ng, 0);
  table_size_.assign(ng, 0);
  std::vector<std::uint32_t> w;
  for (std::uint32_t g = 0; g < ng; ++g) {
    const auto members = sets_->members(g);
    // A group's members all leave one switch: that switch's hash decides.
    const SwitchHash& h = hashes_[fabric.switch_index(fabric.link(members[0]).from)];
    w.clear();
    for (LinkId l : members) w.push_back(weight[l]);
    const bool weighted = std::any_of(w.begin(), w.end(), [](auto x) { return x != 1; });
    if (h.select == hashing::Selection::Threshold) {
      bounds_begin_[g] = static_cast<std::uint32_t>(bounds_.size());
      const auto b = hashing::threshold_bounds(w, h.algo->bits);
      bounds_.insert(bounds_.end(), b.begin(), b.end());
    } else if (h.select == hashing::Selection::Resilient) {
      table_begin_[g] = static_cast<std::uint32_t>(table_.size());
      const auto b = hashing::resilient_buckets(w, h.buckets);
      table_.insert(table_.end(), b.begin(), b.end());
      table_size_[g] = static_cast<std::uint32_t>(b.size());
    } else if (weighted) {
      // Weighted modulo, as WCMP hardware does it: member i replicated w_i times.
      table_begin_[g] = static_cast<std::uint32_t>(table_.size());
      for (std::uint32_t i = 0; i < w.size(); ++i) table_.insert(table_.end(), w[i], i);
      table_size_[g] = static_cast<std::uint32_t>(table_.size()) - table_begin_[g];
    }
  }
}

void Forwarding::build_static(const Fabric& fabric, const ScenarioSpec& scenario, const workloads::Flows* flows) {
  const auto nsw = static_cast<std::uint32_t>(fabric.switches().size());
  const auto ne = static_cast<std::uint32_t>(fabric.endpoints().size());
  tors_ = static_cast<std::uint32_t>(fabric.tors().size());
  tor_of_.assign(fabric.tor_of_endpoints().begin(), fabric.tor_of_endpoints().end());
  tor_pos_.resize(ne);
  endpoint_ip_.resize(ne);
  for (std::uint32_t e = 0; e < ne; ++e) {
    tor_pos_[e] = fabric.tor_position(e);
    endpoint_ip_[e] = fabric.node(fabric.endpoint_node(e)).ip;
  }
  static_code_.assign(std::size_t{nsw} * tors_, kNone);

  // Generated policy first: dst-mod codes; balanced adds per-endpoint blocks.
  if (scenario.policy != StaticPolicy::Table)
    for (std::uint32_t s = 0; s < nsw; ++s)
      for (std::uint32_t t = 0; t < tors_; ++t) {
        const std::uint32_t g = sets_->group(s, t);
        if (g == EqualCostSets::kNoGroup) continue;
        const auto m = sets_->members(g);
        static_code_[std::size_t{s} * tors_ + t] = m.size() == 1 ? m[0] : (kDstMod | g);
      }
  auto open_block = [&](std::uint32_t s, std::uint32_t t) {
    std::uint32_t& code = static_code_[std::size_t{s} * tors_ + t];
    const auto members = fabric.tor_endpoints(t);
    const auto at = static_cast<std::uint32_t>(per_endpoint_.size());
    for (std::uint32_t e : members) per_endpoint_.push_back(decode(code, e));
    code = kPerEndpoint | at;
    return at;
  };
  if (scenario.policy == StaticPolicy::Balanced && flows != nullptr) {
    const auto entries = balanced_routes(fabric, *sets_, *flows);
    std::uint32_t open_s = kNone, open_t = kNone, at = 0;
    for (const BalancedEntry& b : entries) {
      const std::uint32_t t = fabric.tor_of(b.endpoint);
      if (b.switch_index != open_s || t != open_t) {
        open_s = b.switch_index;
        open_t = t;
        at = open_block(open_s, open_t);
      }
      per_endpoint_[at + fabric.tor_position(b.endpoint)] = b.link;
    }
  }

  // Explicit routes: TOML rows, then CSV rows; resolved to links.
  std::vector<std::pair<std::uint32_t, Route>> rows;
  auto add = [&](const StaticRoute& r, const std::string* file) {
    auto where = [&] {
      SourcePos p = r.where;
      if (file) p.file = *file;
      return p;
    };
    const NodeId sw = fabric.find(r.switch_name);
    if (sw == kNone || !fabric.is_switch(sw)) throw InputError(where(), "static route on unknown switch '" + r.switch_name + "'");
    const NodeId nh = fabric.find(r.next_hop);
    if (nh == kNone) throw InputError(where(), "static route via unknown node '" + r.next_hop + "'");
    // A destination's own leaf delivers to it without a table, so a host as
    // next hop could only carry flows into a host that is not theirs.
    if (!fabric.is_switch(nh))
      throw InputError(where(), "static route on '" + r.switch_name + "' via host '" + r.next_hop +
                                    "': a next hop is a switch");
    std::uint32_t prefix = r.prefix;
    if (!r.dst_host.empty()) {
      const NodeId d = fabric.find(r.dst_host);
      if (d == kNone || fabric.is_switch(d))
        throw InputError(where(), "static route to unknown host '" + r.dst_host + "' (a destination is an " +
                                      "endpoint name, an address or a prefix)");
      prefix = fabric.node(d).ip;
    }
    LinkId link = kNone;
    for (LinkId l : fabric.out_links(sw))
      if (fabric.link(l).to == nh && fabric.link(l).up && !sets_->is_down(l)) {
        link = l;
        break;
      }
    if (link == kNone)
      throw InputError(where(), "static route on '" + r.switch_name + "' via '" + r.next_hop +
                                    "': no working link between them");
    rows.push_back({fabric.switch_index(sw), Route{prefix, r.src, r.prefix_len, r.src_len, link, &r, file}});
  };
  for (const StaticRoute& r : scenario.routes) add(r, nullptr);
  if (scenario.routes_file)
    for (const StaticRoute& r : scenario.routes_file->rows) add(r, &scenario.routes_file->path);
  if (rows.empty()) return;
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  routes_begin_.assign(nsw + 1, 0);
  for (const auto& [s, r] : rows) {
    ++routes_begin_[s + 1];
    routes_.push_back(r);
    if (r.src_len > 0) {
      if (has_src_routes_.empty()) has_src_routes_.assign(nsw, 0);
      has_src_routes_[s] = 1;
    }
  }
  for (std::uint32_t s = 0; s < nsw; ++s) routes_begin_[s + 1] += routes_begin_[s];

  // Per switch and ToR: the longest route covering every endpoint of the ToR
  // decides for the whole ToR; routes covering only some force a per-endpoint block.
  std::vector<std::uint32_t> lo(tors_), hi(tors_);
  for (std::uint32_t t = 0; t < tors_; ++t) {
    lo[t] = fabric.block_base(t) + 1;
    hi[t] = fabric.block_base(t) + static_cast<std::uint32_t>(fabric.tor_endpoints(t).size());
  }
  std::vector<const Route*> full(tors_);
  std::vector<std::vector<const Route*>> partial(tors_);
  std::vector<std::uint32_t> touched;
  for (std::uint32_t s = 0; s < nsw; ++s) {
    if (routes_begin_[s] == routes_begin_[s + 1]) continue;
    for (std::uint32_t i = routes_begin_[s]; i < routes_begin_[s + 1]; ++i) {
      const Route& r = routes_[i];
      if (r.src_len > 0) continue;  // looked up per packet
      const std::uint64_t first = r.dst, last = first + (std::uint64_t{1} << (32 - r.dst_len)) - 1;
      auto t = static_cast<std::uint32_t>(std::lower_bound(hi.begin(), hi.end(), first) - hi.begin());
      for (; t < tors_ && lo[t] <= last; ++t) {
        if (full[t] == nullptr && partial[t].empty()) touched.push_back(t);
        if (lo[t] >= first && hi[t] <= last) {
          if (full[t] == nullptr || r.dst_len > full[t]->dst_len) full[t] = &r;
        } else {
          partial[t].push_back(&r);
        }
      }
    }
    for (std::uint32_t t : touched) {
      const std::uint8_t full_len = full[t] ? full[t]->dst_len : 0;
      const bool finer = std::any_of(partial[t].begin(), partial[t].end(),
                                     [&](const Route* r) { return full[t] == nullptr || r->dst_len > full_len; });
      std::uint32_t& code = static_code_[std::size_t{s} * tors_ + t];
      if (!finer) {
        code = full[t]->link;
      } else {
        const std::uint32_t at = (code != kNone && (code & kKindMask) == kPerEndpoint) ? (code & ~kKindMask)
                                                                                        : open_block(s, t);
        const auto members = fabric.tor_endpoints(t);
        for (std::uint32_t i = 0; i < members.size(); ++i) {
          const std::uint32_t ip = lo[t] + i;
          const Route* best = full[t];
          for (const Route* r : partial[t])
            if (matches(ip, r->dst, r->dst_len) && (best == nullptr || r->dst_len > best->dst_len)) best = r;
          if (best) per_endpoint_[at + i] = best->link;
        }
      }
      full[t] = nullptr;
      partial[t].clear();
    }
    touched.clear();
  }
}

const Forwarding::Route* Forwarding::best_route(std::uint32_t s, std::uint32_t dst_ip, std::uint32_t src_ip) const {
  if (routes_begin_.empty()) return nullptr;
  const Route* best = nullptr;
  for (std::uint32_t i = routes_begin_[s]; i < routes_begin_[s + 1]; ++i) {
    const Route& r = routes_[i];
    if (!matches(dst_ip, r.dst, r.dst_len) || !matches(src_ip, r.src, r.src_len)) continue;
    if (best == nullptr || r.dst_len > best->dst_len || (r.dst_len == best->dst_len && r.src_len > best->src_len))
      best = &r;
  }
  return best;
}

LinkId Forwarding::source_route(std::uint32_t s, std::uint32_t endpoint, std::uint32_t src_ip) const {
  const Route* r = best_route(s, endpoint_ip_[endpoint], src_ip);
  return r ? r->link : kNone;
}

std::optional<SourcePos> Forwarding::route_origin(std::uint32_t s, std::uint32_t endpoint, std::uint32_t src_ip) const {
  if (endpoint_ip_.empty()) return std::nullopt;
  const Route* r = best_route(s, endpoint_ip_[endpoint], src_ip);
  if (r == nullptr) return std::nullopt;
  SourcePos p = r->origin->where;
  if (r->file) p.file = *r->file;
  p.field.clear();
  return p;
}

}  // namespace ecmpsim
