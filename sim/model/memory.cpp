// The memory estimate (memory.h). Each constant is the bytes one element
// costs in the arrays named beside it; docs/performance.md#memory-estimate
// adds them up and compares the total with measured peaks.
#include "sim/model/memory.h"

#include <algorithm>
#include <set>
#include <vector>

#include "sim/base/error.h"
#include "sim/base/parallel.h"
#include "sim/base/text.h"
#include "sim/fabric/fabric.h"

namespace ecmpsim {
namespace {

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? ~0ULL : r;
}

// The process before any fabric: code, libraries, the thread pool.
constexpr std::uint64_t kProcess = 8ULL << 20;
// Fabric (sim/fabric/fabric.h): a Node (name 32, tier 8, address 16) and the
// node-indexed arrays (endpoint, switch and ToR index, out_begin: 16).
constexpr std::uint64_t kPerNode = 72;
// An endpoint's own arrays: endpoints_, tor_of_, tor_pos_, uplink_,
// tor_members_, server_nic_nodes_, server_nics_, server_of_, server_begin_
// (9 x 4), its server's name (32 + 16 of text) and MAC (8).
constexpr std::uint64_t kPerEndpoint = 92;
// A directed link: Link (24), out_ (4), in_port_ (2), padding.
constexpr std::uint64_t kPerLink = 32;
// A topology file's node and link as the Spec keeps them (TopologyNode:
// name, server, two SourcePos; TopologyLink: two names, a SourcePos), and
// the name map build_fabric makes.
constexpr std::uint64_t kPerTopologyNode = 300;
constexpr std::uint64_t kPerTopologyLink = 160;
// EqualCostSets (sim/routing/routes.h): group_of_ and distance_, 4 bytes
// each per (switch, destination ToR).
constexpr std::uint64_t kPerSwitchTor = 8;
// Its groups, about one per directed switch-to-switch link: begin_ and
// members_ (8), and while they are made the map of seen member lists (an
// entry, its vector and its bucket: 88); and the BFS's adjacency and
// Boost's CSR graph (24).
constexpr std::uint64_t kPerSwitchLink = 120;
// EcmpSelection (sim/routing/selection.h): a SwitchHash per switch
// (algorithm, fields, seed, window, select, buckets, an optional 40-byte
// RSS key: 112) and its fields' storage (32).
constexpr std::uint64_t kPerSwitchHash = 144;
// StaticTable (sim/routing/static_table.h): code_, 4 bytes per (switch,
// ToR); per endpoint tor_of_, tor_pos_ and endpoint_ip_ (24); a balanced
// policy's per-endpoint blocks, at most 4 bytes per (switch, endpoint).
constexpr std::uint64_t kStaticPerSwitchTor = 4;
constexpr std::uint64_t kStaticPerEndpoint = 24;
constexpr std::uint64_t kBalancedPerSwitchEndpoint = 4;
// workloads::Flows (workloads/flow.h): src, dst, lqpn, rqpn, flow_label
// (20), two addresses (32), proto, collective (2), sport, dport, job,
// channel (8), bytes (8).
constexpr std::uint64_t kPerFlow = 70;
// A scenario's result per flow (sim/model/trace.h, flow_model.h): its
// path_begin entry (4) and times (start rate and finish, 16); 4 bytes per
// path link.
constexpr std::uint64_t kResultPerFlow = 20;
constexpr std::uint64_t kResultPerHop = 4;
// A planned-ports scenario: the plan's sport and flow_label (6) and the
// copy of the flows routed with them (kPerFlow).
constexpr std::uint64_t kPlanPerFlow = 6 + kPerFlow;
// One FlowModel (sim/model/flow_model.h), per group of flows on one path (at
// most one per flow): group_begin_, member_begin_, head_, count_, version_,
// order_, cand_mark_, checked_, bneck_, bneck_next_, bneck_prev_, touched_,
// bneck_unknown_, cand_ (14 x 4); rate_, delivered_, since_, old_rate_,
// orig_rate_ (5 x 8); done_ (1); a finish-heap entry with as many stale ones
// (2 x 16); solve_stamp_ (8); by_rate_ (16); slack (8): 161 bytes. Per flow
// members_, group_of_ (8), member_bits_ (8) and slot_ (8): 24. Per group
// path entry flow_links_, link_groups_ and sub_flows_: 12. Per local link
// about 170 (capacity, load, sub-problem, bottleneck and check arrays).
// Groups are bounded by path_groups_bound.
constexpr std::uint64_t kModelPerGroup = 161;
constexpr std::uint64_t kModelPerFlow = 24;
constexpr std::uint64_t kModelPerHop = 12;
constexpr std::uint64_t kModelPerLink = 170;

std::uint64_t scenarios_in_flight(const Spec& spec) {
  return std::max<std::uint64_t>(1, std::min<std::uint64_t>(spec.scenarios.size(), default_threads()));
}

}  // namespace

