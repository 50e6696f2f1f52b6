// Flat forwarding state for one scenario: what each switch does with a
// packet, compiled from the equal-cost sets and the scenario's routing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"
#include "sim/config/spec.h"
#include "workloads/flow.h"

namespace ecmpsim {

// A switch's hash, resolved: algorithm, key fields, seed, bit window, selection.
struct SwitchHash {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields;
  std::uint32_t seed = 0;
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 0;

  std::uint64_t hash(const hashing::Tuple& t) const noexcept {
    hashing::KeyBuffer key;
    const std::size_t n = hashing::build_key(algo->layout, fields, t, key);
    return hashing::window(algo->fn({key.data(), n}, seed), algo->bits, offset);
  }
};

// Throws InputError (pointing at `where`) for an unknown algorithm.
SwitchHash resolve_hash(const HashSpec& spec, const SourcePos& where);
SwitchHash resolve_hash(const HashSpec& spec, const std::string& source);

// The hash spec a switch of `tier` named `name` runs in `scenario`: the
// scenario's [scenario.hash], then its tier's override, then its own.
HashSpec hash_for_switch(const ScenarioSpec& scenario, Tier tier, std::string_view name);

class Forwarding {
 public:
  // `flows` is needed only by the generated `balanced` policy.
  Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
             const std::string& source, const workloads::Flows* flows = nullptr);

  bool is_static() const noexcept { return !static_code_.empty(); }
  // The config file and scenario this state was compiled from, for messages.
  const std::string& source() const noexcept { return source_; }
  const std::string& scenario_name() const noexcept { return scenario_name_; }
  const EqualCostSets& sets() const noexcept { return *sets_; }
  // One hash per switch (dense switch index); patchable, e.g. per-switch seeds in sweeps.
  const SwitchHash& hash_of(std::uint32_t switch_index) const { return hashes_[switch_index]; }
  std::span<SwitchHash> switch_hashes() noexcept { return hashes_; }
  std::span<const SwitchHash> switch_hashes() const noexcept { return hashes_; }

  // Member index within group g for hash value h (modulo / threshold /
  // resilient), honouring member weights.
  std::uint32_t select(std::uint32_t g, const SwitchHash& hash, std::uint64_t h) const {
    const auto n = static_cast<std::uint32_t>(sets_->members(g).size());
    switch (hash.select) {
      case hashing::Selection::Modulo:
        if (table_size_[g] == 0) return hashing::select_modulo(h, n);
        return table_[table_begin_[g] + h % table_size_[g]];
      case hashing::Selection::Threshold:
        return hashing::select_threshold(h, {bounds_.data() + bounds_begin_[g], n});
      case hashing::Selection::Resilient:
        return table_[table_begin_[g] + h % table_size_[g]];
    }
    return 0;
  }

  // Static routing: the next link from a switch towards an endpoint, for a
  // packet from `src_ip`; kNone if no route.
  LinkId static_next(std::uint32_t switch_index, std::uint32_t endpoint, std::uint32_t src_ip) const {
    if (!has_src_routes_.empty() && has_src_routes_[switch_index]) {
      const LinkId l = source_route(switch_index, endpoint, src_ip);
      if (l != kNone) return l;
    }
    return decode(static_code_[std::size_t{switch_index} * tors_ + tor_of_[endpoint]], endpoint);
  }
  // The explicit route (TOML or CSV row) a static switch used for a
  // destination and source, for error messages; nullopt for generated entries.
  std::optional<SourcePos> route_origin(std::uint32_t switch_index, std::uint32_t endpoint,
                                        std::uint32_t src_ip) const;

 private:
  struct Route {
    std::uint32_t dst = 0, src = 0;
    std::uint8_t dst_len = 0, src_len = 0;
    LinkId link = kNone;
    const StaticRoute* origin = nullptr;
    const std::string* file = nullptr;  // CSV rows: the file; TOML routes carry theirs
  };
  static constexpr std::uint32_t kKindMask = 0xC0000000u;
  static constexpr std::uint32_t kLink = 0, kPerEndpoint = 0x40000000u, kDstMod = 0x80000000u;

  LinkId decode(std::uint32_t code, std::uint32_t endpoint) const {
    if (code == kNone) return kNone;
    switch (code & kKindMask) {
      case kLink: return code;
      case kPerEndpoint: return per_endpoint_[(code & ~kKindMask) + tor_pos_[endpoint]];
      default: {
        const auto m = sets_->members(code & ~kKindMask);
        return m[endpoint % m.size()];
      }
    }
  }
  void build_selection(const Fabric& fabric, const ScenarioSpec& scenario);
  void build_static(const Fabric& fabric, const ScenarioSpec& scenario, const workloads::Flows* flows);
  LinkId source_route(std::uint32_t s, std::uint32_t endpoint, std::uint32_t src_ip) const;
  const Route* best_route(std::uint32_t s, std::uint32_t dst_ip, std::uint32_t src_ip) const;

  const EqualCostSets* sets_;
  std::vector<SwitchHash> hashes_;            // per switch
  std::vector<std::uint64_t> bounds_;         // threshold bounds per group
  std::vector<std::uint32_t> bounds_begin_;
  std::vector<std::uint32_t> table_;          // weighted-modulo or resilient tables per group
  std::vector<std::uint32_t> table_begin_, table_size_;

  std::uint32_t tors_ = 0;
  std::vector<std::uint32_t> tor_of_, tor_pos_, endpoint_ip_;  // copies for the hot path
  std::string source_, scenario_name_;
  std::vector<std::uint32_t> static_code_;   // switch x destination ToR
  std::vector<LinkId> per_endpoint_;         // per-endpoint entries of (switch, ToR) pairs that need them
  std::vector<Route> routes_;                // explicit routes grouped by switch
  std::vector<std::uint32_t> routes_begin_;  // per switch, into routes_
  std::vector<std::uint8_t> has_src_routes_;  // per switch; empty when no route names a source
};

}  // namespace ecmpsim
