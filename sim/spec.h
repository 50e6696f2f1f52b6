// The validated description of one experiment. Plain data: nothing here reads
// TOML or knows the command line; tests build a Spec in code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/error.h"
#include "sim/units.h"
#include "workloads/collective.h"
#include "workloads/placement.h"
#include "workloads/roce.h"

namespace ecmpsim {

struct LeafSpineSpec {
  std::uint32_t leaves = 4;
  std::uint32_t spines = 4;
  std::uint32_t hosts_per_leaf = 4;
  std::uint32_t links_per_pair = 1;  // parallel links between each leaf and spine
  Gbps host_speed{400};
  Gbps fabric_speed{400};
};

struct FabricSpec {
  LeafSpineSpec leaf_spine;
  std::uint32_t address_base = 0x0A000000;  // 10.0.0.0: ToR t's hosts are base + t*256 + 1..
  std::uint32_t nics_per_node = 1;  // K: NIC endpoints per node (server)
  std::uint32_t gpus_per_node = 1;  // G: GPUs (ranks) per node
};

struct HashSpec {
  std::string algo = "crc16-ccitt";
  std::vector<hashing::Field> fields = hashing::default_fields();
  std::uint32_t seed = 0;
  std::uint32_t offset = 0;  // rotate right by this many bits before selection
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 128;  // resilient selection only
};

enum class RoutingKind : std::uint8_t { Ecmp, Static };

// One static route: on `switch_name`, packets to `prefix/len` leave towards `next_hop`.
struct StaticRoute {
  std::string switch_name;
  std::uint32_t prefix = 0;
  std::uint8_t prefix_len = 32;
  std::string next_hop;
  SourcePos where;  // for errors that surface when the table is compiled
};

enum class StaticPolicy : std::uint8_t {
  Table,   // only the routes listed
  DstMod,  // generated: destination endpoint i takes member i mod n of the equal-cost set
};

struct ScenarioSpec {
  std::string name;
  RoutingKind routing = RoutingKind::Ecmp;
  HashSpec hash;
  StaticPolicy policy = StaticPolicy::Table;
  std::vector<StaticRoute> routes;  // consulted before the policy when both are given
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
  std::uint32_t search_channels = 0;  // 0 = channels/2 when even, else channels
  std::uint32_t qps_per_connection = 1;
  std::uint8_t cross_nic = 2;
  std::uint32_t peer_offset = 1;
  workloads::RoceParams roce;
  SourcePos where, nodes_at, hosts_at;  // for errors found once the fabric is built
};

struct Spec {
  std::string source;  // the config file, for messages
  FabricSpec fabric;
  std::vector<JobSpec> jobs;  // at least one after loading
  std::vector<ScenarioSpec> scenarios;
};

}  // namespace ecmpsim
