// `emulate --measure-time`: the scale the machine can hold, the bytes each
// flow sends, the timed TCP run on the shaped fabric, and the measured
// completion and slowdown against the flow model's.
//
// Two factors: link speeds are multiplied by `scale` (400 Gb/s -> 10 Mb/s is
// 1/40000) and bytes by scale x `stretch`. Scaling bytes by the scale alone
// would keep every time as it is — paper16's all-reduce would last its real
// 40 ms, a dozen packets per flow, shorter than the scheduling noise of a
// shared machine — so the bytes are stretched once more, to make the ideal
// time last --seconds, and measured times are divided by the stretch to give
// real time back.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <map>
#include <sched.h>
#include <tuple>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/emulate/emulate_time.h"
#include "sim/base/clock.h"
#include "workloads/generators/collective.h"

namespace ecmpsim {
namespace {

// Fewer segments than this per flow and the handshake and the first
// window decide its time, not the sharing.
constexpr std::uint64_t kMinSegments = 40;
// The default's target: the fastest link shaped to this many bit/s.
constexpr double kDefaultFastest = 10e6;

double fastest(const Fabric& fabric) {
  double g = 0;
  for (const Link& l : fabric.links()) g = std::max(g, l.speed.value);
  return g;
}

// Three significant digits at most, trailing zeros dropped: 30.2, 10, 0.5.
std::string short_number(double v) {
  std::string s = fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2);
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string rate_text(double bps) {
  if (bps >= 1e9) return short_number(bps / 1e9) + " Gb/s";
  if (bps >= 1e6) return short_number(bps / 1e6) + " Mb/s";
  return short_number(bps / 1e3) + " kb/s";
}

}  // namespace

std::string scale_line(const Fabric& fabric, double scale) {
  const double g = fastest(fabric);
  return scale_text(scale) + " (" + short_number(g) + " Gb/s links -> " + rate_text(g * 1e9 * scale) + ")";
}

double packet_load(const Fabric& fabric, const Trace& paths, double scale) {
  std::vector<std::uint8_t> used(fabric.links().size(), 0);
  for (LinkId l : paths.path_links) used[l] = 1;
  double pps = 0;
  for (LinkId l = 0; l < used.size(); ++l)
    if (used[l])
      pps += static_cast<double>(shaped_rate(fabric.link(l).speed, scale, fabric.family())) / (8.0 * kFrameBytes);
  return pps * 1.5;
}

double max_scale(const Fabric& fabric, const Trace& paths, double budget) {
  const double at_one = packet_load(fabric, paths, 1.0);
  return at_one > 0 ? std::min(1.0, budget / at_one) : 1.0;
}

double choose_scale(const Fabric& fabric, const Trace& paths, double budget) {
  const double g = fastest(fabric);
  double scale = g > 0 ? std::min(1.0, kDefaultFastest / (g * 1e9)) : 1.0;
  // 1-2-5 steps down, e.g. 1/40000 -> 1/80000 -> 1/200000 -> 1/400000.
  static constexpr double kSteps[] = {2.0, 2.5, 2.0};
  for (int i = 0; packet_load(fabric, paths, scale) > budget / 2 && i < 60; ++i) scale /= kSteps[i % 3];
  return scale;
}

double machine_budget() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int cpus = ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  return kPacketHopsPerCpu * std::max(1, cpus);
}

std::string scale_text(double scale) {
  const double inv = 1.0 / scale;
  const double n = std::round(inv);
  if (scale < 1 && n >= 2 && n < 1e15 && std::fabs(inv - n) <= 1e-3 * n)
    return "1/" + std::to_string(static_cast<long long>(n));
  return format_number(scale);
}

std::optional<double> parse_scale(const std::string& text) {
  double v = 0;
  char tail = 0;
  if (text.rfind("1/", 0) == 0) {
    double n = 0;
    if (std::sscanf(text.c_str() + 2, "%lf%c", &n, &tail) != 1 || !(n >= 1) || !std::isfinite(n)) return std::nullopt;
    v = 1.0 / n;
  } else if (std::sscanf(text.c_str(), "%lf%c", &v, &tail) != 1) {
    return std::nullopt;
  }
  if (!(v > 0 && v <= 1)) return std::nullopt;
  return v;
}

