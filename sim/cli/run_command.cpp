#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.h"
#include "sim/cli/size_flags.h"
#include "sim/config/config.h"
#include "sim/base/error.h"
#include "sim/model/flows_import.h"
#include "sim/output/output.h"
#include "sim/base/parse.h"
#include "sim/base/text.h"
#include "sim/routing/seeds.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"
#include "sim/config/overrides.h"
#include "sim/routing/flow_label_note.h"

namespace ecmpsim::cli {
namespace {

// The first p NICs of the search order: "0..3" when they run in index order, else "3, 2".
std::string search_nics_text(std::span<const std::uint32_t> order, std::uint32_t p) {
  bool in_order = true;
  for (std::uint32_t i = 0; i < p; ++i) in_order = in_order && order[i] == i;
  if (in_order) return "0.." + std::to_string(p - 1);
  std::string out;
  for (std::uint32_t i = 0; i < p; ++i) out += (i ? ", " : "") + std::to_string(order[i]);
  return out;
}

// Ring and tree channel c leaves by NIC (c mod P) mod K: with fewer search
// channels P than NICs K (NCCL's default P = ceil(channels / 2)), NICs
// P..K-1 carry none of the job, which a user counting channels against NICs
// would not expect (issue 34 item 7).
std::vector<std::string> idle_nic_notes(const Spec& spec) {
  std::vector<std::string> out;
  const FabricSpec& fs = spec.fabric;
  const std::vector<std::uint32_t> order = workloads::search_nic_order(fs.gpu_nics, fs.gpus_per_node, fs.nics_per_node);
  const auto k = static_cast<std::uint32_t>(order.size());
  for (const JobSpec& j : spec.jobs) {
    const bool rings_or_trees =
        workloads::collective_info(j.collective).shape != workloads::CollectiveShape::PointToPoint;
    const std::uint32_t p = j.search_channels ? j.search_channels : workloads::default_search_channels(j.channels);
    if (!rings_or_trees || k < 2 || p >= k) continue;
    out.push_back("note: job '" + j.name + "': " + std::to_string(j.channels) + " channels search " +
                  std::to_string(p) + (j.search_channels ? "" : " (NCCL doubles what its search finds)") +
                  ", so they leave each node by NICs " + search_nics_text(order, p) + " of its " + std::to_string(k) +
                  "; set search_channels (or more channels) if NCCL's log shows more");
  }
  return out;
}

void add_override_flags(CLI::App* sub, Overrides& o, std::string& seed_mode) {
  sub->add_option("--scenario", o.scenario, "Evaluate only the scenario of this name");
  sub->add_option("--algo", o.algo, "Hash algorithm of every ECMP scenario (catalogue name)");
  sub->add_option("--seed", o.seed, "Hash seed of every switch of every ECMP scenario (32-bit; replaces per-tier and per-switch seeds)")->check(integer_in(0, 0xFFFFFFFF));
  sub->add_option("--seed-mode", seed_mode, "How the seed reaches switches: same, per-tier or per-switch")
      ->check(one_of(kSeedModes));
  sub->add_option("--sport-base", o.sport_base, "Source ports from this base (the \"range\" model)")
      ->check(integer_in(0, 0xFFFF));
  sub->add_option("--qpn-base", o.qpn_base, "First QP number on every NIC")->check(integer_in(0, 0xFFFFFF));
  sub->add_option("--qps", o.qps, "QPs per connection")->check(integer_in(1, 128));
  sub->add_option("--placement-seed", o.placement_seed, "Place ranks by a shuffle with this seed (\"random\")")
      ->check(integer_in(0, ~0ULL >> 1));
}

// Ctrl-C during a run: one line and exit 130 at once, whatever the stage
// (reading flows, routing, the flow model). Nothing is written before the
// run ends, so no partial output is left; the handler is only installed
// until then. A signal handler reaches static storage only: whether the
// progress line is on screen (and must be cleared) is the one flag.
std::atomic<bool> g_run_line_drawn{false};
static_assert(std::atomic<bool>::is_always_lock_free, "read in a signal handler");
extern "C" void on_run_interrupt(int) {
  static constexpr char kMessage[] = "\r\033[Kecmpsim: interrupted\n";
  const std::size_t skip = g_run_line_drawn.load() ? 0 : 4;  // the clearing escape only over a progress line
  if (::write(STDERR_FILENO, kMessage + skip, sizeof kMessage - 1 - skip) < 0) ::_exit(130);
  ::_exit(130);
}

// While alive: SIGINT exits as above, and on a terminal, once the run has
// taken 2 s, a progress line shows the flow model's events, the simulated
// time reached, the flows finished and an ETA from their rate.
class RunProgress {
 public:
  explicit RunProgress(bool tty) : tty_(tty) {
    g_run_line_drawn.store(false);
    struct sigaction sa {};
    sa.sa_handler = on_run_interrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    if (tty_) thread_ = std::thread([this] { loop(); });
  }
  ~RunProgress() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
    ::sigaction(SIGINT, &old_int_, nullptr);
  }
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;
  FlowProgress* model() { return &model_; }

