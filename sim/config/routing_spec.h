// The routing stage's vocabulary as the config gives it: a scenario (its
// routing mode, hashes, static routes, adaptive mode, port plan, failures and
// weights) and the enums and tables that name its values. Plain validated
// data that sim/routing compiles into forwarding. It lives in sim/config, not
// sim/routing, because the config reader parses it and config sits below
// routing; a file that needs only these includes this header, not the whole
// Spec (spec.h).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hashing/address.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "hashing/select.h"
#include "hashing/toeplitz.h"
#include "sim/base/error.h"
#include "sim/base/named.h"
#include "sim/config/fabric_spec.h"
#include "sim/config/routing_kind.h"

namespace ecmpsim {

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
  // Where the seed enters (hashing/seed_as.h); when the table does not say,
  // the convention of the vocabulary `algo` is named in (hashing/vocabulary.h).
  hashing::SeedAs seed_as = hashing::SeedAs::Register;
  std::uint32_t offset = 0;  // rotate right by this many bits before selection
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 128;  // resilient selection only
  std::optional<hashing::RssKey> rss_key;  // toeplitz only: a key other than the standard RSS key
};

// Keys of HashSpec as bits, for overrides that set only some of them.
enum HashKey : std::uint32_t {
  kHashAlgo = 1, kHashFields = 2, kHashSeed = 4, kHashOffset = 8, kHashSelect = 16, kHashBuckets = 32,
  kHashSeedMode = 64, kHashRssKey = 128, kHashSeedAs = 256
};
// Each bit's config key, in the order outputs list them.
inline constexpr std::array<Named<HashKey>, 9> kHashKeys{{{kHashAlgo, "algo"},
                                                          {kHashFields, "fields"},
                                                          {kHashSeed, "seed"},
                                                          {kHashSeedMode, "seed_mode"},
                                                          {kHashSeedAs, "seed_as"},
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

// A host bond's hash unless [scenario.hash.bond] says otherwise: Linux
// bonding's layer3+4 policy (hashing/bonding.h), its own modulo.
inline HashSpec bond_hash_default() {
  HashSpec h;
  h.algo = "linux-bond-l34";
  return h;
}

// The keys `o` sets, written over `to` (a switch's hash, or an earlier
// override of the same tier or switch that `o` refines).
inline void apply_override(HashSpec& to, const HashOverride& o) {
  if (o.keys & kHashAlgo) to.algo = o.values.algo;
  if (o.keys & kHashFields) to.fields = o.values.fields;
  if (o.keys & kHashSeed) to.seed = o.values.seed;
  if (o.keys & kHashSeedMode) to.seed_mode = o.values.seed_mode;
  // An algorithm brings its vocabulary's seed convention unless seed_as is given.
  if (o.keys & (kHashAlgo | kHashSeedAs)) to.seed_as = o.values.seed_as;
  if (o.keys & kHashOffset) to.offset = o.values.offset;
  if (o.keys & kHashSelect) to.select = o.values.select;
  if (o.keys & kHashBuckets) to.buckets = o.values.buckets;
  if (o.keys & kHashRssKey) to.rss_key = o.values.rss_key;
}

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
  // [scenario.hash.lag]: what a switch's port-channel member choice changes
  // from its own ECMP hash (keys unset: the same; SONiC writes one seed to
  // both, sonic-buildimage dockers/docker-orchagent/switch.json.j2).
  HashOverride lag_hash;
  // [scenario.hash.bond]: a host bond's hash, over kBondHash (Linux bonding,
  // xmit_hash_policy=layer3+4).
  HashOverride bond_hash;
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

// Whether the scenario's ports are planned for its hashes (sim/routing/port_plan.h).
inline bool plans_ports(const ScenarioSpec& s) noexcept {
  return routing_mode(s.routing).plans_ports && s.sports == SportPlan::Planned;
}

}  // namespace ecmpsim
