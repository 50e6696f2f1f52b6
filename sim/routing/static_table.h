// A static routing table compiled to flat arrays: per switch and destination
// ToR one code (a link, a per-endpoint block, or "destination modulo the
// equal-cost members"), with explicit longest-prefix routes resolved to links
// ahead of time and only source-qualified routes looked up per packet. It is
// built from the generated policy (dst-mod or balanced), then the TOML routes,
// then a routes file; each explicit route keeps the place it was written, for
// error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/base/error.h"
#include "sim/config/routing_spec.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"
#include "workloads/flow.h"

namespace ecmpsim {

class StaticTable {
 public:
  StaticTable() = default;
  // `flows` is needed only by the generated `balanced` policy.
  StaticTable(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
              const workloads::Flows* flows);

  bool empty() const noexcept { return code_.empty(); }

  // The next link from a switch towards an endpoint, for a packet from
  // `src_ip`; kNone if no route.
  LinkId next(std::uint32_t switch_index, std::uint32_t endpoint, const hashing::IpAddr& src_ip) const {
    if (!has_src_routes_.empty() && has_src_routes_[switch_index]) {
      const Route* r = best_route(switch_index, endpoint_ip_[endpoint], src_ip);
      if (r != nullptr) return r->link;
    }
    return decode(code_[std::size_t{switch_index} * tors_ + tor_of_[endpoint]], endpoint);
  }
  // The explicit route (TOML or CSV row) a switch used for a destination and
  // source; nullopt for generated entries.
  std::optional<SourcePos> route_origin(std::uint32_t switch_index, std::uint32_t endpoint,
                                        const hashing::IpAddr& src_ip) const;

 private:
  struct Route {
    hashing::IpAddr dst, src;
    std::uint8_t dst_len = 0, src_len = 0;
    LinkId link = kNone;
    SourcePos where;  // the TOML route or CSV row
  };
  using Rows = std::vector<std::pair<std::uint32_t, Route>>;  // (switch index, route)
  static constexpr std::uint32_t kKindMask = 0xC0000000u;
  static constexpr std::uint32_t kLink = 0, kPerEndpoint = 0x40000000u, kModulo = 0x80000000u;

  LinkId decode(std::uint32_t code, std::uint32_t endpoint) const {
    if (code == kNone) return kNone;
    const std::uint32_t at = code & ~kKindMask;
    switch (code & kKindMask) {
      case kLink: return code;
      case kPerEndpoint: return per_endpoint_[at + tor_pos_[endpoint]];
      default: return modulo_[at + 1 + endpoint % modulo_[at]];
    }
  }
  std::uint32_t& code(std::uint32_t s, std::uint32_t t) { return code_[std::size_t{s} * tors_ + t]; }
  void generate(const EqualCostSets& sets, std::uint32_t switches);
  void balance(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows);
  std::uint32_t open_block(const Fabric& fabric, std::uint32_t s, std::uint32_t t);
  static Rows resolve(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario);
  void index(Rows rows, std::uint32_t switches);
  void compile(const Fabric& fabric, std::uint32_t switches);
  const Route* best_route(std::uint32_t s, const hashing::IpAddr& dst_ip, const hashing::IpAddr& src_ip) const;

  std::uint32_t tors_ = 0;
  std::vector<std::uint32_t> tor_of_, tor_pos_;  // copies for the hot path
  std::vector<hashing::IpAddr> endpoint_ip_;
  std::vector<std::uint32_t> code_;           // switch x destination ToR
  std::vector<LinkId> per_endpoint_;          // per-endpoint entries of (switch, ToR) pairs that need them
  std::vector<std::uint32_t> modulo_;         // member count, then the members, per dst-mod group
  std::vector<Route> routes_;                 // explicit routes grouped by switch
  std::vector<std::uint32_t> routes_begin_;   // per switch, into routes_
  std::vector<std::uint8_t> has_src_routes_;  // per switch; empty when no route names a source
};

}  // namespace ecmpsim