 private:
  void loop() {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto run_start = start;
    std::uint64_t last_events = 0;
    while (!done_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const auto t = Clock::now();
      const std::uint64_t events = model_.events.load(std::memory_order_relaxed);
      if (events < last_events || last_events == 0) run_start = t;  // the next scenario's run
      last_events = events;
      const std::uint64_t flows = model_.flows.load(std::memory_order_relaxed);
      const std::uint64_t done = model_.finished.load(std::memory_order_relaxed);
      // (a new scenario's run may show its flows before its counts are reset)
      if (std::chrono::duration<double>(t - start).count() < 2.0 || flows == 0 || done > flows || done_.load())
        continue;
      const double spent = std::chrono::duration<double>(t - run_start).count();
      const double eta = done > 0 ? spent * static_cast<double>(flows - done) / static_cast<double>(done) : 0.0;
      std::fprintf(stderr, "\rflow model: %llu events, %.6g s simulated, %llu/%llu flows finished, ETA %.0f s \033[K",
                   static_cast<unsigned long long>(events), model_.now.load(std::memory_order_relaxed),
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(flows), eta);
      g_run_line_drawn.store(true);
    }
    if (g_run_line_drawn.load()) std::fprintf(stderr, "\r\033[K");
    g_run_line_drawn.store(false);
  }

  bool tty_;
  FlowProgress model_;
  std::atomic<bool> done_{false};
  std::thread thread_;
  struct sigaction old_int_ {};
};

// Every scenario gets a twin NAME+down with the listed failures added.
void add_down_scenarios(Spec& spec, const std::vector<std::string>& list) {
  std::vector<LinkRef> refs;
  for (const std::string& item : list) refs.push_back({item, {{}, 0, 0, "--down"}});
  std::vector<ScenarioSpec> out;
  for (const ScenarioSpec& s : spec.scenarios) {
    out.push_back(s);
    ScenarioSpec twin = s;
    twin.base = s.name;
    twin.name = s.name + "+down";
    twin.down.insert(twin.down.end(), refs.begin(), refs.end());
    out.push_back(std::move(twin));
  }
  spec.scenarios = std::move(out);
}

}  // namespace

