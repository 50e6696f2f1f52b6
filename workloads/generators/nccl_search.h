// NCCL's topology search (src/graph/search.cc, ncclTopoCompute) on one
// node: how many channels its ring and tree graphs find, at what bandwidth
// per channel, and how many channels the communicator then runs
// (connect.cc). The node is described the way NCCL sees it: GPUs joined by
// NVLink through NVSwitch (or by PCIe only), NICs on the PCIe switches of the
// GPUs the locality map names, a bandwidth for every link. The search spends
// those links' bandwidth channel by channel, as NCCL's does; see
// docs/prediction.md, "Channels from the hardware", for what is modelled and
// what is not.
#pragma once

#include <cstdint>
#include <string>

#include "workloads/generators/locality.h"
#include "workloads/generators/nccl_version.h"

namespace ecmpsim::workloads {

// One node as ncclTopoCompute sees it (topo.cc's links, in GB/s).
struct NcclNode {
  std::uint32_t gpus = 1;
  std::uint32_t nics = 1;
  GpuNicMap gpu_nics;       // which NICs share a PCIe switch with which GPU; empty: rail-aligned
  std::uint16_t sm = 90;    // the node's (minimum) compute capability
  double nvlink_bw = 0;     // a GPU's NVLinks to the NVSwitch: links x nccl_nvlink_bw; 0: PCIe only
  double gpu_pcie_bw = 48;  // a GPU's PCIe link
  double nic_pcie_bw = 48;  // a NIC's PCIe link
  double net_bw = 50;       // a NIC: speed / 8000
  bool pxn = true;          // NCCL_PXN_DISABLE=0: a GPU may reach a NIC through the NIC's GPU over NVLink
};

// The NCCL_* settings the search and the channel count read.
struct NcclSearchEnv {
  std::uint8_t cross_nic = 2;      // NCCL_CROSS_NIC
  std::uint32_t min_channels = 0;  // NCCL_MIN_NCHANNELS; 0: unset
  std::uint32_t max_channels = 0;  // NCCL_MAX_NCHANNELS; 0: unset
};

// A graph as ncclTopoPrintGraph states it ("Pattern 4, crossNic 0,
// nChannels 8, bw 48.0/48.0, type NVL/PXN").
struct NcclGraph {
  std::uint32_t channels = 0;
  double bw_intra = 0;
  double bw_inter = 0;
  std::uint8_t cross_nic = 0;
  bool pxn = false;  // typeInter PXN: some channel leaves by a NIC through another GPU
  friend bool operator==(const NcclGraph&, const NcclGraph&) = default;
};

struct NcclChannels {
  NcclGraph ring;            // before ncclTopoDupChannels: what the tuner's caps count
  NcclGraph tree;            // the tree graph; across two nodes its bw_intra may exceed bw_inter
  NcclGraph nvls;            // channels 0: no NVLS graph (no NVSwitch, or sm < 90)
  std::uint32_t search = 0;  // the search channels after ncclTopoDupChannels (what rings repeat)
  double search_bw = 0;      // GB/s per search channel (the ring graph's bwInter in the end)
  std::uint32_t channels = 0;  // comm->nChannels after ncclTopoPostset and NCCL_MIN/MAX_NCHANNELS
  double nic_gbps = 0;       // the NICs' line rate the search was given
  std::string reason;        // one line: "16 channels: 8 search channels of 400 Gb/s NICs at 48 GB/s, doubled"
};

// The ring, tree and NVLS graphs of `node` and the channels a communicator
// of `nodes` such nodes runs under release `v` and `env`. `nic_gbps` (the
// NICs' line rate) only words the reason.
NcclChannels nccl_channels(const NcclNode& node, std::uint32_t nodes, NcclVersion v, const NcclSearchEnv& env,
                           double nic_gbps);

}  // namespace ecmpsim::workloads
