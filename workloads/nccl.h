// NCCL's names for what a collective's time per message size depends on:
// its algorithms and protocols (the values NCCL_ALGO and NCCL_PROTO accept)
// and the message sizes of an nccl-tests sweep (-b, -e, -f). Vocabulary only,
// so the config can read it; the cost model is sim/model/nccl_cost.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/base/named.h"

namespace ecmpsim::workloads {

// NCCL's algorithms in its own order (NCCL_ALGO_TREE = 0 .. NCCL_ALGO_PAT = 6),
// named as NCCL_ALGO spells them.
enum class NcclAlgo : std::uint8_t { Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT };
inline constexpr std::array<Named<NcclAlgo>, 7> kNcclAlgos{{{NcclAlgo::Tree, "Tree"},
                                                           {NcclAlgo::Ring, "Ring"},
                                                           {NcclAlgo::CollNetDirect, "CollNetDirect"},
                                                           {NcclAlgo::CollNetChain, "CollNetChain"},
                                                           {NcclAlgo::NVLS, "NVLS"},
                                                           {NcclAlgo::NVLSTree, "NVLSTree"},
                                                           {NcclAlgo::PAT, "PAT"}}};

enum class NcclProto : std::uint8_t { LL, LL128, Simple };
inline constexpr std::array<Named<NcclProto>, 3> kNcclProtos{
    {{NcclProto::LL, "LL"}, {NcclProto::LL128, "LL128"}, {NcclProto::Simple, "Simple"}}};

// How a node's GPUs reach each other for the intra-node ring hops: NCCL's
// typeIntra (NVLink, or PCIe through the host's switches), which picks its
// hwLat row (sim/model/nccl_cost.h). `busbw` is the default cap those hops
// put on a ring's busbw, GB/s: NCCL's own figure for the link (src/graph/
// topo.h of NCCL 2.23.4): 18 NVLinks x SM90_NVLINK_BW 20.6 = 370.8 for an
// H100 SXM, and a PCIe Gen5 x16 link 16 x 240 / 80 = 48 (derivation and the
// maintainers' measured figures: docs/prediction.md, "Hosts").
enum class IntraLink : std::uint8_t { NVLink, PCI };
struct IntraLinkRow : Named<IntraLink> {
  double busbw;
};
inline constexpr std::array<IntraLinkRow, 2> kIntraLinks{
    {{{IntraLink::NVLink, "nvlink", "GPUs of a node joined by NVLink (H100 SXM: 18 links)"}, 370.8},
     {{IntraLink::PCI, "pci", "GPUs of a node joined through PCIe (Gen5 x16)"}, 48.0}}};

// How the flows of one channel share the fabric when the size table takes a
// channel's bandwidth from the routed paths: a ring advances in lockstep (all
// its connections at the slowest one's rate), or every flow on its own as in
// the completion model of `predicted`.
enum class ChannelCoupling : std::uint8_t { Lockstep, Independent };
inline constexpr std::array<Named<ChannelCoupling>, 2> kChannelCouplings{
    {{ChannelCoupling::Lockstep, "lockstep", "a channel runs at its slowest connection's max-min rate"},
     {ChannelCoupling::Independent, "independent", "every flow at its own max-min rates, as `predicted`"}}};

// nccl-tests' size loop: min, min x factor, ... while <= max. Empty (min 0)
// when no sweep was asked for: the outputs then stay as without sizes.
// Plain byte counts, as in flow.h (units.h is a stage above workloads/).
struct SizeSweep {
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  std::uint64_t factor = 2;
  bool enabled() const noexcept { return min_bytes != 0; }
};

// A job's size table settings: the sweep, NCCL_ALGO / NCCL_PROTO when forced
// (else chosen per size by minimum predicted time, as NCCL does), and the
// coupling of a channel's flows.
struct NcclSizes {
  SizeSweep sweep;
  std::optional<NcclAlgo> algo;
  std::optional<NcclProto> proto;
  ChannelCoupling coupling = ChannelCoupling::Lockstep;
};

// The sizes of the sweep in nccl-tests' order (factor >= 2, min <= max).
inline std::vector<std::uint64_t> sweep_sizes(const SizeSweep& s) {
  std::vector<std::uint64_t> out;
  if (!s.enabled() || s.factor < 2) return out;
  for (std::uint64_t b = s.min_bytes; b <= s.max_bytes; b *= s.factor) {
    out.push_back(b);
    if (b > s.max_bytes / s.factor) break;  // the next step would pass max (or overflow)
  }
  return out;
}

}  // namespace ecmpsim::workloads
