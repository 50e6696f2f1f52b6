#include "sim/routing/selection.h"

#include <algorithm>

#include "hashing/suggest.h"
#include "hashing/toeplitz.h"
#include "sim/fabric/failures.h"
#include "sim/routing/seeds.h"

namespace ecmpsim {

SwitchHash resolve_hash(const HashSpec& spec, const SourcePos& where) {
  SwitchHash h;
  h.algo = hashing::find(spec.algo);
  if (h.algo == nullptr) throw InputError(where, unknown_algorithm(spec.algo));
  if (const auto r = hashing::repeated_field(spec.fields)) {
    SourcePos at = where;
    at.field = "scenario.hash.fields";
    throw InputError(at, "hash field '" + std::string(hashing::field_name(*r)) + "' listed twice");
  }
  if (spec.rss_key && h.algo->fn != &hashing::toeplitz) {
    SourcePos at = where;
    at.field = "scenario.hash.rss_key";
    throw InputError(at, "rss_key is the Toeplitz key: only used with algo = \"toeplitz\", not '" +
                             std::string(h.algo->name) + "'");
  }
  h.rss_key = spec.rss_key;
  h.fields = spec.fields;
  h.per_hop = std::any_of(h.fields.begin(), h.fields.end(), hashing::per_hop) && hashing::key_layout(h.algo->layout).fixed.empty();
  h.seed = spec.seed;
  h.seed_as = spec.seed_as;
  h.offset = spec.offset;
  h.select = spec.select;
  h.buckets = spec.buckets;
  return h;
}

HashSpec hash_for_switch(const ScenarioSpec& scenario, Tier tier, std::string_view name) {
  HashSpec h = scenario.hash;
  for (const HashOverride& o : scenario.hash_tiers)
    if (o.tier == tier) apply_override(h, o);
  for (const HashOverride& o : scenario.hash_switches)
    if (o.switch_name == name) apply_override(h, o);
  return h;
}

EcmpSelection::EcmpSelection(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                             const std::string& source) {
  for (const HashOverride& o : scenario.hash_switches) {
    const NodeId n = fabric.find(o.switch_name);
    if (n == kNone || !fabric.is_switch(n)) throw InputError(o.where, "no switch named '" + o.switch_name + "'");
  }
  hashes_.reserve(fabric.switches().size());
  const SourcePos algo_at{source, 0, 0, "scenario.hash.algo"};
  for (NodeId sw : fabric.switches()) {
    const Node& n = fabric.node(sw);
    const auto index = static_cast<std::uint32_t>(hashes_.size());
    const HashSpec spec = hash_for_switch(scenario, n.tier, n.name);
    hashes_.push_back(resolve_hash(spec, algo_at));
    hashes_.back().seed = derive_seed(spec.seed, spec.seed_mode, static_cast<std::uint32_t>(n.tier), index);
    if (fabric.lags().empty()) continue;
    HashSpec lag = spec;
    apply_override(lag, scenario.lag_hash);
    lag_hashes_.push_back(resolve_hash(lag, {source, 0, 0, "scenario.hash.lag.algo"}));
    lag_hashes_.back().seed = derive_seed(lag.seed, lag.seed_mode, static_cast<std::uint32_t>(n.tier), index);
  }
  if (!fabric.lags().empty()) {
    HashSpec bond = bond_hash_default();
    apply_override(bond, scenario.bond_hash);
    bond_ = resolve_hash(bond, {source, 0, 0, "scenario.hash.bond.algo"});
    build_next_hops(fabric, sets);
  }
  build_tables(fabric, sets, scenario);
}

void EcmpSelection::build_next_hops(const Fabric& fabric, const EqualCostSets& sets) {
  const auto ng = static_cast<std::uint32_t>(sets.groups());
  nh_first_.assign(ng + 1, 0);
  nh_begin_.assign(1, 0);
  nh_links_.clear();
  for (std::uint32_t g = 0; g < ng; ++g) {
    nh_first_[g] = static_cast<std::uint32_t>(nh_begin_.size() - 1);
    const auto members = sets.members(g);
    std::vector<bool> taken(members.size(), false);
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (taken[i]) continue;
      const std::uint32_t lag = fabric.lag_of(members[i]);
      for (std::size_t j = i; j < members.size(); ++j)
        if (j == i || (lag != kNone && fabric.lag_of(members[j]) == lag)) {
          taken[j] = true;
          nh_links_.push_back(members[j]);
        }
      nh_begin_.push_back(static_cast<std::uint32_t>(nh_links_.size()));
    }
  }
  nh_first_[ng] = static_cast<std::uint32_t>(nh_begin_.size() - 1);
}

void EcmpSelection::build_tables(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario) {
  const std::vector<std::uint32_t> weight = link_weights(fabric, scenario.weights);
  const auto ng = sets.groups();
  bounds_begin_.assign(ng, 0);
  table_begin_.assign(ng, 0);
  table_size_.assign(ng, 0);
  std::vector<std::uint32_t> w;
  for (std::uint32_t g = 0; g < ng; ++g) {
    const auto members = sets.members(g);
    // A group's members all leave one switch: that switch's hash decides.
    const SwitchHash& h = hashes_[fabric.switch_index(fabric.link(members[0]).from)];
    w.clear();
    // One weight per next hop: a port-channel's is its first member's.
    const auto n = next_hops(g, static_cast<std::uint32_t>(members.size()));
    for (std::uint32_t i = 0; i < n; ++i) w.push_back(weight[plain() ? members[i] : next_hop(g, i)[0]]);
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

}  // namespace ecmpsim
