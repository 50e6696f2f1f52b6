// What `emulate --measure-time` adds to the emulated fabric, as data: every
// directed link shaped to its configured speed times one scale factor (tc
// HTB at the link's from-end), queued either fairly (one HTB class per flow
// crossing the link, so the link is shared max-min, the flow model's
// assumption) or in one drop-tail FIFO (what TCP makes of a shared queue),
// and policy rules that steer each flow's TCP segments onto the path its
// own UDP five-tuple took through the kernel's multipath routes. Computed
// before anything touches the kernel, so the unit tests read it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hashing/address.h"
#include "sim/base/named.h"
#include "sim/emulate/emulate_plan.h"
#include "sim/model/trace.h"
#include "workloads/flow.h"

namespace ecmpsim {

enum class QueueMode : std::uint8_t { Fair, Fifo };
inline constexpr std::array<Named<QueueMode>, 2> kQueueModes{{
    {QueueMode::Fair, "fair", "one HTB class per flow on every link, served round robin: max-min sharing"},
    {QueueMode::Fifo, "fifo", "one drop-tail queue per link: TCP's congestion control does the sharing"},
}};

// A full-size TCP segment on the veths' 1500-byte MTU, with timestamps: 1448
// payload bytes in a 1514-byte frame over IPv4, 1428 over IPv6 (its header
// is 20 bytes longer). Links are shaped in frame bits, so each one's rate is
// raised by kFrameBytes / payload to carry its scaled speed in payload, the
// bytes the flow model counts.
inline constexpr unsigned kFrameBytes = 1514;
inline constexpr unsigned kPayloadBytes = 1448;
inline constexpr unsigned kPayloadBytes6 = 1428;
constexpr unsigned payload_bytes(hashing::Family family) noexcept {
  return family == hashing::Family::V4 ? kPayloadBytes : kPayloadBytes6;
}
// Packets a flow's class holds before it drops (fair), and a link's FIFO.
inline constexpr unsigned kFlowQueuePackets = 32;
inline constexpr unsigned kFifoQueuePackets = 128;
// Routing tables for steering: table kSteerTable + k sends out of port k.
inline constexpr std::uint32_t kSteerTable = 1000;

struct ShapingOptions {
  double scale = 0;  // emulated speed / configured speed, in (0, 1]
  QueueMode queue = QueueMode::Fair;
};

struct ShapingPlan {
  std::vector<std::string> tc;     // per node: `tc -batch` lines (qdiscs, classes, filters)
  std::vector<std::string> rules;  // per node: `ip -batch` lines (steering tables and rules; hosts: no GSO)
  bool ipv6 = false;               // the rules are IPv6 ones: `ip -6 -batch` (ip rule reads IPv4 otherwise)
  std::vector<std::uint64_t> rate_bps;  // per directed link: shaped rate in frame bits/s; 0 if not built
  // Per directed link: the flows whose own HTB class it has (fair queueing),
  // class 1:(kFirstFlowClass + k) for the k-th.
  std::vector<std::vector<std::uint32_t>> link_flows;
};
inline constexpr std::uint32_t kFirstFlowClass = 0x10;

// `built` is per directed link (1 when the cable exists); `paths` holds each
// flow's links as the kernel forwarded its UDP packets. Every switch on a
// flow's path gets a rule for the flow's TCP five-tuple (its own addresses
// and ports, protocol 6) into the table of the port the path leaves by. The
// fabric's family picks the filters (u32 `ip` or `ip6` matches) and rules.
ShapingPlan plan_shaping(const Fabric& fabric, const NetnsPlan& net, std::span<const std::uint8_t> built,
                         const workloads::Flows& flows, const Trace& paths, const ShapingOptions& opt);

// The shaped rate of a link of `speed` at `scale`, in frame bits/s, for
// full segments of `family`.
std::uint64_t shaped_rate(Gbps speed, double scale, hashing::Family family = hashing::Family::V4);

}  // namespace ecmpsim
