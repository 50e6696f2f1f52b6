// The inner loop of `ecmpsim sweep`: the flows of one workload re-routed under
// one variant's hash seeds, on flat arrays, without allocation.
//
// What a variant changes decides what is recomputed. Key bytes depend only on
// the flow and the switch's key layout, so they are packed once per workload.
// Switches that would compute the same hash value for a flow (same key layout,
// algorithm, bit window and seed) form a hash class; a flow is hashed once per
// class, not once per hop. For seed-affine algorithms (CRCs and XOR folds,
// where h(key, seed) = h(key, 0) XOR h(zeros, seed) XOR h(zeros, 0) for keys
// of one length) h(key, 0) is computed once per workload and a seed costs one
// XOR per flow and class. A key with a per-hop field (in-port, MACs) is packed
// at every hop from the Hop the routing step reads, as the trace packs it.
//
// Adaptive scenarios and planned source ports do not fit that loop (the first
// places flows by load, the second plans ports for each variant's hashes):
// their variants take the library's own route (plan_ports, route_and_count),
// which allocates, and give the same values as `ecmpsim run`.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "hashing/toeplitz.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/next_link.h"
#include "sim/model/flow_model.h"
#include "sim/model/nccl_cost.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/model/trace.h"
#include "sim/config/sweep_metric.h"

namespace ecmpsim {

// The routing of one scenario (with its algorithm), compiled; read-only and
// shared by all threads. With `seed_axis`, switch seeds come from each
// variant's seed through `mode`; otherwise from the scenario's own hash.
// With `slowdown`, every variant also runs the flow model, and the jobs that
// ask for sizes are priced per message size (the busbw_at metric at
// `busbw_at`, 0 for each job's largest size, and busbw_avg).
class SweepPlan {
 public:
  SweepPlan(const Simulation& base, const ScenarioSpec& scenario, bool seed_axis, SeedMode mode, bool slowdown,
            Bytes busbw_at = {});

  // A job priced per message size: the routed fabric gives its network
  // busbw once per variant (as `run`'s size table: its flows' completion, or
  // its channels' lockstep solve), and each size is NCCL's arithmetic on it.
  struct SizedJob {
    std::uint32_t job = 0;
    NcclComm comm;               // net_busbw set per variant
    workloads::NcclSizes how;    // forced algorithm, protocol; coupling
    std::vector<Bytes> sizes;    // the job's sweep, for busbw_avg
    Bytes at;                    // busbw_at's size
    double goodput = 1;          // the hosts' share of line rate (host_goodput)
  };
  std::span<const SizedJob> sized() const noexcept { return sized_; }

  struct KeyConfig {
    hashing::KeyLayout layout;
    std::vector<hashing::Field> fields;
    bool per_hop = false;  // the key changes per hop (in-port, MACs)
  };
  struct HashClass {
    std::uint32_t key_config = 0;
    const hashing::Algorithm* algo = nullptr;
    hashing::SeedAs seed_as = hashing::SeedAs::Register;
    std::uint32_t offset = 0;
    std::uint32_t rep_switch = 0;  // a member switch: its tier and index derive the seed
    std::uint32_t fixed_seed = 0;  // without a seed axis
    std::uint32_t base = 0;        // index of the (key config, algorithm, seed_as), for h(key, 0)
    bool affine = false;
    std::optional<hashing::RssKey> rss_key;  // toeplitz with a key of its own
  };

  const Simulation& base() const noexcept { return *base_; }
  const Forwarding& forwarding() const noexcept { return fwd_; }
  bool seed_axis() const noexcept { return seed_axis_; }
  // Adaptive or planned-port routing: variants go through route_and_count.
  bool general() const noexcept { return general_; }
  bool slowdown() const noexcept { return slowdown_; }
  SeedMode mode() const noexcept { return mode_; }
  std::span<const KeyConfig> key_configs() const noexcept { return key_configs_; }
  std::span<const HashClass> classes() const noexcept { return classes_; }
  std::size_t bases() const noexcept { return bases_; }

