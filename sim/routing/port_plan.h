// ECMP with planned source ports (sports = "planned"): the switches keep
// hashing, and the host picks each QP's UDP source port so that the hashes
// the scenario's switches run — their algorithms, seeds, selection, WCMP
// tables and failures, all through the same per-hop step as the trace —
// send the flows where the plan wants them.
//
// Two tiers (every inter-ToR flow's only choice is its source ToR's uplink,
// each uplink reaches its own spine, every spine a ToR over one link, all
// these links equally fast, and the same spines serve every ToR pair): the
// flows form a bipartite multigraph from source to destination ToRs, and an
// equitable edge colouring with one colour per spine
// (sim/routing/edge_colouring.h) gives every ToR floor(d/S) or ceil(d/S) of
// its d flows on each of its S uplinks, and the same on its downlinks — the
// fewest flows any routing can put on the busiest link of that ToR. Each
// flow then takes the first port of its candidate sequence whose hash at the
// source ToR picks its colour's spine. A flow no port in the range sends
// there is placed greedily (below); the plan counts them.
//
// Otherwise (three tiers, failures that make ToR pairs see different spines,
// parallel cables): greedy in flow order — each flow tries kPlanCandidates
// ports and takes the one whose path has the lowest maximum load over its
// switch-to-switch links (bytes / speed, its own bytes included), then the
// lowest sum of those loads (which spreads flows over links the maximum does
// not tell apart), then the earliest candidate; a candidate's walk stops at
// the first hop where it can no longer win. Then local repair:
// repeatedly, every flow crossing a link at the maximum load tries up to
// kRepairCandidates ports for a path whose maximum is strictly lower, until
// a pass moves nothing (at most kRepairPasses passes) or the maximum is
// within a millionth of the floor no routing can beat (per ToR and
// direction: its flows' bytes over the total speed of its working switch
// links, and ceil(flows / links) of its smallest flow over its fastest link). No constant factor is
// claimed beyond two tiers (unsplittable min-congestion routing is NP-hard).
//
// Flow k's candidate ports are sport_min + (j x s mod N) for j = (k x
// kPlanCandidates + i) mod N, i = 0, 1, ..., over the N ports of the range,
// where s is the number nearest 0.618 N coprime with N: flows with the same
// addresses try different ports, and consecutive candidates lie far apart (a
// linear hash such as CRC-16/CCITT modulo 4 sends 8 consecutive ports to one
// member). Flows with no choice (same ToR, forced paths) take their first
// candidate.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/base/named.h"
#include "sim/config/routing_spec.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "workloads/flow.h"

namespace ecmpsim {

inline constexpr std::uint32_t kPlanCandidates = 16;    // ports a flow tries in the greedy pass
inline constexpr std::uint32_t kRepairCandidates = 64;  // ports a flow on a hottest link tries in repair
inline constexpr std::uint32_t kRepairPasses = 16;

enum class PlanMethod : std::uint8_t { Colouring, Greedy };
inline constexpr std::array<Named<PlanMethod>, 2> kPlanMethods{
    {{PlanMethod::Colouring, "colouring",
      "two tiers: an equitable edge colouring of the ToR-to-ToR flow multigraph, one colour per spine (the fewest "
      "flows on every ToR's busiest uplink and downlink)"},
     {PlanMethod::Greedy, "greedy",
      "flows in order, each on the best of the ports it tries (lowest most-loaded link on its path), then local "
      "repair of the most-loaded links"}}};

struct PortPlan {
  PlanMethod method = PlanMethod::Greedy;
  std::vector<std::uint16_t> sport;       // per flow
  std::vector<std::uint32_t> flow_label;  // per flow, non-zero: rdma_flow_label_to_udp_sport gives `sport`
  std::uint64_t ports_tried = 0;          // walks of one flow under one candidate port
  std::uint64_t off_colour = 0;           // colouring: flows placed greedily, no port reaching their spine
  std::uint64_t repaired = 0;             // flows the local repair moved
};

// The plan for `flows` under `fwd` (an ECMP scenario's forwarding). Throws
// InputError at the scenario's `sports` key when no switch's hash reads the
// source port, and at sport_max (or sport_min, or sports) when the range
// holds fewer ports than the largest equal-cost group a flow crosses (too
// small to spread).
PortPlan plan_ports(const Fabric& fabric, const Forwarding& fwd, const workloads::Flows& flows,
                    const ScenarioSpec& scenario);

// `flows` with the plan's source ports.
workloads::Flows with_ports(workloads::Flows flows, const PortPlan& plan);

}  // namespace ecmpsim
