// NCCL's tuner as arithmetic: time(size) = latency(algorithm, protocol, steps)
// + size / bandwidth(algorithm, protocol), with NCCL's own constants
// (src/graph/tuning.cc of NCCL 2.23.4-1, commit 68b5423, 2024-09; the table
// and its history: docs/prediction.md, "Time per message size"). The one
// difference from NCCL: the network bandwidth the protocols scale is not a
// nominal link speed but what the routed fabric gives the job's channels
// (sim/model/size_table.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "workloads/nccl.h"

namespace ecmpsim {

// The collectives NCCL's tuner prices here (nsteps, nInterSteps differ).
enum class NcclColl : std::uint8_t { AllReduce, AllGather, ReduceScatter };

// NCCL 2.23.4 tuning.cc constants, indexed [algorithm Tree, Ring][protocol LL, LL128, Simple].
// The GPU rows are Hopper's (sm90); the host's own figures (intra-node link,
// netOverhead, latencyInter, bandwidth caps) are NcclHost's.
struct NcclTuning {
  double base_lat[2][3];     // baseLat, us
  double nvlink_lat[2][3];   // hwLat[NCCL_HW_NVLINK], us
  double pci_lat[2][3];      // hwLat[NCCL_HW_PCI], us
  double net_lat[2][3];      // hwLat[NCCL_HW_NET], us
  double ring_plateau;       // Ring Simple AllReduce latency factor, minCompCap >= 80
  double ll_max_bw[3];       // llMaxBws row Intel (multi-node) / Hopper for 1 node: [N1, N2, N>2], GB/s
  double ll_max_bw_1node;    // llMaxBws[Hopper][N1]
  double ring_ll128_per_ch;  // perChMaxRingLL128Bws[Hopper], GB/s per channel
  double tree_ll128_per_ch[3];  // perChMaxTreeLL128Bws[Hopper][N1, N2, N>2]
  double tree_per_ch[3];        // perChMaxTreeBws[Hopper][N1, N2, N>2]
  // treeCorrectionFactor[LL, LL128, Simple][log2(nBytes / 64)], 64 B .. 256 MiB
  std::array<std::array<double, 23>, 3> tree_correction;
};

inline constexpr NcclTuning kNccl2_23{
    {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}},
    {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}},
    {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}},
    {{5.0, 8.5, 14.0}, {2.7, 4.0, 14.0}},
    1.4,
    {39.0, 39.0, 20.4},
    141.0,
    36.7,
    {36.7, 36.7, 29.0},
    {38.7, 41.4, 36.0},
    {{{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
      {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}}}};

// What the hosts add to the fabric (issue 32 item 3; defaults and sources in
// docs/prediction.md, "Hosts"): the intra-node link (its hwLat row and the
// cap its hops put on busBw), NCCL's netOverhead (x86 Intel 1.0 us, AMD 2.0)
// and the network plugin's latencyInter (NCCL's IB plugin leaves it 0).
struct NcclHost {
  workloads::IntraLink intra = workloads::IntraLink::NVLink;
  double intra_busbw = workloads::kIntraLinks[0].busbw;  // GB/s; +inf: no cap
  double net_overhead_us = 1.0;
  double net_latency_us = 0;
};

// What the tuner knows of a communicator besides the fabric.
struct NcclComm {
  NcclColl coll = NcclColl::AllReduce;
  std::uint32_t ranks = 0;            // nRanks
  std::uint32_t nodes = 0;            // nNodes (ppn = ranks / nodes)
  std::uint32_t search_channels = 1;  // the search graph's nChannels (the per-channel caps)
  std::uint32_t channels = 1;         // comm->nChannels (the ring plateau's test)
  // nccl-tests' busbw the network sustains for this job on its routed paths
  // (GB/s): the busBw = nChannels x bwInter NCCL starts from. +inf when no byte
  // crosses the network.
  double net_busbw = 0;
  NcclHost host = {};
};

// The busBw NCCL's protocols scale: the network's (already the hosts'
// goodput) capped by the intra-node hops, which every ring step crosses too.
double nccl_busbw(const NcclComm& c) noexcept;

// log2i: floor(log2 n), -1 for 0 (NCCL's log2Down).
constexpr int nccl_log2i(std::uint64_t n) noexcept {
  int l = -1;
  for (; n != 0; n >>= 1) ++l;
  return l;
}

constexpr std::size_t algo_index(workloads::NcclAlgo a) noexcept { return static_cast<std::size_t>(a); }
constexpr std::size_t proto_index(workloads::NcclProto p) noexcept { return static_cast<std::size_t>(p); }

// Whether NCCL offers the pair for the collective: Tree only for AllReduce
// (PAT, NVLS and CollNet are not modeled).
constexpr bool nccl_supported(NcclColl c, workloads::NcclAlgo a) noexcept {
  return a == workloads::NcclAlgo::Ring || c == NcclColl::AllReduce;
}

// ncclTopoTuneModel's latency (us), before the size-dependent ring plateau.
double nccl_latency(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p,
                    const NcclTuning& t = kNccl2_23) noexcept;
// ncclTopoTuneModel's algorithm bandwidth (GB/s), before the tree correction.
double nccl_algbw(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p,
                  const NcclTuning& t = kNccl2_23) noexcept;
// ncclTopoGetAlgoTime: lat (x plateau) + nBytes / (1000 x bw (x tree correction)), us.
double nccl_time_us(const NcclComm& c, workloads::NcclAlgo a, workloads::NcclProto p, std::uint64_t bytes,
                    const NcclTuning& t = kNccl2_23) noexcept;

struct NcclChoice {
  workloads::NcclAlgo algo = workloads::NcclAlgo::Ring;
  workloads::NcclProto proto = workloads::NcclProto::Simple;
  double time_us = 0;
};

// The minimum predicted time over the supported pairs, as NCCL picks
// (ties: the first in Tree, Ring x LL, LL128, Simple order, NCCL's loop
// order); a forced algorithm or protocol restricts the choice. nullopt
// when the forced algorithm does not run the collective.
std::optional<NcclChoice> nccl_choose(const NcclComm& c, std::uint64_t bytes,
                                      std::optional<workloads::NcclAlgo> algo = std::nullopt,
                                      std::optional<workloads::NcclProto> proto = std::nullopt,
                                      const NcclTuning& t = kNccl2_23) noexcept;

}  // namespace ecmpsim
