// `ecmpsim emulate`: the fabric built from real Linux routers (one network
// namespace per node, one veth pair per cable, the kernel's multipath hash on
// every switch), each flow measured there — by real UDP packets and by
// `ip route get` hop by hop — and compared with ecmpsim's own prediction;
// with --measure-time also the flows' completion times, over links shaped
// to a scaled copy of the fabric's speeds (emulate_time.cpp).
#pragma once

#include <csignal>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/emulate/emulate_plan.h"
#include "sim/emulate/shaping.h"
#include "sim/emulate/transfer.h"
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

// A ring collective's data dependency, per flow: the flows of its job and
// channel arriving at the server it leaves (whose data it forwards), and one
// ring step as a share of its bytes: 1/(2(R-1)) for all-reduce, 1/(R-1) for
// all-gather and reduce-scatter, R the job's ranks. Flows of other
// collectives have no upstream.
struct RingCoupling {
  std::vector<std::vector<std::uint32_t>> upstream;
  std::vector<double> step;
};
RingCoupling ring_coupling(const Simulation& sim);

// --measure-time: how the fabric is scaled, queued and loaded.
struct TimeOptions {
  bool enabled = false;
  std::optional<double> scale;    // emulated / configured link speed; default the machine's (choose_scale)
  double seconds = 4;             // the emulated run's ideal time: sets how many bytes each flow sends
  QueueMode queue = QueueMode::Fair;
  std::string congestion = "cubic";
  std::optional<double> timeout;  // seconds for the transfers; default 4 x the predicted emulated completion + 20
  double tolerance = 0.15;        // largest relative slowdown error that agrees
  bool ring_steps = false;        // hold ring flows to their upstream's progress (ring_coupling)
};

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

// Measured against predicted time (real time: emulated seconds / stretch).
struct TimeReport {
  double scale = 0;           // emulated / configured link speed
  bool scale_chosen = false;  // picked by choose_scale, not --scale
  double max_scale = 0;       // the most this machine holds for this fabric (choose_scale)
  double stretch = 0;         // emulated seconds per real second; bytes are scaled by scale x stretch
  double timeout = 0;
  QueueMode queue = QueueMode::Fair;
  std::string congestion;
  bool ring_steps = false;
  std::vector<std::uint64_t> bytes;  // per flow, as sent
  std::vector<double> finish_predicted, finish_measured;  // per flow, real seconds (NaN: did not finish)
  double completion_predicted = 0, completion_measured = 0, ideal = 0;
  double slowdown_predicted = 0, slowdown_measured = 0;
  double relative_error = 0;  // slowdown_measured / slowdown_predicted - 1
  double tolerance = 0;
  std::size_t finished = 0;   // flows that delivered every byte
  std::size_t tcp_paths_agree = 0;
  bool tcp_paths_checked = false;
  std::string skipped;  // why nothing was timed (flows the packets did not deliver), if so
  EmulatedFabric::TimeRun run;
  bool agree() const noexcept;
  bool ran() const noexcept { return skipped.empty() && !bytes.empty(); }
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

// The machine's budget, per CPU this process may use, in the units of
// packet_load (an upper bound: every link that carries a flow busy at its
// full shaped rate). Measured on the shared 2-core machine under a load of 10
// (bench/RESULTS.md): paper16 at 1/20000 (load 166k) still agrees within
// 0.2%, at 1/10000 (331k) the kernel falls behind and the run is 38% slow.
inline constexpr double kPacketHopsPerCpu = 85000;

// The load the fabric puts on the machine at `scale`, in packets per second
// summed over the links that carry flows (`paths`), each busy at its shaped
// rate in full-size frames plus one ACK per two segments coming back.
double packet_load(const Fabric& fabric, const Trace& paths, double scale);
// The largest scale whose load fits `budget` packets per second.
double max_scale(const Fabric& fabric, const Trace& paths, double budget);
// The default: the fastest link at 10 Mb/s, or less (1-2-5 steps) until the
// load fits half the budget.
double choose_scale(const Fabric& fabric, const Trace& paths, double budget);
// kPacketHopsPerCpu x the CPUs this process may run on.
double machine_budget();
// "1/40000" for a scale that is one over an integer (within 0.1%), else the number.
std::string scale_text(double scale);
// Parses --scale: "1/N" or a number in (0, 1]; nullopt if neither.
std::optional<double> parse_scale(const std::string& text);

// Resolves the scenario and hashes (InputError on bad input), builds the
// fabric as namespaces, measures, compares and removes the namespaces.
// With opt.time.enabled the packets method runs first (whatever opt.methods
// says) and its paths carry the timed TCP flows.
EmulateReport emulate(const Simulation& sim, const EmulateOptions& opt);

// The --measure-time part of emulate(), in two steps. plan_time, before
// anything is built: the prediction of `predict_scenario`, the scale (an
// InputError, exit 2, when the machine cannot hold the one asked for, naming
// the one it can), the stretch, each flow's bytes and the timeout. run_time,
// on the built fabric whose packets measurement is `udp`: shapes, steers,
// transfers, and compares.
TimeReport plan_time(const Simulation& sim, const ScenarioSpec& predict_scenario, const TimeOptions& opt);
void run_time(const Simulation& sim, EmulatedFabric& emu, const EmulatedFabric::Measurement& udp,
              std::span<const std::uint8_t> built, TimeReport& t);

// Deletes namespaces named by namespace_prefix whose process no longer runs.
// Returns their names.
std::vector<std::string> cleanup_leftovers();

std::string emulate_table(const Simulation& sim, const EmulateReport& r);
Json emulate_json(const Simulation& sim, const EmulateReport& r);
// Both shapes, for write() (sim/base/format.h); the arguments outlive it.
Result emulate_result(const Simulation& sim, const EmulateReport& r);
// The observed hops as `ecmpsim fit` reads them:
// src,dst,proto,sport,dport,switch,member (switch by name).
std::string emulate_observations_csv(const Simulation& sim, const EmulateReport& r);

}  // namespace ecmpsim
