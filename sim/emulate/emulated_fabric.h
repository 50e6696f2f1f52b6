// The kernel side of `ecmpsim emulate`: the fabric built as Linux network
// namespaces (one per node, one veth pair per cable, the kernel's multipath
// hash on every switch), its two measurements of each flow's path (real UDP
// packets, and `ip route get` hop by hop) and their comparison with the
// prediction. Apart from the driver (emulate.h) so that the timing and the
// tests can hold a fabric without the driver's options and report.
#pragma once

#include <csignal>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/emulate/emulate_plan.h"
#include "sim/emulate/netns.h"
#include "sim/emulate/shaping.h"
#include "sim/emulate/transfer.h"
#include "sim/model/metrics.h"
#include "sim/model/trace.h"

namespace ecmpsim {

enum class EmulateMethod : std::uint8_t { Packets, RouteGet };
std::string_view method_name(EmulateMethod m) noexcept;

// Thrown when the stop flag is raised (SIGINT/SIGTERM); the fabric is removed while it unwinds.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

struct RingCoupling;

// The fabric as namespaces. The constructor builds it; the destructor removes
// every namespace it made (and with them their interfaces), also when the
// constructor fails half way.
class EmulatedFabric {
 public:
  EmulatedFabric(const Fabric& fabric, NetnsPlan plan, const volatile std::sig_atomic_t* stop);
  ~EmulatedFabric();
  EmulatedFabric(const EmulatedFabric&) = delete;
  EmulatedFabric& operator=(const EmulatedFabric&) = delete;

  const NetnsPlan& plan() const noexcept { return plan_; }

  struct Measurement {
    EmulateMethod method = EmulateMethod::Packets;
    Trace trace;                        // link_flows and per-flow paths as the kernel forwarded them
    std::vector<std::uint8_t> delivered;  // per flow: the path reached the destination host
    std::uint64_t stray_packets = 0;    // counted on links off every flow's path (must be 0)
    double seconds = 0;
  };

  // Sends `packets` UDP datagrams per flow, one flow at a time, from an
  // unconnected socket in the source host's namespace (IPv6: carrying the
  // flow's flow label); the per-veth transmit counters before and after give
  // the links the flow crossed.
  Measurement measure_packets(const workloads::Flows& flows, unsigned packets);
  // Asks each switch on the way `ip route get DST from SRC iif IN ipproto udp sport S dport D`
  // (IPv6: the same RTM_GETROUTE over netlink, with the flow's flow label).
  Measurement measure_route_get(const workloads::Flows& flows);

  struct TimeRun {
    ShapingPlan shaping;
    TransferResult transfer;
    // Per flow: its TCP segments crossed every link of `paths` in its own
    // HTB class (fair queueing only; empty otherwise), and the segments its
    // classes dropped along the way.
    std::vector<std::uint8_t> tcp_on_path;
    std::vector<std::uint64_t> drops;
    double setup_seconds = 0;
  };
  // Shapes every built link (`built`, per directed link), steers each flow's
  // TCP five-tuple onto `paths` (as the kernel forwarded its UDP packets),
  // and runs `bytes[i]` bytes per flow as TCP, all started together, held
  // to `ring`'s dependencies when given.
  TimeRun measure_time(const workloads::Flows& flows, const Trace& paths, std::span<const std::uint8_t> built,
                       std::span<const std::uint64_t> bytes, const ShapingOptions& shaping,
                       const TransferOptions& transfer, const RingCoupling* ring);

 private:
  void check_stop() const;
  void settle();
  // Per member (a flow at `node`): the device the kernel forwards it to, empty without an answer.
  std::vector<std::string> route_get_batch(NodeId node, std::span<const std::size_t> members,
                                           const workloads::Flows& flows, const std::vector<std::vector<LinkId>>& paths);
  std::vector<std::string> route_get_netlink(NodeId node, std::span<const std::size_t> members,
                                             const workloads::Flows& flows,
                                             const std::vector<std::vector<LinkId>>& paths);
  std::vector<std::uint64_t> snapshot();
  void remove() noexcept;

  const Fabric* fabric_;
  NetnsPlan plan_;
  const volatile std::sig_atomic_t* stop_;
  std::vector<std::string> created_;
  std::vector<netns::Handle> handles_;  // per node
};

// Measured against predicted.
struct Comparison {
  std::size_t flows = 0;
  std::size_t paths_agree = 0;
  std::size_t links = 0;  // every directed link, access links included
  std::size_t links_agree = 0;
  std::size_t undelivered = 0;
  std::uint64_t stray_packets = 0;
  Imbalance measured, predicted;  // over the metric links, by flow count
  bool agree() const noexcept {
    return paths_agree == flows && links_agree == links && undelivered == 0 && stray_packets == 0;
  }
};

// `metric_links`: the switch-to-switch links the FIMs are taken over (the
// emulated scenario's working ones).
Comparison compare(const Trace& predicted, const EmulatedFabric::Measurement& m, std::span<const LinkId> metric_links);

// Deletes namespaces named by namespace_prefix whose process no longer runs.
// Returns their names.
std::vector<std::string> cleanup_leftovers();

}  // namespace ecmpsim