void MemoryEstimate::add(std::uint64_t part, const std::string& what) {
  bytes = bytes + part < bytes ? ~0ULL : bytes + part;
  if (part > largest_bytes) {
    largest_bytes = part;
    largest = what;
  }
}

std::uint32_t generated_max_hops(const Spec& spec) {
  switch (spec.fabric.kind) {
    case FabricKind::LeafSpine:
    case FabricKind::Rail: return 4;  // host, leaf, spine, leaf, host
    case FabricKind::FatTree: return 6;  // host, edge, aggregation, core, aggregation, edge, host
    case FabricKind::File: return 0;
  }
  return 0;
}

std::uint32_t max_path_links(const EqualCostSets& sets) {
  std::uint32_t longest = 0;
  for (std::uint32_t s = 0; s < sets.switches(); ++s)
    for (std::uint32_t t = 0; t < sets.tors(); ++t)
      if (const std::uint32_t d = sets.distance(s, t); d != kNone) longest = std::max(longest, d);
  return longest + 2;
}

std::uint64_t flow_model_bytes(std::uint64_t flows, std::uint64_t groups, std::uint32_t hops, std::uint64_t links) {
  return mul(flows, kModelPerFlow) + mul(groups, kModelPerGroup + kModelPerHop * hops) + mul(links, kModelPerLink);
}

std::uint64_t path_groups_bound(const Fabric& fabric, const workloads::Flows& flows) {
  std::vector<std::uint64_t> local;  // (source, destination) of the flows within one ToR
  for (std::size_t f = 0; f < flows.size(); ++f)
    if (fabric.tor_of(flows.src[f]) == fabric.tor_of(flows.dst[f]))
      local.push_back(std::uint64_t{flows.src[f]} << 32 | flows.dst[f]);
  std::sort(local.begin(), local.end());
  const auto pairs = static_cast<std::uint64_t>(std::unique(local.begin(), local.end()) - local.begin());
  return flows.size() - local.size() + pairs;
}

