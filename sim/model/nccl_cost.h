// NCCL's tuner as arithmetic: time(size) = latency(algorithm, protocol, steps)
// + size / bandwidth(algorithm, protocol), with the constants of the release
// the job names (sim/model/nccl_tuning.h: tuning.cc from 2.18.1 to 2.30.7)
// and the GPU's architecture row. The one difference from NCCL: the network
// bandwidth the protocols scale is not a nominal link speed but what the
// routed fabric gives the job's traffic (sim/model/size_table.h). The
// formulas and their history: docs/prediction.md, "Time per message size".
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>

#include "workloads/generators/nccl_version.h"
#include "workloads/nccl.h"

namespace ecmpsim {

// The collectives NCCL's tuner prices, in its ncclFunc order, then the
// point-to-point ones it schedules without an algorithm (priced by
// nccl_p2p_time_us).
enum class NcclColl : std::uint8_t { Broadcast, Reduce, AllGather, ReduceScatter, AllReduce, SendRecv, AllToAll };

constexpr bool nccl_p2p(NcclColl c) noexcept { return c == NcclColl::SendRecv || c == NcclColl::AllToAll; }

// What the hosts add to the fabric (issue 32 item 3; defaults and sources in
// docs/prediction.md, "Hosts"): the intra-node link (its hwLat row and the
// cap its hops put on busBw), NCCL's netOverhead (x86 Intel 1.0 us, AMD 2.0)
// and the network plugin's latencyInter (NCCL's IB plugin leaves it 0).
struct NcclHost {
  workloads::IntraLink intra = workloads::IntraLink::NVLink;
  double intra_busbw = workloads::kIntraLinks[0].busbw;  // GB/s; +inf: no cap
  double net_overhead_us = 1.0;
  double net_latency_us = 0;
  bool amd_cpu = false;  // llMaxBws' row across nodes (AMD: 1, else 0)
  bool x86 = true;       // 2.29's NVLSTree correction is for x86 hosts only
};

// What a named GPU adds (`[hosts] gpu`): its architecture row, the algorithms
// NCCL offers on it and their graphs, and the network each algorithm's own
// traffic gets. Absent, the model is the one without a GPU: Hopper's rows,
// Ring and Tree, both on the job's own routed flows.
struct NcclHardware {
  std::uint16_t sm = 90;           // minCompCap
  bool nvswitch = true;            // CollNetDirect needs one
  bool nvls = false;               // NVLS support and NCCL_NVLS_ENABLE
  bool collnet = false;            // SHARP ([fabric] sharp) and NCCL_COLLNET_ENABLE
  bool pat = true;                 // NCCL_PAT_ENABLE
  bool ring_pxn = false;           // the ring graph leaves by PXN (typeInter PXN: no LL128 below sm90)
  bool same_channels = false;      // the ring graph's sameChannels (Broadcast/Reduce latency)
  std::uint32_t nvls_channels = 0;  // the NVLS graph's nChannels
  double nvls_bw_intra = 0;         // and its bwIntra, GB/s per channel
  std::uint32_t heads = 1;          // CollNet heads per node (NICs with a GPU)
  // The NICs' aggregate rate each traffic shape gets on the routed fabric
  // (GB/s, the hosts' goodput in), standing for NCCL's nChannels x bwInter:
  // the tree's (Tree, NVLSTree) and SHARP's (CollNet, NVLS across nodes, not
  // hashed). The ring's is NcclComm::net_busbw. +inf: no network.
  double tree_net = std::numeric_limits<double>::infinity();
  double sharp_net = std::numeric_limits<double>::infinity();
};

// What the tuner knows of a communicator besides the fabric.
struct NcclComm {
  NcclColl coll = NcclColl::AllReduce;
  std::uint32_t ranks = 0;            // nRanks
  std::uint32_t nodes = 0;            // nNodes (ppn = ranks / nodes)
  std::uint32_t search_channels = 1;  // the search graph's nChannels (the per-channel caps)
  std::uint32_t channels = 1;         // comm->nChannels (the ring plateau's test)
  // nccl-tests' busbw the network sustains for this job's rings on their
  // routed paths (GB/s): the busBw = nChannels x bwInter NCCL starts from.
  // +inf when no byte crosses the network.
  double net_busbw = 0;
  NcclHost host = {};
  workloads::NcclVersion version = workloads::kDefaultNcclVersion;
  std::optional<NcclHardware> hw = std::nullopt;
};

// The busBw NCCL's ring protocols scale: the network's (already the hosts'
// goodput) capped by the intra-node hops, which every ring step crosses too.
double nccl_busbw(const NcclComm& c) noexcept;

// The same communicator with every network rate scaled by f (the fit's
// nic_efficiency).
NcclComm scaled_network(NcclComm c, double f) noexcept;

// log2i: floor(log2 n), -1 for 0 (NCCL's log2Down).
constexpr int nccl_log2i(std::uint64_t n) noexcept {
  int l = -1;
  for (; n != 0; n >>= 1) ++l;
  return l;
}

constexpr std::size_t algo_index(workloads::NcclAlgo a) noexcept { return static_cast<std::size_t>(a); }
constexpr std::size_t proto_index(workloads::NcclProto p) noexcept { return static_cast<std::size_t>(p); }

// Whether NCCL offers the pair for this communicator: the collective's
// algorithms in the release, the protocols each takes, what the hardware
// supports and NCCL_NVLS_ENABLE, NCCL_COLLNET_ENABLE, NCCL_PAT_ENABLE and
// LL128's default allow.
bool nccl_available(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p) noexcept;

// ncclTopoTuneModel's latency (us), before the size-dependent ring plateau.
double nccl_latency(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p) noexcept;
// ncclTopoTuneModel's algorithm bandwidth (GB/s), before the tree correction.
double nccl_algbw(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p) noexcept;
// ncclTopoGetAlgoTime: lat (x plateau) + nBytes / (1000 x bw (x tree correction)), us.
double nccl_time_us(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p, std::uint64_t bytes) noexcept;

// Send/recv and all-to-all: NCCL has no tuner entry for them (it runs them
// as grouped point-to-point operations with the Simple protocol), so this is
// ecmpsim's model: one network step's latency (baseLat + hwLat[NET] of the
// Ring's Simple row, the plugin's latencyInter twice; within a node the
// intra-node row) plus size at the routed network's algbw (busBw / nccl-tests'
// factor, capped by the intra-node link).
double nccl_p2p_time_us(const NcclComm& c, std::uint64_t bytes) noexcept;

struct NcclChoice {
  workloads::NcclAlgo algo = workloads::NcclAlgo::Ring;
  workloads::NcclProto proto = workloads::NcclProto::Simple;
  double time_us = 0;
};

// The pairs nccl_choose weighs for one communicator, priced once: which are
// available, with their latency and bandwidth, none of which depends on the
// size (it only picks the tree correction and the ring's plateau). A forced
// algorithm or protocol leaves the other pairs out. A fit prices a table's
// every size at each point it tries: pricing the pairs once per point made
// `calibrate` several times faster.
class NcclPrices {
 public:
  explicit NcclPrices(const NcclComm& c, std::optional<workloads::NcclAlgo> algo = std::nullopt,
                      std::optional<workloads::NcclProto> proto = std::nullopt) noexcept;
  // The minimum predicted time over the priced pairs, as NCCL picks (ties:
  // the first in NCCL's algorithm x protocol order); nullopt when none is
  // available.
  std::optional<NcclChoice> choose(std::uint64_t bytes) const noexcept;

 private:
  struct Pair {
    bool priced = false;  // allowed and available
    double latency = 0, algbw = 0;
  };
  NcclComm comm_;
  std::optional<workloads::NcclAlgo> algo_;
  std::optional<workloads::NcclProto> proto_;
  std::array<std::array<Pair, 3>, 7> pairs_{};
};

// NcclPrices(c, algo, proto).choose(bytes): one size.
std::optional<NcclChoice> nccl_choose(const NcclComm& c, std::uint64_t bytes,
                                      std::optional<workloads::NcclAlgo> algo = std::nullopt,
                                      std::optional<workloads::NcclProto> proto = std::nullopt) noexcept;

}  // namespace ecmpsim
