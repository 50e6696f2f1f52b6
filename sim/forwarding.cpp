#include "sim/forwarding.h"

#include "sim/parse.h"
#include "sim/seeds.h"

namespace ecmpsim {

SwitchHash resolve_hash(const HashSpec& spec, const std::string& source) {
  SwitchHash h;
  h.algo = hashing::find(spec.algo);
  if (h.algo == nullptr) throw InputError({source, 0, 0, "scenario.hash.algo"}, "unknown hash algorithm '" + spec.algo + "'");
  h.fields = spec.fields;
  h.seed = spec.seed;
  h.offset = spec.offset;
  h.select = spec.select;
  h.buckets = spec.buckets;
  return h;
}

namespace {

// Longest-prefix match over one switch's static routes; nullptr when none matches.
const StaticRoute* lookup(std::span<const StaticRoute* const> routes, std::uint32_t ip) {
  const StaticRoute* best = nullptr;
  for (const StaticRoute* r : routes) {
    const std::uint32_t mask = r->prefix_len == 0 ? 0 : ~0u << (32 - r->prefix_len);
    if ((ip & mask) == r->prefix && (best == nullptr || r->prefix_len > best->prefix_len)) best = r;
  }
  return best;
}

}  // namespace

Forwarding::Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                       const std::string& source)
    : sets_(&sets) {
  const auto nsw = static_cast<std::uint32_t>(fabric.switches().size());
  hashes_.push_back(resolve_hash(scenario.hash, source));
  hash_index_.assign(nsw, 0);
  if (scenario.hash.seed_mode != SeedMode::Same) {
    const SwitchHash base = hashes_.front();
    hashes_.clear();
    for (std::uint32_t s = 0; s < nsw; ++s) {
      SwitchHash sh = base;
      const auto tier = static_cast<std::uint32_t>(fabric.node(fabric.switches()[s]).tier);
      sh.seed = derive_seed(scenario.hash.seed, scenario.hash.seed_mode, tier, s);
      hashes_.push_back(std::move(sh));
      hash_index_[s] = s;
    }
  }

  const auto& h = hashes_.front();
  bounds_begin_.assign(sets.groups(), 0);
  buckets_begin_.assign(sets.groups(), 0);
  for (std::uint32_t g = 0; g < sets.groups(); ++g) {
    const std::vector<std::uint32_t> weights(sets.members(g).size(), 1);
    if (h.select == hashing::Selection::Threshold) {
      bounds_begin_[g] = static_cast<std::uint32_t>(bounds_.size());
      const auto b = hashing::threshold_bounds(weights, h.algo->bits);
      bounds_.insert(bounds_.end(), b.begin(), b.end());
    } else if (h.select == hashing::Selection::Resilient) {
      buckets_begin_[g] = static_cast<std::uint32_t>(buckets_.size());
      const auto b = hashing::resilient_buckets(weights, h.buckets);
      buckets_.insert(buckets_.end(), b.begin(), b.end());
    }
  }

  if (scenario.routing != RoutingKind::Static) return;
  endpoints_ = static_cast<std::uint32_t>(fabric.endpoints().size());
  static_next_.assign(std::size_t{nsw} * endpoints_, kNone);
  std::vector<std::vector<const StaticRoute*>> by_switch(nsw);
  for (const StaticRoute& r : scenario.routes) {
    const NodeId sw = fabric.find(r.switch_name);
    if (sw == kNone || !fabric.is_switch(sw))
      throw InputError(r.where, "static route on unknown switch '" + r.switch_name + "'");
    if (fabric.find(r.next_hop) == kNone)
      throw InputError(r.where, "static route via unknown node '" + r.next_hop + "'");
    by_switch[fabric.switch_index(sw)].push_back(&r);
  }
  for (std::uint32_t s = 0; s < nsw; ++s) {
    const NodeId sw = fabric.switches()[s];
    for (std::uint32_t e = 0; e < endpoints_; ++e) {
      LinkId& next = static_next_[std::size_t{s} * endpoints_ + e];
      if (const StaticRoute* r = lookup(by_switch[s], fabric.node(fabric.endpoint_node(e)).ip)) {
        const NodeId nh = fabric.find(r->next_hop);
        for (LinkId l : fabric.out_links(sw))
          if (fabric.link(l).to == nh && fabric.link(l).up) {
            next = l;
            break;
          }
        if (next == kNone)
          throw InputError(r->where, "static route on '" + r->switch_name + "' via '" + r->next_hop +
                                         "': no working link between them");
      } else if (scenario.policy == StaticPolicy::DstMod) {
        const std::uint32_t g = sets.group(s, fabric.tor_of(e));
        if (g == EqualCostSets::kNoGroup) continue;
        const auto members = sets.members(g);
        next = members[e % members.size()];
      }
    }
  }
}

}  // namespace ecmpsim