 private:
  friend class SweepWorker;
  const Simulation* base_;
  ScenarioSpec scenario_;
  std::shared_ptr<const EqualCostSets> sets_;  // with the scenario's failures
  Forwarding fwd_;
  std::vector<LinkId> metric_links_;          // the working ones
  std::vector<Gbps> capacity_;                // per link; 0 when down in the scenario
  bool seed_axis_;
  bool general_;
  bool slowdown_;
  SeedMode mode_;
  std::vector<KeyConfig> key_configs_;
  std::vector<HashClass> classes_;
  std::size_t bases_ = 0;
  std::vector<std::uint32_t> sw_class_;      // per switch
  std::vector<std::uint32_t> sw_tier_;       // per switch
  std::vector<SizedJob> sized_;
  bool lockstep_ = false;                    // a sized job takes the channels' lockstep solve
};

// One thread's state: a workload's flows bound to a plan, and every buffer a
// variant needs. load() allocates; evaluate() does not once the first
// variant of a workload has sized the path and flow-model buffers.
class SweepWorker {
 public:
  void load(const SweepPlan& plan, workloads::Flows flows);
  // Routes every flow with the switch seeds `seed` gives (ignored without a
  // seed axis) and writes the variant's row (sim/sweep/value_table.h: the
  // metrics, then each job's busbw); the slowdown and busbw are 0 when the
  // plan does not predict them.
  void evaluate(std::uint32_t seed, std::span<double> row);
  // Switch forwarding decisions made by evaluate() so far.
  std::uint64_t decisions() const noexcept { return decisions_; }
  const workloads::Flows& flows() const noexcept { return flows_; }

 private:
  std::uint64_t hash(std::uint32_t c, std::uint32_t f, const Hop& hop) const;
  // A port-channel member or bond choice: the LAG (or bond) hash of switch
  // sw, its seed the variant's unless [scenario.hash.lag] sets its own.
  std::uint64_t member_hash(std::uint32_t sw, std::uint32_t f, const Hop& hop, HashRole role) const;
  // Counts every flow's links into counts_ and, with Record, its path into path_links_.
  template <bool Record>
  std::uint64_t route();
  // A general plan's variant: counts and paths from route_and_count.
  std::uint64_t route_general(std::uint32_t seed);
  // The slowdown of all flows; each job's busbw into `busbw`.
  double predict(std::span<double> busbw);
  // The busbw_at and busbw_avg metrics of the sized jobs, after predict().
  void price_sizes(std::span<double> row);
  struct Priced {
    double net_busbw = -1;  // the key: a variant's net busbw (NaN never occurs: t >= 0)
    double at = 0, avg = 0;
  };
  // busbw_at and busbw_avg of sized job k at `net_busbw`: NCCL's arithmetic,
  // memoized, since a seed sweep's max-min rates take few distinct values.
  const Priced& priced(std::size_t k, double net_busbw);

  const SweepPlan* plan_ = nullptr;
  workloads::Flows flows_;
  std::vector<FlowEnds> ends_;
  std::vector<std::vector<std::uint8_t>> keys_;     // per key config: flows x kMaxKeyBytes
  std::vector<std::vector<std::uint8_t>> key_len_;  // per key config, per flow
  std::vector<std::uint8_t> uniform_len_;           // per key config: all flows' keys have one length
  std::vector<std::vector<std::uint64_t>> base0_;   // per base: h(key, 0) per flow
  std::vector<std::uint8_t> class_affine_;
  std::vector<std::uint64_t> class_z0_, class_d_;   // h(zeros, 0); h(zeros, seed) ^ h(zeros, 0)
  std::vector<std::uint32_t> class_seed_;
  std::optional<std::uint32_t> variant_seed_;  // the seed axis's value being evaluated
  std::vector<std::uint64_t> cache_stamp_, cache_val_;
  std::uint64_t stamp_ = 0;
  std::vector<std::uint32_t> counts_;
  std::vector<double> load_;
  std::vector<std::uint32_t> path_begin_;  // per flow + 1, into path_links_
  std::vector<LinkId> path_links_;
  Trace trace_;                            // general plans only
  Seconds ideal_;                          // of this workload's flows
  FlowModel model_;
  FlowTimes times_;
  std::vector<Seconds> job_completion_;
  LockstepSolver lockstep_;                   // this workload's channels (lockstep sized jobs only)
  std::vector<std::array<Priced, 64>> memo_;  // per sized job, direct-mapped by net busbw
  std::uint64_t decisions_ = 0;
};

}  // namespace ecmpsim
