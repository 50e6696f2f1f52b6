// The one per-hop routing step, shared by the trace behind `ecmpsim run` and
// the sweep kernel: from the link a flow arrived on, the link it leaves on.
// A ToR delivers to its own endpoints; a static switch looks its table up; an
// ECMP switch picks a next hop of the equal-cost group by its hash of the
// flow, and when that next hop is a port-channel (LAG), one of its members by
// its LAG hash; a bonded host picks its bond's member by the bond hash. The
// caller supplies the hashes (hash(sw, hop, role): the trace packs the key at
// the hop, the sweep reads a per-class cache), and each is asked for only
// when there is more than one to choose from. What the packet carries that
// changes from hop to hop (Hop) is read here, once, for both.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>

#include "hashing/key.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "workloads/flow.h"

namespace ecmpsim {

// What a switch sees of a packet beyond the flow's own header: the port it
// came in on, and the Ethernet addresses of the link it came over: the
// sending interface's MAC as source (the previous router's, or the NIC's on
// the first hop) and the receiving interface's as destination (a routed hop
// rewrites both). VLAN ID and ethertype do not change along a routed path
// (untagged routed ports; the flow's IPv4 ethertype).
struct Hop {
  LinkId in = kNone;
  std::uint16_t in_port = 0;
  std::uint64_t src_mac = 0;
  std::uint64_t dst_mac = 0;

  // The flow's tuple as this switch hashes it.
  void apply(hashing::Tuple& t) const noexcept {
    t.in_port = in_port;
    t.src_mac = src_mac;
    t.dst_mac = dst_mac;
  }
};

inline Hop hop_over(const Fabric& fabric, LinkId in) noexcept {
  return {in, fabric.in_port(in), fabric.mac_of(in), fabric.mac_of(fabric.link(in).reverse)};
}

// What the walk needs to know of one flow.
struct FlowEnds {
  LinkId first = kNone;  // the source endpoint's uplink
  LinkId last = kNone;   // the destination endpoint's downlink
  std::uint32_t dst = 0;      // destination endpoint
  std::uint32_t dst_tor = 0;  // its ToR index
  hashing::IpAddr src_ip;     // for static routes that name a source
};
FlowEnds ends_of(const Fabric& fabric, const workloads::Flows& flows, std::size_t f);

// InputError for a switch with no way on (or a walk longer than the fabric
// has switches: a loop). An explicit static route that decided points at its
// config line; otherwise the message names the config and scenario.
[[noreturn]] void no_route(const Fabric& fabric, const Forwarding& fwd, std::uint32_t sw, const FlowEnds& e,
                           bool loop);

// The member of `links` (a port-channel's, in member order) a windowed LAG
// or bond hash h picks: h mod their number, as LAG hardware and Linux
// bonding do.
inline LinkId lag_member(std::span<const LinkId> links, std::uint64_t h) noexcept {
  return links[h % links.size()];
}

// Link l, or, when it is a member of one of sw's port-channels, the member
// the switch's LAG hash picks among all of them (delivery to a bonded host,
// a static route via a port-channel).
template <class Hash>
LinkId member_of(const Fabric& fabric, std::uint32_t sw, LinkId in, LinkId l, Hash&& hash) {
  if (l == kNone || fabric.lag_of(l) == kNone) return l;
  const auto members = std::span<const LinkId>(fabric.lags()[fabric.lag_of(l)].members);
  return members.size() == 1 ? l : lag_member(members, hash(sw, hop_over(fabric, in), HashRole::Lag));
}

// The link switch `sw` sends the flow on, having received it over `in`;
// kNone when it has no route. hash(sw, hop, role) -> the switch's windowed
// hash (role Ecmp or Lag) of the flow as it arrived over hop.in (hop_over).
template <class Hash>
LinkId next_link(const Fabric& fabric, const Forwarding& fwd, std::uint32_t sw, LinkId in, const FlowEnds& e,
                 Hash&& hash) {
  if (fabric.tor_of_switch(sw) == e.dst_tor) return member_of(fabric, sw, in, e.last, hash);
  if (fwd.is_static()) return member_of(fabric, sw, in, fwd.static_next(sw, e.dst, e.src_ip), hash);
  const EqualCostSets& sets = fwd.sets();
  const std::uint32_t g = sets.group(sw, e.dst_tor);
  if (g == EqualCostSets::kNoGroup) return kNone;
  if (fwd.plain()) {
    const auto members = sets.members(g);
    if (members.size() == 1) return members[0];
    return members[fwd.select(g, fwd.hash_of(sw), hash(sw, hop_over(fabric, in), HashRole::Ecmp))];
  }
  const std::uint32_t n = fwd.next_hops(g);
  const auto links =
      fwd.next_hop(g, n == 1 ? 0 : fwd.select(g, fwd.hash_of(sw), hash(sw, hop_over(fabric, in), HashRole::Ecmp)));
  return links.size() == 1 ? links[0] : lag_member(links, hash(sw, hop_over(fabric, in), HashRole::Lag));
}

// The link a flow leaves its source on: its uplink, or for a bonded host
// the member its bond hash picks (hash(kNone, {}, HashRole::Bond)).
template <class Hash>
LinkId first_link(const Fabric& fabric, LinkId uplink, Hash&& hash) {
  if (fabric.lag_of(uplink) == kNone) return uplink;
  const auto members = std::span<const LinkId>(fabric.lags()[fabric.lag_of(uplink)].members);
  return members.size() == 1 ? uplink : lag_member(members, hash(kNone, Hop{}, HashRole::Bond));
}

// The one walk loop of every mode that routes a flow hop by hop (ECMP and
// static through next_link, adaptive by placed load, the port planner's
// candidates): from e.first, step(sw, in) gives the link switch `sw` sends
// the flow on having received it over `in` (kNone: no route). A walk longer
// than the fabric has switches is a loop. on_link(l) sees every link taken;
// when it returns bool, false stops the walk there (a bound already beaten).
// Returns the switch hops made.
template <class Step, class OnLink>
std::uint32_t walk_path(const Fabric& fabric, const Forwarding& fwd, const FlowEnds& e, Step&& step,
                        OnLink&& on_link) {
  auto go_on = [&](LinkId l) {
    if constexpr (std::is_void_v<std::invoke_result_t<OnLink&, LinkId>>) {
      on_link(l);
      return true;
    } else {
      return static_cast<bool>(on_link(l));
    }
  };
  const std::size_t max_hops = fabric.switches().size() + 1;
  LinkId link = e.first;
  if (!go_on(link)) return 0;
  std::uint32_t hops = 0;
  for (std::uint32_t sw; (sw = fabric.switch_after(link)) != kNone; ++hops) {
    if (hops >= max_hops) no_route(fabric, fwd, sw, e, true);
    const LinkId next = step(sw, link);
    if (next == kNone) no_route(fabric, fwd, sw, e, false);
    link = next;
    if (!go_on(link)) return hops + 1;
  }
  return hops;
}

// Walks a flow from its uplink to its destination by next_link, calling
// on_link(l) for every link it takes; returns the forwarding decisions made
// (switch hops).
template <class Hash, class OnLink>
std::uint32_t walk(const Fabric& fabric, const Forwarding& fwd, const FlowEnds& e, Hash&& hash, OnLink&& on_link) {
  FlowEnds from = e;
  from.first = first_link(fabric, e.first, hash);
  return walk_path(
      fabric, fwd, from, [&](std::uint32_t sw, LinkId in) { return next_link(fabric, fwd, sw, in, e, hash); },
      on_link);
}

}  // namespace ecmpsim
