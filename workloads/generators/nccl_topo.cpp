// The constants of NCCL's topology code by release; each is cited in
// nccl_topo.h and docs/prediction.md, "Channels from the hardware".
#include "workloads/generators/nccl_topo.h"

#include <algorithm>
#include <array>

namespace ecmpsim::workloads {

namespace {

constexpr NcclVersion v(std::uint16_t major, std::uint16_t minor) noexcept { return {major, minor, 0}; }

// search.cc, read at v2.18.3-1, v2.19.3-1, v2.21.5-1, v2.25.1-1, v2.27.3-1,
// v2.27.5-1, v2.27.6-1, v2.29.2-1, v2.29.7-1 and v2.30.3-1 (unchanged in between).
constexpr std::array kIntra{40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
constexpr std::array kInter{48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0,
                            7.0,  6.0,  5.0,  4.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm90Intra218{60.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0};
constexpr std::array kSm90Intra219{60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 6.0, 3.0};
constexpr std::array kSm90Intra221{60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
constexpr std::array kSm90Inter218{48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12};
constexpr std::array kSm90Inter{48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Intra225{90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0};
constexpr std::array kSm100Intra227{90.0, 80.0, 70.0, 60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
constexpr std::array kSm100Intra229{90.0, 80.0, 70.0, 60.0, 50.0, 45.0, 40.0, 30.0, 24.0, 20.0, 19.0, 18.0};
constexpr std::array kSm100Inter225{48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                    15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Inter2273{47.9, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                     15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Inter2275{48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                     15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Inter2276{96.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
                                     17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Inter2297{96.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0,
                                     17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array kSm100Inter230{96.0, 86.0, 80.0, 48.0, 45.1, 42.0, 40.0, 30.0, 24.0, 22.0,
                                    20.0, 17.5, 15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};

std::span<const double> sm100_speeds(NcclVersion ver, bool inter) noexcept {
  if (!inter) {
    if (ver >= v(2, 29)) return kSm100Intra229;
    if (ver >= v(2, 27)) return kSm100Intra227;
    return kSm100Intra225;
  }
  if (ver >= v(2, 30)) return kSm100Inter230;
  if (ver >= NcclVersion{2, 29, 7}) return kSm100Inter2297;
  if (ver >= NcclVersion{2, 27, 6}) return kSm100Inter2276;
  if (ver >= NcclVersion{2, 27, 5}) return kSm100Inter2275;
  if (ver >= v(2, 27)) return kSm100Inter2273;
  return kSm100Inter225;
}

}  // namespace

double nccl_nvlink_bw(std::uint16_t sm, NcclVersion ver) noexcept {
  if (sm >= 100 && ver >= v(2, 25)) return ver >= v(2, 27) ? 40.1 : 40.0;  // SM100_NVLINK_BW
  if (sm >= 90) return ver >= v(2, 20) ? 20.6 : 20.0;                        // SM90_NVLINK_BW
  if (sm == 86) return 12.0;                                                 // SM86_NVLINK_BW
  if (sm >= 70) return 20.0;                                                 // SM80, SM70 (2.18 on)
  return 18.0;                                                               // SM60_NVLINK_BW
}

double nccl_pcie_bw(std::uint8_t gen, std::uint32_t width) noexcept {
  // kvDictPciGen's 100 Mb/s per lane: Gen1 15 ... Gen6 480; 60 its fallback.
  constexpr std::array<double, 7> kSpeed{60.0, 15.0, 30.0, 60.0, 120.0, 240.0, 480.0};
  const double speed = kSpeed[std::min<std::size_t>(gen, 6)];
  return width * speed / 80.0;
}

std::span<const double> nccl_speeds(std::uint16_t sm, NcclVersion ver, bool inter) noexcept {
  if (sm >= 100 && ver >= v(2, 25)) return sm100_speeds(ver, inter);
  if (sm >= 90) {
    if (inter) return ver >= v(2, 19) ? std::span<const double>(kSm90Inter) : std::span<const double>(kSm90Inter218);
    if (ver >= v(2, 21)) return kSm90Intra221;
    return ver >= v(2, 19) ? std::span<const double>(kSm90Intra219) : std::span<const double>(kSm90Intra218);
  }
  return inter ? std::span<const double>(kInter) : std::span<const double>(kIntra);
}

std::uint32_t nccl_max_channels(NcclVersion ver) noexcept { return ver >= v(2, 25) ? 64 : 32; }

PostsetChannels nccl_postset_channels(std::uint32_t search_channels, double ring_bw_intra, std::uint16_t sm,
                                      std::uint32_t nodes, NcclVersion ver) noexcept {
  const std::uint32_t max = nccl_max_channels(ver);
  PostsetChannels out;
  out.channels = std::min(max, 2 * search_channels);
  out.doubled = out.channels > search_channels;
  const bool hopper = ver >= v(2, 25) ? sm >= 90 : sm == 90;
  const bool room = ver >= v(2, 20) ? out.channels < 16 : 2 * out.channels <= max;
  if (hopper && nodes > 1 && ring_bw_intra > 45.0 && room) {
    out.channels *= 2;
    out.hopper_doubled = true;
  }
  return out;
}

}  // namespace ecmpsim::workloads