Action add_run_command(CLI::App& app) {
  struct Options {
    Limits limits;
    std::string config;
    std::string format;
    std::string out;
    Overrides overrides;
    std::string seed_mode;
    std::vector<std::string> down;
    FlowsImportOptions import;
    std::string flow_bytes;
    SizeFlags sizes;
    bool no_slowdown = false;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("run", "Route the config's flows under every scenario and report imbalance");
  sub->add_option("config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  add_limit_flags(sub, opt->limits, true);
  add_override_flags(sub, opt->overrides, opt->seed_mode);
  sub->add_option("--down", opt->down,
                  "What-if failures: comma-separated cables (leaf0-spine1, leaf1-spine0#2) and switches (spine2); "
                  "each scenario is reported healthy and, next to it, as NAME+down with these down")
      ->delimiter(',');
  sub->add_option("--flows", opt->import.flows,
                  "Import the flows from FILE instead of generating the config's workload (rdma: FILE,FILE... "
                  "or a directory)")
      ->check(file_role(FileRole::InputList));
  sub->add_option("--flows-format", opt->import.format, "Format of --flows: csv, rdma or pcap (default: detected)")
      ->check(one_of(workloads::kFlowsFormats));
  sub->add_option("--rdma-map", opt->import.rdma_map, "rdma: CSV map host,ifname,ip from RDMA devices to addresses")
      ->check(file_role(FileRole::Input));
  sub->add_option("--flow-bytes", opt->flow_bytes,
                  "rdma: bytes each QP pair carries, half in each direction (default: the first job's "
                  "message_bytes)")
      ->check(byte_size());
  sub->add_flag("--allow-unpaired", opt->import.allow_unpaired,
                "rdma: skip (and count) QPs with no partner instead of failing");
  add_size_flags(sub, opt->sizes);
  sub->add_flag("--no-slowdown", opt->no_slowdown,
                "Skip the flow model: routes and imbalance only, no predicted times (faster on large workloads)");
  sub->footer("Config keys (TOML):\n" + config_reference());
  return [opt, sub](Io io) {
    std::optional<RunProgress> progress(std::in_place, ::isatty(STDERR_FILENO) != 0);
    const std::string path = opt->config.empty() ? default_config_path() : opt->config;
    Spec spec = load_spec(path, opt->limits);
    Overrides o = opt->overrides;
    if (!opt->seed_mode.empty()) o.seed_mode = parse_name(kSeedModes, opt->seed_mode);
    apply_overrides(spec, o);
    check_hash_overrides(spec, o);
    apply_size_flags(spec, opt->sizes);
    if (!opt->down.empty()) add_down_scenarios(spec, opt->down);
    const std::vector<std::string> inputs = spec_inputs(spec, {opt->import.flows, opt->import.rdma_map});
    check_out(opt->out, inputs);
    if (!opt->flow_bytes.empty()) opt->import.flow_bytes = parse_size(opt->flow_bytes);  // checked by byte_size
    if (sub->count("--flows") > 0 && opt->import.flows.empty())
      throw InputError({{}, 0, 0, "--flows"}, "no file given");
    if (opt->import.flows.empty()) {
      for (const char* flag : {"--flows-format", "--rdma-map", "--flow-bytes", "--allow-unpaired"})
        if (sub->count(flag) > 0) throw InputError({{}, 0, 0, flag}, "only used with --flows");
    }
    if (!opt->import.flows.empty() && wants_sizes(spec))
      throw InputError({{}, 0, 0, "--flows"}, "no size table for imported flows (they name no collective)");
    if (opt->no_slowdown && wants_sizes(spec))
      throw InputError({{}, 0, 0, "--no-slowdown"}, "the size table needs the flow model that --no-slowdown turns off");
    std::vector<std::string> notes =
        opt->import.flows.empty() ? idle_nic_notes(spec) : std::vector<std::string>{};
    const Simulation sim = [&] {
      if (opt->import.flows.empty()) return Simulation(std::move(spec));
      const auto imported = import_flows(opt->import, spec);
      notes.insert(notes.end(), imported.notes.begin(), imported.notes.end());
      return Simulation(std::move(spec), imported);
    }();
    if (opt->import.flows.empty())
      if (const auto note = flow_label_note(sim.spec(), sim.fabric().family())) notes.push_back("note: " + *note);
    const auto results = sim.run_all({!opt->no_slowdown, progress->model()});
    progress.reset();
    for (const auto& n : notes) io.err << "ecmpsim: " << escape_text(n) << "\n";
    emit(io, chosen_format(opt->format), run_result(sim, results), opt->out, inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
