// The validated description of one experiment. Plain data: nothing here reads
// TOML or knows the command line; tests build a Spec in code.
#pragma once

#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "hashing/key.h"
#include "hashing/select.h"
#include "hashing/toeplitz.h"
#include "hashing/named.h"
#include "sim/base/error.h"
#include "sim/base/limits.h"
#include "sim/config/sweep_metric.h"
#include "sim/base/units.h"
#include "workloads/collective.h"
#include "workloads/job.h"
#include "workloads/nccl.h"
#include "workloads/placement.h"
#include "workloads/roce.h"

namespace ecmpsim {

enum class Tier : std::uint8_t { Host = 0, Leaf = 1, Spine = 2, Core = 3 };
inline constexpr std::array<Named<Tier>, 4> kTiers{
    {{Tier::Host, "host"}, {Tier::Leaf, "leaf"}, {Tier::Spine, "spine"}, {Tier::Core, "core"}}};

enum class FabricKind : std::uint8_t { LeafSpine, FatTree, Rail, File };
inline constexpr std::array<Named<FabricKind>, 4> kFabricKinds{{{FabricKind::LeafSpine, "leaf-spine"},
                                                                 {FabricKind::FatTree, "fat-tree"},
                                                                 {FabricKind::Rail, "rail"},
                                                                 {FabricKind::File, "file"}}};

struct LeafSpineSpec {
  std::uint32_t leaves = 4;
  std::uint32_t spines = 4;
  std::uint32_t hosts_per_leaf = 4;
  std::uint32_t links_per_pair = 1;  // parallel links between each leaf and spine
  Gbps host_speed{400};
  Gbps fabric_speed{400};
};

// An explicit topology (kind = "file"): nodes with tiers and links with speeds.
struct TopologyNode {
  std::string name;
  Tier tier = Tier::Host;
  std::string server;  // endpoints only: the compute node the NIC belongs to ("" = its own)
  SourcePos where;
};
struct TopologyLink {
  std::string a, b;
  Gbps speed;
  std::uint32_t count = 1;   // parallel cables, each its own equal-cost member
  std::uint32_t weight = 1;  // WCMP weight of each of them, both directions
  SourcePos where;
};
struct TopologySpec {
  std::string source;  // the topology file, for messages
  std::vector<TopologyNode> nodes;
  std::vector<TopologyLink> links;
};

// A cable named "A-B" (every parallel cable between A and B), "A-B#n" (the
// n-th, from 0), or a switch "A" (every cable of it); resolved on the fabric.
struct LinkRef {
  std::string text;
  SourcePos where;
};
struct LinkWeight {
  LinkRef cable;
  std::uint32_t weight = 1;
};

// The MAC addresses of router interfaces, which the src-mac and dst-mac hash
// fields read (sim/fabric/fabric.h, Fabric::mac_of): one per port, as
// chassis that allocate a block per device do, or the switch's one system MAC
// on every routed port, as SONiC and EOS do.
enum class RouterMacs : std::uint8_t { PerPort, PerSwitch };
inline constexpr std::array<Named<RouterMacs>, 2> kRouterMacs{
    {{RouterMacs::PerPort, "per-port", "each port its own MAC: the node's base MAC + the port number"},
     {RouterMacs::PerSwitch, "per-switch", "every port of a switch the switch's base MAC"}}};

// A node's base MAC, given in the config instead of the derived one.
struct MacOverride {
  std::string node;
  std::uint64_t mac = 0;
  SourcePos where;
};

struct FabricSpec {
  FabricKind kind = FabricKind::LeafSpine;
  // leaf-spine; rail reuses spines, links_per_pair and both speeds.
  LeafSpineSpec leaf_spine;
  std::uint32_t nics_per_node = 1;  // K: NIC endpoints per node (server)
  std::uint32_t gpus_per_node = 1;  // G: GPUs (ranks) per node
  std::uint32_t fat_tree_k = 4;     // fat-tree: k pods of k/2 edge + k/2 aggregation
  Gbps core_speed{0};               // fat-tree aggregation-core links; 0 = fabric_speed
  std::uint32_t rail_nodes = 16;    // rail: compute nodes
  std::uint32_t rail_leaf_nodes = 0;  // rail: nodes per rail leaf (0 = all: one leaf per rail)
  TopologySpec topology;            // kind = "file"
  std::vector<LinkWeight> weights;  // WCMP weights of generated cables
  // 10.0.0.0 or an IPv6 prefix such as fd00::: ToR t's endpoints are base + t*stride + 1..
  hashing::IpAddr address_base{0x0A000000u};
  SourcePos address_base_at;  // its key, for a plan that overflows the family's space
  RouterMacs router_macs = RouterMacs::PerPort;
  std::vector<MacOverride> macs;
};

// How `seed` reaches the switches: every switch uses it as is, or each tier /
// each switch uses its own seed derived from it (sim/routing/seeds.h).
enum class SeedMode : std::uint8_t { Same, PerTier, PerSwitch };
inline constexpr std::array<Named<SeedMode>, 3> kSeedModes{
    {{SeedMode::Same, "same", "on every switch"},
     {SeedMode::PerTier, "per-tier", "as the root of one derived seed per tier (SplitMix64)"},
     {SeedMode::PerSwitch, "per-switch", "as the root of one derived seed per switch (SplitMix64)"}}};

struct HashSpec {
  std::string algo = "crc16-ccitt";
  std::vector<hashing::Field> fields = hashing::default_fields();
  std::uint32_t seed = 0;
  SeedMode seed_mode = SeedMode::Same;
  std::uint32_t offset = 0;  // rotate right by this many bits before selection
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 128;  // resilient selection only
  std::optional<hashing::RssKey> rss_key;  // toeplitz only: a key other than the standard RSS key
};

// Keys of HashSpec as bits, for overrides that set only some of them.
enum HashKey : std::uint32_t {
  kHashAlgo = 1, kHashFields = 2, kHashSeed = 4, kHashOffset = 8, kHashSelect = 16, kHashBuckets = 32,
  kHashSeedMode = 64, kHashRssKey = 128
};
// Each bit's config key, in the order outputs list them.
inline constexpr std::array<Named<HashKey>, 8> kHashKeys{{{kHashAlgo, "algo"},
                                                          {kHashFields, "fields"},
                                                          {kHashSeed, "seed"},
                                                          {kHashSeedMode, "seed_mode"},
                                                          {kHashOffset, "offset"},
                                                          {kHashSelect, "select"},
                                                          {kHashBuckets, "buckets"},
                                                          {kHashRssKey, "rss_key"}}};

// A per-tier ([scenario.hash.leaf] ...) or per-switch ([[scenario.hash.switch]])
// hash: the keys in `keys` replace the scenario's default (then the tier's).
struct HashOverride {
  Tier tier = Tier::Leaf;     // tier overrides
  std::string switch_name;    // switch overrides ("" for a tier override)
  HashSpec values;
  std::uint32_t keys = 0;     // HashKey bits set
  SourcePos where;
};

enum class RoutingKind : std::uint8_t { Ecmp, Static, Adaptive, Spray };
inline constexpr std::array<Named<RoutingKind>, 4> kRoutingKinds{
    {{RoutingKind::Ecmp, "ecmp", "every switch hashes the flow's header onto a member of its equal-cost group"},
     {RoutingKind::Static, "static", "per-destination tables (listed routes, dst-mod or balanced)"},
     {RoutingKind::Adaptive, "adaptive",
      "switches place each flow, in flow order, by the load already placed (see `adaptive`)"},
     {RoutingKind::Spray, "spray",
      "every switch splits each flow's packets over all members of its equal-cost group, in proportion to their "
      "WCMP weights (per-packet spraying as a fluid)"}}};

// How an adaptive switch judges a member (sim/routing/adaptive.h). Load is
// bytes placed so far divided by the link's speed; ties go to the lowest
// member index of the equal-cost group.
enum class AdaptiveMode : std::uint8_t { Local, Global };
inline constexpr std::array<Named<AdaptiveMode>, 2> kAdaptiveModes{
    {{AdaptiveMode::Local, "local",
      "each switch sends each flow, in flow order, on the member of its group with the least load placed so far "
      "(switch-local dynamic load balancing, as DLB does for long-lived flows)"},
     {AdaptiveMode::Global, "global",
      "each switch sends each flow, in flow order, on the member whose best remaining path to the destination has "
      "the lowest maximum load so far (path-aware load balancing)"}}};

// Where an ECMP scenario's UDP source ports come from: the jobs' own model,
// or a plan computed for the scenario's hashes (sim/routing/port_plan.h).
enum class SportPlan : std::uint8_t { Workload, Planned };
inline constexpr std::array<Named<SportPlan>, 2> kSportPlans{
    {{SportPlan::Workload, "workload", "the jobs' own source-port model"},
     {SportPlan::Planned, "planned",
      "chosen per flow within sport_min..sport_max so that the switches' own hashes spread the flows"}}};

// One static route: on `switch_name`, packets to `prefix/len` (or to the
// endpoint named `dst_host`, a /32 resolved on the fabric) and, when
// src_len > 0, from `src/src_len`, leave towards `next_hop`.
struct StaticRoute {
  std::string switch_name;
  hashing::IpAddr prefix;
  std::uint8_t prefix_len = 32;  // bits of the prefix's family (0..32 or 0..128)
  std::string dst_host;  // set instead of prefix when the route names the destination host
  hashing::IpAddr src;
  std::uint8_t src_len = 0;
  std::string next_hop;
  SourcePos where;  // for errors that surface when the table is compiled
};

// A CSV route table: rows carry line numbers, the file name is kept once.
struct RouteFile {
  std::string path;
  std::vector<StaticRoute> rows;  // where.file empty, where.line set
};

enum class StaticPolicy : std::uint8_t {
  Table,     // only the routes listed
  DstMod,    // generated: destination endpoint i takes member i mod n of the equal-cost set
  Balanced,  // generated for the workload: greedy min of the most-loaded link (sim/routing/balanced.h)
};
inline constexpr std::array<Named<StaticPolicy>, 3> kStaticPolicies{
    {{StaticPolicy::Table, "table", "only the listed routes"},
     {StaticPolicy::DstMod, "dst-mod",
      "generated dst-mod table: at every switch, destination endpoint i takes member i mod n of its equal-cost set"},
     {StaticPolicy::Balanced, "balanced",
      "generated balanced table: computed for this workload, destinations by decreasing bytes, each switch "
      "sending them on the member that keeps the most-loaded link lowest (greedy)"}}};

struct ScenarioSpec {
  std::string name;
  std::string base;  // the scenario this one was derived from ("" if none)
  RoutingKind routing = RoutingKind::Ecmp;
  HashSpec hash;                         // every switch
  std::vector<HashOverride> hash_tiers;  // per tier, then per switch (later wins)
  std::vector<HashOverride> hash_switches;
  StaticPolicy policy = StaticPolicy::Table;
  std::vector<StaticRoute> routes;  // consulted before the policy when both are given
  std::shared_ptr<const RouteFile> routes_file;  // routes_file = "x.csv", after `routes`
  std::vector<LinkRef> down;         // failed cables and switches
  std::vector<LinkWeight> weights;   // WCMP weights, over the fabric's
  AdaptiveMode adaptive = AdaptiveMode::Local;  // routing = "adaptive" only
  SportPlan sports = SportPlan::Workload;       // routing = "ecmp" only
  // The planned ports' range, within 0xC000..0xFFFF: the only ports the
  // kernel derives from a flow label (rdma_flow_label_to_udp_sport).
  std::uint32_t sport_min = 49152;
  std::uint32_t sport_max = 65535;
  // Where `sports` and the range (sport_max, else sport_min) were set, for
  // errors the planner finds on the fabric; empty when not in a file.
  SourcePos sports_at, sport_range_at;
  SourcePos where;                   // its [[scenario]] table, for errors found once routed
};

// One job: a collective on a set of nodes, with its NCCL and NIC settings.
struct JobSpec {
  std::string name;  // default "jobI" for the I-th job
  workloads::Collective collective = workloads::Collective::RingAllReduce;
  std::uint32_t nodes = 0;  // 0 = every node no earlier job took
  workloads::Placement placement = workloads::Placement::Contiguous;
  std::vector<std::string> hosts;  // placement "list": node names in rank order
  std::uint64_t seed = 0;          // random placement, QP numbers and source ports
  Bytes message{1ULL << 30};
  std::uint32_t channels = 4;
  std::uint32_t search_channels = 0;  // 0 = ceil(channels/2)
  std::uint32_t qps_per_connection = 1;
  std::uint8_t cross_nic = 2;
  workloads::CrossNicOutcome ring_cross_nic = workloads::CrossNicOutcome::Auto;
  bool pxn = true;
  std::uint32_t peer_offset = 1;
  workloads::RoceParams roce;
  workloads::NcclSizes nccl;  // the size table (`sizes`, `nccl_algo`, ...); off by default
  SourcePos where, nodes_at, hosts_at;  // for errors found once the fabric is built
};

// A half-open range of integers first, first + step, ... below `end`.
struct UintRange {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
  std::uint64_t step = 1;
  std::uint64_t size() const noexcept { return end > first ? (end - first + step - 1) / step : 0; }
  std::uint64_t at(std::uint64_t i) const noexcept { return first + i * step; }
};

// The axes of `ecmpsim sweep`, from the config's [sweep] section (flags override).
// An absent axis keeps the config's own value.
struct SweepSpec {
  std::optional<UintRange> seeds;
  SeedMode seed_mode = SeedMode::Same;
  std::optional<UintRange> sport_base;
  std::optional<UintRange> qpn_base;
  std::optional<UintRange> placement_seeds;
  std::vector<std::uint32_t> qps;
  std::vector<std::string> algos;
  std::vector<std::string> scenarios;  // empty: every ECMP scenario, or the first
  SweepMetric metric = SweepMetric::Fim;  // ranks best and worst; the threshold applies to it
  std::optional<double> threshold;
  bool slowdown = true;                   // run the flow model per variant for the predicted slowdown
  std::uint64_t max_variants = 10'000'000;
};

struct Spec {
  std::string source;  // the config file, for messages
  FabricSpec fabric;
  std::vector<JobSpec> jobs;  // at least one after loading
  std::vector<ScenarioSpec> scenarios;
  SweepSpec sweep;
  Limits limits;  // from the command line (sim/base/limits.h), not the config
};

}  // namespace ecmpsim
