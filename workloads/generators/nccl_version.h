// NCCL versions and what changed between them in the ring graph: which
// crossNic a search falls back to when its same-NIC search falls short, and
// when odd nodes exchange the NICs of channels c and c^1. One row per
// version range, each with the NCCL source it was read from; docs/nccl-fidelity.md
// ("NCCL versions") gives the table and the log it was checked against.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ecmpsim::workloads {

struct NcclVersion {
  std::uint16_t major = 0, minor = 0, patch = 0;
  friend constexpr auto operator<=>(NcclVersion, NcclVersion) = default;
};

// The release the rings follow unless a job names one (`nccl_version`).
inline constexpr NcclVersion kDefaultNcclVersion{2, 30, 7};

// "2.22.3", "2.22.3-1" (a package's release suffix), "v2.22.3-1" (a git tag)
// or "2.22" (patch 0); nullopt for anything else.
std::optional<NcclVersion> parse_nccl_version(std::string_view text);
std::string nccl_version_text(NcclVersion v);

// When ncclTopoPostset (src/graph/connect.cc, "Alternate rings to avoid
// crossing rails") exchanges channels c and c^1 on odd nodes; it also needs
// an even number of search channels.
enum class RingSwap : std::uint8_t {
  Never,             // no exchange
  NonZeroEvenNodes,  // graph crossNic != 0 and an even node count
  NonZero,           // graph crossNic != 0
  Two,               // graph crossNic == 2
};

// Which crossing graphs make an odd channel reuse the NICs of the channel
// before it, swapped (search.cc: "graph->nChannels & 1"); the others leave
// a node by the NIC of the ring's last GPU (ring.h, ring_rotates).
enum class RingPairs : std::uint8_t {
  Never,    // no pairing: every crossing channel leaves by its last GPU's NIC
  NonZero,  // graph crossNic != 0
  Two,      // graph crossNic == 2
};

// What one version range does with NCCL_CROSS_NIC = 2 (the default) and 1.
struct NcclRingRules {
  NcclVersion from;            // first release with these rules
  std::uint8_t fallback;       // the crossNic of a graph that had to cross NICs (0: it cannot)
  RingSwap swap;
  RingPairs pairs;
  std::string_view source;     // where in NCCL this was read
};

inline constexpr std::array<NcclRingRules, 6> kNcclRingRules{{
    {{2, 12, 0}, 0, RingSwap::Never, RingPairs::Never,
     "search.cc 2.18.6: the retry keeps crossNic 2, which still requires the entry NIC's asic and port; no pairing"},
    {{2, 19, 0}, 1, RingSwap::Never, RingPairs::Never,
     "search.cc 2.19.3: the retry sets tmpGraph.crossNic = 1; no pairing; no exchange in connect.cc"},
    {{2, 20, 0}, 1, RingSwap::NonZeroEvenNodes, RingPairs::NonZero,
     "connect.cc 2.20.3: exchange if graphs[RING]->crossNic && nNodes % 2 == 0 && nChannels % 2 == 0; search.cc "
     "2.20.3: odd channels pair if graph->crossNic"},
    {{2, 21, 0}, 1, RingSwap::NonZero, RingPairs::NonZero,
     "connect.cc 2.21.5: exchange if graphs[RING]->crossNic && nChannels % 2 == 0"},
    {{2, 23, 0}, 2, RingSwap::NonZero, RingPairs::Two,
     "search.cc 2.23.4: the retry sets tmpGraph.crossNic = 2; odd channels pair only if graph->crossNic == 2"},
    {{2, 26, 0}, 2, RingSwap::Two, RingPairs::Two, "connect.cc 2.26.2: exchange only if graphs[RING]->crossNic == 2"},
}};

// The rules of version v: the last row starting at or before it (the first
// row for anything older).
constexpr const NcclRingRules& ring_rules(NcclVersion v) noexcept {
  const NcclRingRules* r = &kNcclRingRules.front();
  for (const NcclRingRules& row : kNcclRingRules)
    if (row.from <= v) r = &row;
  return *r;
}

}  // namespace ecmpsim::workloads
