// What NCCL's topology code reads off a node and how its search may spend it,
// by release: the bandwidth NCCL gives an NVLink, a PCIe link and a NIC
// (src/graph/topo.h, topo.cc), the speeds its search tries (search.cc's speed
// arrays), the channel limits (MAXCHANNELS, device.h) and how many channels
// a communicator runs after the search (connect.cc's ncclTopoPostset). Each
// row names the release it was read from; the search that spends these
// numbers is nccl_search.h, and docs/prediction.md ("Channels from the
// hardware") is the page.
#pragma once

#include <cstdint>
#include <span>

#include "workloads/generators/nccl_version.h"

namespace ecmpsim::workloads {

// topo.h's SM<nn>_NVLINK_BW, GB/s per NVLink, as ncclTopoNVLinkBw picks it:
// sm100 from 2.25 (40.0; 40.1 from 2.27; before 2.25 sm100 takes SM90's),
// sm90 20.0 (20.6 from 2.20), sm86 12, sm80/sm70 20, sm60 18.
double nccl_nvlink_bw(std::uint16_t sm, NcclVersion v) noexcept;

// topo.cc: a PCIe link of `width` lanes at generation `gen` carries
// width x speed / 80 GB/s, speed (x100 Mb/s per lane) Gen1 15, Gen2 30,
// Gen3 60, Gen4 120, Gen5 240, Gen6 480 (kvDictPciGen; 60 its fallback, here
// gen 0): x16 gives 3, 6, 12, 24, 48, 96.
double nccl_pcie_bw(std::uint8_t gen, std::uint32_t width = 16) noexcept;

// topo.cc: a NET's bandwidth is its speed (Mb/s) / 8000, GB/s.
constexpr double nccl_net_bw(double gbps) noexcept { return gbps * 1000.0 / 8000.0; }

// search.cc: the speeds (GB/s per channel) ncclTopoCompute tries, highest
// first: with NICs (`inter`) or within one node, by the minimum sm of the
// node (sm100 arrays from 2.25; sm90 arrays' 22 from 2.19 and 11 from 2.21).
std::span<const double> nccl_speeds(std::uint16_t sm, NcclVersion v, bool inter) noexcept;

// device.h's MAXCHANNELS: 32 up to 2.24, 64 from 2.25. The ring search
// looks for up to MAXCHANNELS / 2 channels (init.cc).
std::uint32_t nccl_max_channels(NcclVersion v) noexcept;

// connect.cc, ncclTopoPostset: the search's P channels are doubled (up to
// MAXCHANNELS), and doubled again across nodes when the ring runs at more
// than 45 GB/s per channel on Hopper (sm == 90 before 2.25, sm >= 90 from
// 2.25) while fewer than 16 channels run (2.21 on; 2.18-2.20: while 2P fits
// MAXCHANNELS); `why` names the steps taken.
struct PostsetChannels {
  std::uint32_t channels = 0;
  bool doubled = false;
  bool hopper_doubled = false;
};
PostsetChannels nccl_postset_channels(std::uint32_t search_channels, double ring_bw_intra, std::uint16_t sm,
                                      std::uint32_t nodes, NcclVersion v) noexcept;

}  // namespace ecmpsim::workloads