RingCoupling ring_coupling(const Simulation& sim) {
  const Fabric& fabric = sim.fabric();
  const workloads::Flows& flows = sim.flows();
  RingCoupling c;
  c.upstream.resize(flows.size());
  c.step.assign(flows.size(), 1.0);
  // Flows by (job, channel, server they arrive at).
  std::map<std::tuple<std::uint16_t, std::uint16_t, std::uint32_t>, std::vector<std::uint32_t>> into;
  for (std::uint32_t i = 0; i < flows.size(); ++i)
    into[{flows.job[i], flows.channel[i], fabric.server_of(flows.dst[i])}].push_back(i);
  for (std::uint32_t i = 0; i < flows.size(); ++i) {
    const auto& info = workloads::collective_info(static_cast<workloads::Collective>(flows.collective[i]));
    if (info.shape != workloads::CollectiveShape::Ring) continue;
    const bool all_reduce = info.op == workloads::CollectiveOp::AllReduce;
    const std::uint32_t ranks = sim.jobs()[flows.job[i]].ranks;
    const auto it = into.find({flows.job[i], flows.channel[i], fabric.server_of(flows.src[i])});
    if (ranks < 2 || it == into.end()) continue;
    c.upstream[i] = it->second;
    c.step[i] = 1.0 / ((all_reduce ? 2.0 : 1.0) * (ranks - 1));
  }
  return c;
}

bool TimeReport::agree() const noexcept {
  return ran() && finished == bytes.size() && (!tcp_paths_checked || tcp_paths_agree == bytes.size()) &&
         std::fabs(relative_error) <= tolerance;
}

TimeReport plan_time(const Simulation& sim, const ScenarioSpec& predict_scenario, const TimeOptions& opt) {
  const Fabric& fabric = sim.fabric();
  const workloads::Flows& flows = sim.flows();
  if (!congestion_available(opt.congestion))
    throw InputError(option_at("congestion"), "this kernel offers no TCP congestion control '" + opt.congestion +
                                                     "' (see /proc/sys/net/ipv4/tcp_available_congestion_control)");
  const ScenarioResult pred = sim.run(predict_scenario);
  TimeReport t;
  t.queue = opt.queue;
  t.congestion = opt.congestion;
  t.ring_steps = opt.ring_steps;
  t.tolerance = opt.tolerance;
  t.ideal = pred.predicted.all.ideal.value;
  t.completion_predicted = pred.predicted.all.completion.value;
  t.slowdown_predicted = pred.predicted.all.slowdown;
  for (const Seconds s : pred.times.finish) t.finish_predicted.push_back(s.value);
  if (!(t.ideal > 0) || !std::isfinite(t.completion_predicted))
    throw InputError(option_at("measure_time"), "scenario '" + predict_scenario.name +
                                                       "' has nothing to time (ideal " + fixed(t.ideal, 6) +
                                                       " s, predicted completion " + fixed(t.completion_predicted, 6) + " s)");
  const double budget = machine_budget();
  t.max_scale = max_scale(fabric, pred.trace, budget);
  if (opt.scale && *opt.scale > t.max_scale)
    throw InputError(option_at("scale"),
                     "this machine cannot hold scale " + scale_line(fabric, *opt.scale) + " for this fabric: at most " +
                         scale_line(fabric, t.max_scale) + " (" + short_number(budget) +
                         " packets/s through the emulated links)");
  t.scale = opt.scale.value_or(choose_scale(fabric, pred.trace, budget));
  t.scale_chosen = !opt.scale;
  t.stretch = opt.seconds / t.ideal;
  // One TCP connection per five-tuple: two flows sharing one cannot both run.
  std::map<std::tuple<hashing::IpAddr, std::uint16_t, hashing::IpAddr, std::uint16_t>, std::size_t> tuples;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto [it, fresh] = tuples.try_emplace({flows.src_ip[i], flows.sport[i], flows.dst_ip[i], flows.dport[i]}, i);
    if (!fresh)
      throw InputError(option_at("measure_time"),
                       "flows " + std::to_string(it->second) + " and " + std::to_string(i) + " share the five-tuple " +
                           hashing::format_ip(flows.src_ip[i]) + ":" + std::to_string(flows.sport[i]) + " -> " +
                           hashing::format_ip(flows.dst_ip[i]) + ":" + std::to_string(flows.dport[i]) +
                           "; one TCP connection cannot carry two flows");
  }
  std::uint64_t smallest = ~0ull;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const double b = static_cast<double>(flows.bytes[i]) * t.scale * t.stretch;
    t.bytes.push_back(static_cast<std::uint64_t>(std::llround(b)));
    if (flows.bytes[i] > 0) smallest = std::min(smallest, t.bytes.back());
  }
  if (smallest < kMinSegments * payload_bytes(fabric.family()))
    throw InputError(option_at("seconds"),
                     "at scale " + scale_text(t.scale) + " the smallest flow would send " + std::to_string(smallest) +
                         " bytes, under " + std::to_string(kMinSegments) +
                         " full segments: its time would be the handshake's; raise " + option_ref("seconds") + " or " + option_ref("scale"));
  t.timeout = opt.timeout.value_or(4 * t.completion_predicted * t.stretch + 20);
  return t;
}

