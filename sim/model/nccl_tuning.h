// NCCL's tuner constants by release (src/graph/tuning.cc), one row per range
// of releases whose constants and formulas agree, each read at the tag it
// names: the latencies (baseLat, hwLat for NVLink, PCI and NET) of every
// algorithm and protocol, the per-architecture bandwidth caps (Volta,
// Ampere, Hopper, Blackwell rows), NVLS's efficiency, and which variant of a
// formula the release uses. sim/model/nccl_cost.cpp evaluates them; the
// table with its history is docs/prediction.md, "NCCL's tuner by release".
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "workloads/generators/nccl_version.h"

namespace ecmpsim {

// Latencies (us) per [algorithm][protocol], algorithms in NCCL's order
// Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT; protocols
// LL, LL128, Simple.
using NcclLatencies = std::array<std::array<double, 3>, 7>;
// Caps (GB/s) per [architecture row][N1, N2, N>2]; for llMaxBws the rows
// are Volta (or, across nodes, an Intel host), Ampere (AMD host), Hopper,
// Blackwell.
using NcclCaps = std::array<std::array<double, 3>, 4>;

// How a release computes NVLS and NVLSTree's bandwidth.
enum class NvlsModel : std::uint8_t {
  Graph2181,    // 2.18.1: as Graph218 but NVLS's ratio .75
  Graph218,     // 2.18.3: nChannels x bw of the graph; ratio 5/6 (NVLSTree .70 N / (2(N-1)))
  Min219,       // 2.19-2.26: min(bwIntra, bwInter) (NVLSTree: bwInter/2 beyond 2 nodes); ratio 5/6
  AgRs227,      // 2.27: as 2.19, but AllGather/ReduceScatter min(bwIntra (ppn-1)/ppn, 0.9 bwInter)
  Efficiency,   // 2.28 on: bwIntra x nvlsEfficiency x (nCh-1)/nCh (x2 AllReduce), ratio nRanks/nsteps
};

// 2.18's NVLS: busBw from the graph, NVLS's own base latency.
constexpr bool nvls_from_graph(NvlsModel m) noexcept { return m == NvlsModel::Graph2181 || m == NvlsModel::Graph218; }

struct NcclTuningRow {
  workloads::NcclVersion from;
  std::string_view tag;  // the release the row was read from
  NcclLatencies base;    // baseLat
  NcclLatencies nvlink;  // hwLat[NCCL_HW_NVLINK]
  NcclLatencies pci;     // hwLat[NCCL_HW_PCI]
  NcclLatencies net;     // hwLat[NCCL_HW_NET]
  NcclCaps ll_max;       // llMaxBws
  NcclCaps ring_ll128;   // perChMaxRingLL128Bws
  NcclCaps tree_ll128;   // perChMaxTreeLL128Bws
  NcclCaps tree;         // perChMaxTreeBws
  NcclCaps nvls_tree;    // perChMaxNVLSTreeBws (2.28 on; 0: no cap)
  std::array<double, 4> nvls_eff;  // nvlsEfficiency (2.28 on)
  bool ring_ll_half;      // Ring LL x 0.5 (2.21 on); before x 1/4 across nodes or for AllReduce, else 1/3
  bool ll128_ppn;         // Ring LL128 x 0.7 with one GPU per node (up to 2.22), else 0.92
  bool inter_steps_2n;    // AllReduce ring nInterSteps 2 nNodes (up to 2.22), else 2 (nNodes - 1)
  bool ppn1_tree_net;     // with one GPU per node the NET latency is the Tree row's (2.23 on)
  double pat_factor;      // PAT busBw factor; 0: no PAT (before 2.23)
  NvlsModel nvls;
  bool collnet_agrs;      // CollNetDirect prices AllGather/ReduceScatter (2.20 on)
  bool ll128_sm100;       // LL128 on by default on sm100 and sm120 (2.25 and 2.26)
  bool ll128_any;         // LL128 on by default on any sm >= 70 (2.27 on); before sm70, sm80, sm90 only
  bool nvlstree_correction;  // NVLSTree AllReduce takes the tree correction on Blackwell x86 (2.29 on)
};

// The rows, oldest first; 2.18.1 is the first release modelled.
extern const std::array<NcclTuningRow, 15> kNcclTuning;

// The row of release v: the last starting at or before it; nullptr before 2.18.1.
const NcclTuningRow* nccl_tuning(workloads::NcclVersion v) noexcept;

// treeCorrectionFactor[protocol][log2(nBytes / 64)], 64 B .. 256 MiB (the
// 24th entry, 512 MiB, from 2.29 for NVLSTree).
extern const std::array<std::array<double, 24>, 3> kNcclTreeCorrection;

}  // namespace ecmpsim
