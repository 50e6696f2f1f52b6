// The routing modes as one table: each mode's name and doc (a Named<> row,
// sim/base/named.h) and the traits the rest of the code asks of a mode, so
// that the sweep, the config checks, the outputs, the report and emulate
// read a column instead of comparing against modes by hand. Adding a mode is
// a row here and its router in sim/routing (dispatched by route_flows,
// sim/routing/route_flows.h). The table lives in sim/config, the lowest
// stage that needs it, not in sim/routing: the config reader parses the name
// and checks a scenario's keys against the traits, and config sits below
// routing.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ecmpsim {

enum class RoutingKind : std::uint8_t { Ecmp, Static, Adaptive, Spray };

struct RoutingMode {
  RoutingKind value;
  std::string_view name;
  std::string_view doc;
  std::string_view label;  // the mode in messages ("the config has no ECMP scenario ...")
  // Switches hash the header: --algo, --seed and --seed-mode override its
  // hash, outputs print it, sweeps and the report sweep its seeds by default,
  // and emulate runs it on a Linux multipath hash.
  bool hashes = false;
  // Each switch decides each hop from the packet alone (next_link): the sweep
  // kernel walks it without allocating, and the sweep's algo and seed axes
  // multiply its variants.
  bool per_hop = false;
  // Per-destination tables (listed routes or a generated policy): needs one of
  // them, and is the baseline the FlowTracer comparison measures ECMP against.
  bool tables = false;
  // Places flows by the load already placed: takes the `adaptive` key.
  bool load_aware = false;
  // Splits each flow over the members: link loads are shares.
  bool splits = false;
  // Takes sports = "planned": ports planned for the switches' hashes, so each
  // sweep variant re-plans them (a reroute per variant).
  bool plans_ports = false;
  // emulate can build it as Linux routes (multipath or static).
  bool emulated = false;
};

inline constexpr std::array<RoutingMode, 4> kRoutingKinds{{
    {.value = RoutingKind::Ecmp,
     .name = "ecmp",
     .doc = "every switch hashes the flow's header onto a member of its equal-cost group",
     .label = "ECMP",
     .hashes = true,
     .per_hop = true,
     .plans_ports = true,
     .emulated = true},
    {.value = RoutingKind::Static,
     .name = "static",
     .doc = "per-destination tables (listed routes, dst-mod or balanced)",
     .label = "static",
     .per_hop = true,
     .tables = true,
     .emulated = true},
    {.value = RoutingKind::Adaptive,
     .name = "adaptive",
     .doc = "switches place each flow, in flow order, by the load already placed (see `adaptive`)",
     .label = "adaptive",
     .load_aware = true},
    {.value = RoutingKind::Spray,
     .name = "spray",
     .doc = "every switch splits each flow's packets over all members of its equal-cost group, in proportion to "
            "their WCMP weights (per-packet spraying as a fluid)",
     .label = "spray",
     .splits = true},
}};

// A mode's row: the table is in enum order.
constexpr const RoutingMode& routing_mode(RoutingKind k) noexcept { return kRoutingKinds[static_cast<std::size_t>(k)]; }

static_assert([] {
  for (std::size_t i = 0; i < kRoutingKinds.size(); ++i)
    if (static_cast<std::size_t>(kRoutingKinds[i].value) != i) return false;
  return true;
}(), "kRoutingKinds must list the modes in enum order");

}  // namespace ecmpsim
