// What each switch of one scenario does with a packet: the equal-cost sets it
// was compiled from, the ECMP selection (hashes and per-group tables), and for
// a static scenario the static table. Route computation (EqualCostSets) stays
// apart from per-flow selection; the per-hop step (next_link.h) reads this.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/config/routing_spec.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"
#include "sim/routing/selection.h"
#include "sim/routing/static_table.h"
#include "workloads/flow.h"

namespace ecmpsim {

class Forwarding {
 public:
  // `sets` must outlive the Forwarding (the Simulation owns both); `flows`
  // is needed only by the generated `balanced` policy.
  Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
             const std::string& source, const workloads::Flows* flows = nullptr);

  bool is_static() const noexcept { return !static_.empty(); }
  // The scenario's routing, which route_flows (sim/routing/route_flows.h)
  // dispatches on: adaptive and spraying read the sets but not the hashes.
  RoutingKind routing() const noexcept { return routing_; }
  AdaptiveMode adaptive() const noexcept { return adaptive_; }
  // Spraying: every link's WCMP weight in this scenario (empty otherwise).
  std::span<const std::uint32_t> weights() const noexcept { return weights_; }
  // The config file and scenario this state was compiled from, for messages.
  const std::string& source() const noexcept { return source_; }
  const std::string& scenario_name() const noexcept { return scenario_name_; }
  // The scenario's [[scenario]] table (line 0 for the default scenario or one built in code).
  const SourcePos& scenario_where() const noexcept { return scenario_where_; }
  const EqualCostSets& sets() const noexcept { return *sets_; }
  const SwitchHash& hash_of(std::uint32_t switch_index) const { return ecmp_.hash_of(switch_index); }
  const SwitchHash& hash_for(std::uint32_t switch_index, HashRole role) const {
    return ecmp_.hash_for(switch_index, role);
  }

  // Next hop index within group g for hash value h (modulo / threshold /
  // resilient), honouring weights: a member, or a port-channel of members.
  std::uint32_t select(std::uint32_t g, const SwitchHash& hash, std::uint64_t h) const {
    return ecmp_.select(g, next_hops(g), hash, h);
  }
  // Port-channels (sim/fabric/fabric.h, Lag): without any (plain()), group
  // g's next hops are its members; with some, next_hop(g, i) is one member or
  // the members of one port-channel.
  bool plain() const noexcept { return ecmp_.plain(); }
  std::uint32_t next_hops(std::uint32_t g) const {
    return ecmp_.next_hops(g, static_cast<std::uint32_t>(sets_->members(g).size()));
  }
  std::span<const LinkId> next_hop(std::uint32_t g, std::uint32_t i) const { return ecmp_.next_hop(g, i); }
  // Whether group g selects through a table (weights, resilient buckets).
  bool has_table(std::uint32_t g) const { return ecmp_.has_table(g); }
  // Static routing: the next link from a switch towards an endpoint, for a
  // packet from `src_ip`; kNone if no route.
  LinkId static_next(std::uint32_t switch_index, std::uint32_t endpoint, const hashing::IpAddr& src_ip) const {
    return static_.next(switch_index, endpoint, src_ip);
  }
  // The explicit route (TOML or CSV row) a static switch used, for error
  // messages; nullopt for generated entries and ECMP scenarios.
  std::optional<SourcePos> route_origin(std::uint32_t switch_index, std::uint32_t endpoint,
                                        const hashing::IpAddr& src_ip) const {
    return static_.route_origin(switch_index, endpoint, src_ip);
  }

 private:
  const EqualCostSets* sets_;
  EcmpSelection ecmp_;
  StaticTable static_;
  std::string source_, scenario_name_;
  SourcePos scenario_where_;
  RoutingKind routing_;
  AdaptiveMode adaptive_ = AdaptiveMode::Local;
  std::vector<std::uint32_t> weights_;
};

}  // namespace ecmpsim