void run_time(const Simulation& sim, EmulatedFabric& emu, const EmulatedFabric::Measurement& udp,
              std::span<const std::uint8_t> built, TimeReport& t) {
  TransferOptions transfer;
  transfer.congestion = t.congestion;
  transfer.timeout_s = t.timeout;
  const RingCoupling ring = t.ring_steps ? ring_coupling(sim) : RingCoupling{};
  t.run = emu.measure_time(sim.flows(), udp.trace, built, t.bytes, {t.scale, t.queue}, transfer,
                           t.ring_steps ? &ring : nullptr);
  const std::size_t n = t.bytes.size();
  t.finish_measured.assign(n, std::nan(""));
  t.finished = 0;
  t.completion_measured = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double f = t.run.transfer.finish[i];
    if (std::isnan(f)) continue;
    ++t.finished;
    t.finish_measured[i] = f / t.stretch;
    t.completion_measured = std::max(t.completion_measured, t.finish_measured[i]);
  }
  if (t.finished < n) t.completion_measured = std::nan("");
  t.slowdown_measured = t.completion_measured / t.ideal;
  t.relative_error = t.slowdown_measured / t.slowdown_predicted - 1;
  t.tcp_paths_checked = !t.run.tcp_on_path.empty();
  t.tcp_paths_agree = 0;
  for (std::uint8_t ok : t.run.tcp_on_path) t.tcp_paths_agree += ok;
}

EmulatedFabric::TimeRun EmulatedFabric::measure_time(const workloads::Flows& flows, const Trace& paths,
                                                     std::span<const std::uint8_t> built,
                                                     std::span<const std::uint64_t> bytes,
                                                     const ShapingOptions& shaping, const TransferOptions& transfer,
                                                     const RingCoupling* ring) {
  const auto start = Clock::now();
  const Fabric& f = *fabric_;
  TimeRun run;
  run.shaping = plan_shaping(f, plan_, built, flows, paths, shaping);
  for (NodeId n = 0; n < plan_.ns.size(); ++n) {
    check_stop();
    if (!run.shaping.tc[n].empty()) netns::tc_batch(plan_.ns[n], run.shaping.tc[n]);
    if (run.shaping.rules[n].empty()) continue;
    if (run.shaping.ipv6) netns::ip6_batch(plan_.ns[n], run.shaping.rules[n]);
    else netns::ip_batch(plan_.ns[n], run.shaping.rules[n]);
  }
  std::vector<TransferFlow> timed;
  std::vector<std::size_t> index;                         // timed flow -> flow
  std::vector<std::size_t> position(flows.size(), kNone);  // flow -> timed flow
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (bytes[i] == 0) continue;
    position[i] = timed.size();
    timed.push_back({flows.src_ip[i], flows.dst_ip[i], flows.sport[i], flows.dport[i], flows.flow_label[i], bytes[i],
                     &handles_[f.endpoint_node(flows.src[i])], &handles_[f.endpoint_node(flows.dst[i])], {}, 1.0});
    index.push_back(i);
  }
  for (std::size_t k = 0; ring != nullptr && k < timed.size(); ++k) {
    for (std::uint32_t u : ring->upstream[index[k]])
      if (position[u] != kNone) timed[k].upstream.push_back(position[u]);
    timed[k].step = ring->step[index[k]];
  }
  run.setup_seconds = seconds_since(start);
  TransferOptions opt = transfer;
  opt.check_stop = [this] { check_stop(); };
  TransferResult got = run_transfers(timed, opt);
  run.transfer = got;
  run.transfer.finish.assign(flows.size(), 0.0);
  for (std::size_t k = 0; k < timed.size(); ++k) run.transfer.finish[index[k]] = got.finish[k];
  if (shaping.queue != QueueMode::Fair) return run;

  // Each flow's own class on every link of its path must have sent its bytes.
  run.tcp_on_path.assign(flows.size(), 1);
  run.drops.assign(flows.size(), 0);
  for (LinkId l = 0; l < run.shaping.link_flows.size(); ++l) {
    const auto& on = run.shaping.link_flows[l];
    if (on.empty()) continue;
    check_stop();
    const auto stats =
        netns::parse_class_stats(netns::tc_batch(plan_.ns[f.link(l).from], "class show dev " + plan_.ifname[l] + "\n", true));
    for (std::size_t k = 0; k < on.size(); ++k) {
      char id[16];
      std::snprintf(id, sizeof id, "1:%x", kFirstFlowClass + static_cast<unsigned>(k));
      const auto it = stats.find(id);
      const bool carried = it != stats.end() && it->second.bytes >= bytes[on[k]];
      run.tcp_on_path[on[k]] &= carried ? 1 : 0;
      if (it != stats.end()) run.drops[on[k]] += it->second.dropped;
    }
  }
  return run;
}

}  // namespace ecmpsim