MemoryEstimate routing_memory(const Spec& spec) {
  MemoryEstimate m;
  const FabricCounts c = fabric_counts(spec.fabric);
  const std::uint64_t hosts = endpoint_count(spec.fabric);
  const std::uint64_t links = mul(2, c.cables);
  const std::uint64_t switch_links = c.cables > hosts ? mul(2, c.cables - hosts) : 0;
  m.add(kProcess, "the process");
  m.add(mul(c.switches + hosts, kPerNode) + mul(hosts, kPerEndpoint) + mul(links, kPerLink),
        std::to_string(c.switches + hosts) + " nodes and " + std::to_string(links) + " links of the fabric");
  if (spec.fabric.kind == FabricKind::File)
    m.add(mul(spec.fabric.topology.nodes.size(), kPerTopologyNode) +
              mul(spec.fabric.topology.links.size(), kPerTopologyLink),
          "the topology file's nodes and links");
  // One set of equal-cost sets per failure set: the healthy fabric's and one
  // per distinct `down` list (at most; two lists may take down the same links).
  std::set<std::vector<std::string>> failures;
  for (const ScenarioSpec& s : spec.scenarios) {
    std::vector<std::string> down;
    for (const LinkRef& r : s.down) down.push_back(r.text);
    std::sort(down.begin(), down.end());
    if (!down.empty()) failures.insert(std::move(down));
  }
  const std::uint64_t sets = 1 + failures.size();
  m.add(mul(sets, mul(mul(c.switches, c.tors), kPerSwitchTor) + mul(switch_links, kPerSwitchLink)),
        std::to_string(sets) + " x " + std::to_string(c.switches) + " switches x " + std::to_string(c.tors) +
            " destination ToRs x " + std::to_string(kPerSwitchTor) + " B of equal-cost sets");
  // The forwarding state of the scenarios in flight (Simulation::run_all).
  const std::uint64_t flight = scenarios_in_flight(spec);
  std::uint64_t statics = 0, balanced = 0, resilient = 0;
  for (const ScenarioSpec& s : spec.scenarios) {
    statics += routing_mode(s.routing).tables;
    balanced += routing_mode(s.routing).tables && s.policy == StaticPolicy::Balanced;
    if (s.hash.select == hashing::Selection::Resilient) resilient = std::max<std::uint64_t>(resilient, s.hash.buckets);
  }
  m.add(mul(flight, mul(c.switches, kPerSwitchHash) + mul(mul(switch_links, resilient), 4)),
        std::to_string(flight) + " scenarios' ECMP selection");
  if (statics > 0)
    m.add(mul(std::min(flight, statics), mul(mul(c.switches, c.tors), kStaticPerSwitchTor) +
                                             mul(hosts, kStaticPerEndpoint) +
                                             (balanced > 0 ? mul(mul(c.switches, hosts), kBalancedPerSwitchEndpoint) : 0)),
          std::to_string(std::min(flight, statics)) + " x " + std::to_string(c.switches) + " switches x " +
              std::to_string(c.tors) + " destination ToRs of static tables");
  return m;
}

void add_flow_memory(MemoryEstimate& m, const Spec& spec, std::uint64_t flows, std::uint64_t groups,
                     std::uint32_t max_hops) {
  const std::uint64_t n = spec.scenarios.size(), flight = scenarios_in_flight(spec);
  const FabricCounts c = fabric_counts(spec.fabric);
  m.add(mul(flows, kPerFlow), std::to_string(flows) + " flows");
  m.add(mul(n, mul(flows, kResultPerFlow + mul(kResultPerHop, max_hops))),
        std::to_string(n) + " scenarios' paths and times of " + std::to_string(flows) + " flows");
  std::uint64_t planned = 0;
  for (const ScenarioSpec& s : spec.scenarios) planned += plans_ports(s);
  if (planned > 0) m.add(mul(std::min(flight, planned), mul(flows, kPlanPerFlow)), "planned source ports");
  // A run of several jobs keeps its flow model while it models each job alone.
  const std::uint64_t models = mul(flight, spec.jobs.size() > 1 ? 2 : 1);
  m.add(mul(models, flow_model_bytes(flows, groups, max_hops, mul(2, c.cables))),
        std::to_string(models) + " flow models of " + std::to_string(flows) + " flows in at most " +
            std::to_string(groups) + " groups");
}

void check_memory(const MemoryEstimate& m, const Spec& spec, const std::string& what) {
  const std::uint64_t limit = spec.limits.max_memory;
  if (m.bytes <= limit) return;
  throw InputError(option_at("max_memory", spec.source),
                   what + " needs an estimated " + human_bytes(static_cast<double>(m.bytes)) + " (" +
                       std::to_string(m.bytes) + " bytes), more than the limit of " +
                       human_bytes(static_cast<double>(limit)) + "; the largest part is " + m.largest + " (" +
                       human_bytes(static_cast<double>(m.largest_bytes)) + ")");
}

}  // namespace ecmpsim
