// The validated description of one experiment: the immutable aggregate of
// every stage's vocabulary (fabric_spec.h, routing_spec.h) with the jobs and
// the sweep's axes. Plain data: nothing here reads TOML or knows the command
// line; tests build a Spec in code. A file that needs one stage's types
// includes that stage's header instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/limits.h"
#include "sim/base/units.h"
#include "sim/config/fabric_spec.h"
#include "sim/config/routing_spec.h"
#include "sim/config/sweep_metric.h"
#include "workloads/generators/collective.h"
#include "workloads/generators/job.h"
#include "workloads/nccl.h"
#include "workloads/generators/placement.h"
#include "workloads/generators/training.h"
#include "workloads/roce.h"

namespace ecmpsim {

// One job: a collective (or a training step's collectives) on a set of
// nodes, with its NCCL and NIC settings.
struct JobSpec {
  std::string name;  // default "jobI" for the I-th job
  workloads::JobKind kind = workloads::JobKind::Collective;
  workloads::TrainingShape training;  // kind = training
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
  workloads::NcclVersion nccl_version = workloads::kDefaultNcclVersion;
  std::uint32_t peer_offset = 1;
  workloads::RoceParams roce;
  workloads::NcclSizes nccl;  // the size table (`sizes`, `nccl_algo`, ...); off by default
  SourcePos where, nodes_at, hosts_at;  // for errors found once the fabric is built
};

// The hosts' side of a collective's time (issue 32 item 3; defaults and
// their sources in docs/prediction.md, "Hosts"): [hosts], with
// [calibration] (the same keys, as `ecmpsim calibrate` writes them) over it.
struct HostSpec {
  workloads::IntraLink intra = workloads::IntraLink::NVLink;
  double intra_busbw = 0;         // GB/s the intra-node hops allow a ring; 0 = the link's row of kIntraLinks
  std::uint32_t roce_mtu = 4096;  // RoCE path MTU (payload bytes per packet)
  double nic_efficiency = 1.0;    // fraction of the RoCEv2 goodput the hosts reach
  double net_overhead_us = 1.0;   // NCCL's netOverhead (x86 Intel 1.0, AMD 2.0)
  double net_latency_us = 0;      // NCCL's latencyInter (the net plugin's NIC latency)
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
  Bytes busbw_at{0};                      // the busbw_at metric's message size; 0: each job's largest
  std::uint64_t max_variants = 10'000'000;
};

struct Spec {
  std::string source;  // the config file, for messages
  FabricSpec fabric;
  std::vector<JobSpec> jobs;  // at least one after loading
  std::vector<ScenarioSpec> scenarios;
  SweepSpec sweep;
  HostSpec hosts;
  Limits limits;  // from the command line (sim/base/limits.h), not the config
};

}  // namespace ecmpsim
