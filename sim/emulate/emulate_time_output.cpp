// The --measure-time section of emulate's table and JSON: the scale and
// stretch used, how the links queue, the measured completion and slowdown
// beside the predicted ones with their relative error, and every flow's
// finish time both ways.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "sim/emulate/emulate_output.h"

namespace ecmpsim {
namespace {

// "+2.3%", or "-" when either side is undefined.
std::string percent(double rel) {
  if (!std::isfinite(rel)) return "-";
  return (rel >= 0 ? "+" : "") + fixed(100 * rel, 1) + "%";
}

// Kernel time above this share of the machine: forwarding could not keep up.
constexpr double kKernelSaturated = 0.8;

double rel_error(double measured, double predicted) {
  return predicted > 0 ? measured / predicted - 1 : std::nan("");
}

std::string ms(double s) { return fixed(1e3 * s, 3); }

std::string flow_name(const workloads::Flows& flows, std::size_t i) {
  return hashing::format_ip(flows.src_ip[i]) + ":" + std::to_string(flows.sport[i]) + " -> " + hashing::format_ip(flows.dst_ip[i]) +
         ":" + std::to_string(flows.dport[i]);
}

std::string header_lines(const Simulation& sim, const TimeReport& t) {
  std::string out = "time      scale " + scale_line(sim.fabric(), t.scale) + ", in TCP payload; " +
                    (t.scale_chosen ? "chosen" : "--scale") + ", this machine holds up to " + scale_text(t.max_scale) +
                    "\n          bytes x scale x " + fixed(t.stretch, 1) + ": 1 real second lasts " +
                    fixed(t.stretch, 1) + " s here, and measured times are divided by " + fixed(t.stretch, 1) + "\n";
  out += "queueing  " + std::string(name_of(kQueueModes, t.queue)) + ": " + std::string(doc_of(kQueueModes, t.queue)) +
         "; TCP " + t.congestion + ", " + std::to_string(t.bytes.size()) + " flows started together" +
         (t.ring_steps ? ", each ring flow at most one step ahead of the flow feeding it" : ", each streaming on its own") +
         "\n";
  if (!t.ran()) return out + "timed     nothing: " + t.skipped + "\n";
  const auto& tr = t.run.transfer;
  out += "run       " + fixed(tr.seconds, 2) + " s emulated (setup " + fixed(t.run.setup_seconds, 2) + " s, connect " +
         fixed(tr.connect_seconds, 2) + " s, timeout " + fixed(t.timeout, 0) + " s), kernel " +
         fixed(100 * tr.cpu_kernel, 0) + "% of the CPU time" +
         (tr.cpu_kernel > kKernelSaturated ? " (the machine set the pace: lower --scale)" : "") + "\n";
  out += "finished  " + std::to_string(t.finished) + "/" + std::to_string(t.bytes.size()) + " flows" +
         (tr.timed_out ? " (timed out)" : "") + (tr.failed > 0 ? ", " + std::to_string(tr.failed) + " connections broken" : "") +
         "\n";
  if (t.tcp_paths_checked) {
    const std::uint64_t drops = std::accumulate(t.run.drops.begin(), t.run.drops.end(), std::uint64_t{0});
    out += "TCP paths " + std::to_string(t.tcp_paths_agree) + "/" + std::to_string(t.bytes.size()) +
           " flows' segments crossed their UDP path in their own class; " + std::to_string(drops) +
           " segments dropped by full flow queues\n";
  }
  return out;
}

}  // namespace

std::string time_table(const Simulation& sim, const TimeReport& t) {
  std::string out = "\n" + header_lines(sim, t);
  if (!t.ran()) return out;
  constexpr std::size_t kLabel = 24, kCol = 12;
  const std::string head = pad_right("", kLabel) + pad_left("predicted", kCol) + pad_left("measured", kCol) +
                           pad_left("error", kCol);
  out += "\n" + head + "\n" + std::string(head.size(), '-') + "\n";
  out += pad_right("completion (ms)", kLabel) + pad_left(ms(t.completion_predicted), kCol) +
         pad_left(ms(t.completion_measured), kCol) +
         pad_left(percent(rel_error(t.completion_measured, t.completion_predicted)), kCol) + "\n";
  out += pad_right("ideal (ms)", kLabel) + pad_left(ms(t.ideal), kCol) + pad_left(ms(t.ideal), kCol) + "\n";
  out += pad_right("slowdown", kLabel) + pad_left(fixed(t.slowdown_predicted, 4), kCol) +
         pad_left(fixed(t.slowdown_measured, 4), kCol) + pad_left(percent(t.relative_error), kCol) + "\n";

  // Every flow, latest predicted finish first.
  const workloads::Flows& flows = sim.flows();
  std::vector<std::size_t> order(flows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t.finish_predicted[a] > t.finish_predicted[b]; });
  constexpr std::size_t kFlow = 44, kShown = 64;
  out += "\nflow finish times (ms)\n" + pad_right("flow", kFlow) + pad_left("predicted", kCol) +
         pad_left("measured", kCol) + pad_left("error", kCol) + "\n" + std::string(kFlow + 3 * kCol, '-') + "\n";
  for (std::size_t k = 0; k < std::min(kShown, order.size()); ++k) {
    const std::size_t i = order[k];
    out += pad_right(flow_name(flows, i), kFlow) + pad_left(ms(t.finish_predicted[i]), kCol) +
           pad_left(ms(t.finish_measured[i]), kCol) +
           pad_left(percent(rel_error(t.finish_measured[i], t.finish_predicted[i])), kCol) + "\n";
  }
  if (order.size() > kShown)
    out += "... and " + std::to_string(order.size() - kShown) + " more (every flow is in --format json)\n";
  return out;
}

