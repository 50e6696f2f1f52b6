// `ecmpsim emulate`: the fabric built from real Linux routers (one network
// namespace per node, one veth pair per cable, the kernel's multipath hash on
// every switch), each flow measured there — by real UDP packets and by
// `ip route get` hop by hop — and compared with ecmpsim's own prediction.
#pragma once

#include <csignal>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/emulate/emulate_plan.h"
#include "sim/model/metrics.h"
#include "sim/emulate/netns.h"
#include "sim/model/simulation.h"
#include "sim/model/trace.h"

namespace ecmpsim {

enum class EmulateMethod : std::uint8_t { Packets, RouteGet };
std::string_view method_name(EmulateMethod m) noexcept;

// Thrown when the stop flag is raised (SIGINT/SIGTERM); the fabric is removed while it unwinds.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

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
  // unconnected socket in the source host's namespace; the per-veth transmit
  // counters before and after give the links the flow crossed.
  Measurement measure_packets(const workloads::Flows& flows, unsigned packets);
  // Asks each switch on the way `ip route get DST from SRC iif IN ipproto udp sport S dport D`.
  Measurement measure_route_get(const workloads::Flows& flows);

 private:
  void check_stop() const;
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

struct EmulateOptions {
  std::string scenario;                       // empty: the first ECMP scenario
  std::optional<std::string> hash;            // linux-l3 or linux-l4
  std::optional<std::uint32_t> seed;          // kernel and prediction
  std::optional<std::uint32_t> predict_seed;  // prediction only: a negative control
  std::optional<std::string> predict_scenario;  // predict with another scenario's weights and failures
  std::vector<EmulateMethod> methods{EmulateMethod::Packets, EmulateMethod::RouteGet};
  unsigned packets_per_flow = 3;
  const volatile std::sig_atomic_t* stop = nullptr;
};

// One forwarding decision the kernel made, as a path tracer reports it: a
// flow, the switch, and which member of its equal-cost group (in the order
// the multipath route lists its next hops) the flow left on.
struct ObservedHop {
  std::uint32_t flow = 0;
  std::uint32_t switch_index = 0;
  std::uint32_t member = 0;
  std::uint32_t members = 0;
};

struct EmulateReport {
  std::string scenario;
  std::string predict_scenario;  // the scenario the prediction used (the same unless a negative control)
  std::string note;  // how a non-Linux scenario hash was replaced, if it was
  HashSpec kernel_hash, predict_hash;
  std::vector<KernelHash> kernel;  // per switch
  std::vector<std::string> down;   // the emulated scenario's failures, as configured
  std::vector<std::pair<std::string, std::uint32_t>> weights;  // its WCMP weights (fabric's, then scenario's)
  std::vector<std::uint8_t> link_down;  // per LinkId: 1 when the cable was not built; empty if none
  std::vector<LinkId> metric_links;     // the working switch-to-switch links
  std::string prefix;
  std::size_t namespaces = 0, veth_pairs = 0;
  double build_seconds = 0;
  Trace predicted;
  Imbalance predicted_imbalance;
  std::vector<EmulatedFabric::Measurement> measurements;
  std::vector<Comparison> comparisons;
  // From the first measurement: every decision among more than one member.
  std::vector<ObservedHop> observed;
  bool agree() const noexcept {
    for (const auto& c : comparisons)
      if (!c.agree()) return false;
    return !comparisons.empty();
  }
};

// Resolves the scenario and hashes (InputError on bad input), builds the
// fabric as namespaces, measures, compares and removes the namespaces.
EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt);

// Deletes namespaces named by namespace_prefix whose process no longer runs.
// Returns their names.
std::vector<std::string> cleanup_leftovers();

std::string emulate_table(const Simulation& sim, const EmulateReport& r);
std::string emulate_json(const Simulation& sim, const EmulateReport& r);
// The observed hops as `ecmpsim fit` reads them:
// src,dst,proto,sport,dport,switch,member (switch by name).
std::string emulate_observations_csv(const Simulation& sim, const EmulateReport& r);

}  // namespace ecmpsim
