// `ecmpsim emulate --measure-time`: the flows' completion times over links
// shaped to a scaled copy of the fabric's speeds, and the scale this machine
// can hold (emulate_time.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/emulate/emulated_fabric.h"
#include "sim/model/simulation.h"

namespace ecmpsim {

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

// "1/40000 (400 Gb/s links -> 10 Mb/s)": the scale and what it makes of the fastest link.
std::string scale_line(const Fabric& fabric, double scale);

// The --measure-time part of emulate(), in two steps. plan_time, before
// anything is built: the prediction of `predict_scenario`, the scale (an
// InputError, exit 2, when the machine cannot hold the one asked for, naming
// the one it can), the stretch, each flow's bytes and the timeout. run_time,
// on the built fabric whose packets measurement is `udp`: shapes, steers,
// transfers, and compares.
TimeReport plan_time(const Simulation& sim, const ScenarioSpec& predict_scenario, const TimeOptions& opt);
void run_time(const Simulation& sim, EmulatedFabric& emu, const EmulatedFabric::Measurement& udp,
              std::span<const std::uint8_t> built, TimeReport& t);

}  // namespace ecmpsim