void add_time_json(const TimeReport& t, nlohmann::ordered_json& doc) {
  doc["slowdown_measured"] = t.slowdown_measured;
  doc["slowdown_predicted"] = t.slowdown_predicted;
  doc["completion_measured_s"] = t.completion_measured;
  doc["completion_predicted_s"] = t.completion_predicted;
  doc["ideal_s"] = t.ideal;
  doc["relative_error"] = t.relative_error;
  doc["time_agree"] = t.agree();
  const auto& tr = t.run.transfer;
  nlohmann::ordered_json time = {{"scale", t.scale},
                                 {"scale_text", scale_text(t.scale)},
                                 {"scale_chosen", t.scale_chosen},
                                 {"max_scale", t.max_scale},
                                 {"stretch", t.stretch},
                                 {"queue", name_of(kQueueModes, t.queue)},
                                 {"congestion", t.congestion},
                                 {"ring_steps", t.ring_steps},
                                 {"tolerance", t.tolerance},
                                 {"timeout_s", t.timeout},
                                 {"flows_finished", t.finished},
                                 {"tcp_paths_agree", nullptr},
                                 {"drops", std::accumulate(t.run.drops.begin(), t.run.drops.end(), std::uint64_t{0})},
                                 {"emulated_seconds", tr.seconds},
                                 {"setup_seconds", t.run.setup_seconds},
                                 {"connect_seconds", tr.connect_seconds},
                                 {"cpu_kernel", tr.cpu_kernel},
                                 {"timed_out", tr.timed_out},
                                 {"broken", tr.failed}};
  if (t.tcp_paths_checked) time["tcp_paths_agree"] = t.tcp_paths_agree;
  if (!t.skipped.empty()) time["skipped"] = t.skipped;
  doc["time"] = std::move(time);
}

nlohmann::ordered_json flow_time_json(const TimeReport& t, std::size_t i) {
  nlohmann::ordered_json row = {{"bytes_sent", t.bytes[i]},
                                {"finish_predicted_s", t.finish_predicted[i]},
                                {"finish_measured_s", nullptr},
                                {"relative_error", nullptr}};
  if (!t.ran()) return row;
  row["finish_measured_s"] = t.finish_measured[i];
  row["relative_error"] = rel_error(t.finish_measured[i], t.finish_predicted[i]);
  if (t.tcp_paths_checked) {
    row["tcp_on_path"] = t.run.tcp_on_path[i] != 0;
    row["drops"] = t.run.drops[i];
  }
  return row;
}

}  // namespace ecmpsim
