// `ecmpsim emulate`: the driver. It resolves the scenario and hashes, builds
// the fabric as namespaces (emulated_fabric.h), measures each flow's path
// there, compares it with ecmpsim's own prediction and, with --measure-time,
// also the flows' completion times (emulate_time.h); emulate_output.h writes
// the report.
#pragma once

#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/emulate/emulate_time.h"
#include "sim/emulate/emulated_fabric.h"
#include "sim/model/simulation.h"

namespace ecmpsim {

struct EmulateOptions {
  std::string scenario;                       // empty: the first ECMP scenario
  std::optional<std::string> hash;            // linux-l3 or linux-l4
  std::optional<std::uint32_t> seed;          // kernel and prediction
  std::optional<std::uint32_t> predict_seed;  // prediction only: a negative control
  std::optional<std::string> predict_scenario;  // predict with another scenario's weights and failures
  std::vector<EmulateMethod> methods{EmulateMethod::Packets, EmulateMethod::RouteGet};
  unsigned packets_per_flow = 3;
  TimeOptions time;
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
  bool is_static = false;  // the emulated scenario is a static table (destination routes, no hash)
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
  std::optional<TimeReport> time;
  bool agree() const noexcept {
    for (const auto& c : comparisons)
      if (!c.agree()) return false;
    return !comparisons.empty() && (!time || time->agree());
  }
};

// Resolves the scenario and hashes (InputError on bad input), builds the
// fabric as namespaces, measures, compares and removes the namespaces.
// With opt.time.enabled the packets method runs first (whatever opt.methods
// says) and its paths carry the timed TCP flows.
EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt);

}  // namespace ecmpsim
