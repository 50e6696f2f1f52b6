// `ecmpsim run`: its flags, as app::RunRequest (sim/app/run.h), the
// progress line while it runs, its notes on stderr and its result written.
#include <optional>
#include <unistd.h>

#include "sim/app/run.h"
#include "sim/cli/cli.h"
#include "sim/cli/progress_line.h"
#include "sim/cli/size_flags.h"
#include "workloads/import/importers.h"
#include "sim/config/config.h"
#include "sim/output/output.h"
#include "sim/base/parse.h"
#include "sim/base/text.h"
#include "sim/routing/seeds.h"

namespace ecmpsim::cli {
namespace {

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

}  // namespace

Action add_run_command(CLI::App& app) {
  struct Options {
    app::RunRequest q;
    std::string format, flows, flows_format, rdma_map, flow_bytes;
  };
  auto opt = std::make_shared<Options>();
  app::RunRequest& q = opt->q;
  CLI::App* sub = app.add_subcommand("run", "Route the config's flows under every scenario and report imbalance");
  sub->add_option("config", q.config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, q.out, "the output");
  add_limit_flags(sub, q.limits, true);
  add_override_flags(sub, q.overrides, q.seed_mode);
  sub->add_option("--down", q.down,
                  "What-if failures: comma-separated cables (leaf0-spine1, leaf1-spine0#2) and switches (spine2); "
                  "each scenario is reported healthy and, next to it, as NAME+down with these down")
      ->delimiter(',');
  sub->add_option("--flows", opt->flows,
                  "Import the flows from FILE instead of generating the config's workload (rdma: FILE,FILE... "
                  "or a directory)")
      ->check(file_role(FileRole::InputList));
  sub->add_option("--flows-format", opt->flows_format,
                  "Format of --flows: " + or_list(names_of(workloads::importers())) + " (default: detected)")
      ->check(one_of(workloads::importers()));
  sub->add_option("--rdma-map", opt->rdma_map, "rdma: CSV map host,ifname,ip from RDMA devices to addresses")
      ->check(file_role(FileRole::Input));
  sub->add_option("--flow-bytes", opt->flow_bytes,
                  "rdma: bytes each QP pair carries, half in each direction (default: the first job's "
                  "message_bytes)")
      ->check(byte_size());
  sub->add_flag("--allow-unpaired", q.allow_unpaired,
                "rdma: skip (and count) QPs with no partner instead of failing");
  add_size_flags(sub, q.sizes);
  sub->add_flag("--no-slowdown", q.no_slowdown,
                "Skip the flow model: routes and imbalance only, no predicted times (faster on large workloads)");
  sub->footer(busbw_help_text() + "Config keys (TOML):\n" + config_reference());
  return [opt, sub](Io io) {
    app::RunRequest q = opt->q;
    // Each import flag given or not, whatever its value.
    const auto given = [&](const char* flag, const std::string& v) {
      return sub->count(flag) > 0 ? std::optional(v) : std::nullopt;
    };
    q.flows = given("--flows", opt->flows);
    q.flows_format = given("--flows-format", opt->flows_format);
    q.rdma_map = given("--rdma-map", opt->rdma_map);
    if (sub->count("--flow-bytes") > 0) q.flow_bytes = parse_size(opt->flow_bytes)->value;  // checked by byte_size
    std::optional<InterruptExits> interrupt(std::in_place);
    std::optional<ProgressLine> line(std::in_place, ::isatty(STDERR_FILENO) != 0);
    const app::RunReport report = app::run(q, line->callback());
    line.reset();
    interrupt.reset();
    for (const auto& n : report.notes) io.err << "ecmpsim: " << escape_text(n) << "\n";
    emit(io, chosen_format(opt->format), run_result(*report.data), q.out, report.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
