#include <csignal>
#include <memory>
#include <optional>
#include <ostream>
#include <nlohmann/json.hpp>

#include "sim/app/emulate.h"
#include "sim/cli/cli.h"
#include "sim/config/config.h"
#include "sim/emulate/emulate_output.h"
#include "sim/base/output_file.h"
#include "sim/output/output.h"

namespace ecmpsim::cli {
namespace {

// A signal handler can only reach static storage; this flag is the one piece
// of process-wide state, read by the emulation between steps.
volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int) { g_stop = 1; }

// Routes SIGINT/SIGTERM to the flag while alive (no SA_RESTART: a blocking
// poll returns EINTR and the loop looks at the flag), restoring the old
// handlers afterwards.
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace

Action add_emulate_command(CLI::App& app) {
  struct Options : app::EmulateRequest {
    std::string hash, predict_scenario, format, queue = "fair";
    std::uint32_t seed = 0, predict_seed = 0;
    double timeout = 0;
    bool cleanup = false;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "emulate", "Build the fabric from Linux network namespaces, send the flows, and compare with the prediction");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_option("--scenario", opt->options.scenario, "ECMP scenario to emulate (default: the first ECMP scenario)");
  sub->add_option("--hash", opt->hash, "Kernel hash: linux-l4 (policy 1) or linux-l3 (policy 0); default the "
                                       "scenario's if it is a Linux hash, else linux-l4");
  auto* seed = sub->add_option("--seed", opt->seed, "net.ipv4.fib_multipath_hash_seed of every switch (non-zero)")
                   ->check(integer_in(0, 0xFFFFFFFF));
  auto* pseed = sub->add_option("--predict-seed", opt->predict_seed,
                                "Predict with this seed instead of the kernel's (a negative control)")
                   ->check(integer_in(0, 0xFFFFFFFF));
  auto* pscenario = sub->add_option("--predict-scenario", opt->predict_scenario,
                                    "Predict with this scenario's weights and failures instead of the emulated "
                                    "one's (a negative control)");
  sub->add_option("--method", opt->method, "packets, route-get or both")
      ->check(CLI::IsMember({"packets", "route-get", "both"}));
  sub->add_option("--packets", opt->options.packets_per_flow, "UDP packets sent per flow")->check(integer_in(1, 1000));
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Json}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  sub->add_option("--observations", opt->observations,
                  "Write the measured decisions (five-tuple, switch, member) as CSV for `ecmpsim fit`")
      ->check(file_role(FileRole::Output));
  add_limit_flags(sub, opt->limits);
  sub->add_flag("--cleanup", opt->cleanup, "Delete namespaces left by emulate runs that no longer exist, and exit");
  auto* measure = sub->add_flag("--measure-time", opt->options.time.enabled,
                "Also time the flows: links shaped to speed x scale, one TCP connection per flow, all started "
                "together; compares measured and predicted slowdown");
  sub->add_option("--scale", opt->scale,
                  "Emulated / configured link speed, 1/N or a number in (0, 1]; default: the fastest link at "
                  "10 Mb/s, less if this machine cannot hold it")
      ->needs(measure);
  sub->add_option("--seconds", opt->options.time.seconds, "How long the emulated run's ideal time lasts; sets the bytes sent")
      ->check(number_in(0.1, 3600))
      ->capture_default_str()
      ->needs(measure);
  sub->add_option("--queue", opt->queue, "Link queueing: fair (a class per flow) or fifo")
      ->check(one_of(kQueueModes))
      ->capture_default_str()
      ->needs(measure);
  sub->add_option("--congestion", opt->options.time.congestion, "TCP congestion control of the timed flows")
      ->capture_default_str()
      ->needs(measure);
  auto* timeout = sub->add_option("--timeout", opt->timeout,
                                  "Seconds the timed transfers may take (default: 4 x the predicted emulated "
                                  "completion + 20)")
                      ->check(number_in(1, 86400))
                      ->needs(measure);
  sub->add_flag("--ring-steps", opt->options.time.ring_steps,
                "Hold each ring flow to its upstream neighbour's progress plus one step, as NCCL's ring does "
                "(the flow model streams every flow independently)")
      ->needs(measure);
  sub->add_option("--tolerance", opt->options.time.tolerance, "Largest relative slowdown error that agrees")
      ->check(number_in(0, 10))
      ->capture_default_str()
      ->needs(measure);
  sub->footer(
      "Needs root. Exit status: 0 every flow and link agrees (and, with --measure-time, the slowdown is within "
      "--tolerance), 3 a disagreement, 2 bad input (also a --scale this machine cannot hold), 1 internal error, "
      "130 interrupted. Namespaces are named es<pid>-<node> and removed on exit.");
  return [opt, seed, pseed, pscenario, timeout](Io io) {
    if (opt->cleanup) {
      for (const std::string& name : app::emulate_cleanup()) io.err << "ecmpsim: deleted namespace " << name << "\n";
      return 0;
    }
    app::EmulateRequest q = *opt;
    EmulateOptions& e = q.options;
    if (!opt->hash.empty()) e.hash = opt->hash;
    if (seed->count() > 0) e.seed = opt->seed;
    if (pseed->count() > 0) e.predict_seed = opt->predict_seed;
    if (pscenario->count() > 0) e.predict_scenario = opt->predict_scenario;
    e.time.queue = *parse_name(kQueueModes, opt->queue);
    if (timeout->count() > 0) e.time.timeout = opt->timeout;
    std::optional<StopSignals> signals(std::in_place);
    const app::EmulateOutcome r = app::emulate(q, &g_stop);
    signals.reset();
    if (r.interrupted) {
      io.err << "ecmpsim: interrupted; the emulated fabric was removed\n";
      return 130;
    }
    if (!opt->observations.empty())
      write_output(opt->observations, emulate_observations_csv(*r.sim, r.report), io.out, r.inputs);
    emit(io, chosen_format(opt->format), emulate_result(*r.sim, r.report), opt->out, r.inputs);
    return r.report.agree() ? 0 : 3;
  };
}

}  // namespace ecmpsim::cli
