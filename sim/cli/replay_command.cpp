// `ecmpsim replay TRACE... --config C`: its flags, as app::ReplayRequest
// (sim/app/replay.h), its notes on stderr and the report written (docs/traces.md).
#include <memory>

#include "sim/app/replay.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/output/replay_output.h"
#include "sim/report/report_replay.h"

namespace ecmpsim::cli {

Action add_replay_command(CLI::App& app) {
  struct Options : app::ReplayRequest {
    std::string format, out, html;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand(
      "replay", "Replay PyTorch profiler traces (one per rank) over time on the routed fabric: per collective the "
                "measured and predicted duration, per step and group the exposed communication");
  sub->add_option("traces", opt->inputs.traces,
                  "PyTorch profiler trace FILEs (.json or .json.gz, one per rank), or directories of them; none: the config's training job")
      ->check(file_role(FileRole::Input));
  sub->add_option("-c,--config", opt->config, "Experiment config (TOML); default configs/paper16.toml")
      ->check(file_role(FileRole::Input));
  sub->add_option("--inspector", opt->inputs.inspector,
                  "NCCL Inspector log FILEs (JSON per collective, NCCL >= 2.28), or directories: the measured times")
      ->check(file_role(FileRole::Input));
  sub->add_option("--flight-recorder", opt->inputs.flight_recorder,
                  "PyTorch Flight Recorder JSON dump FILEs, or directories: the process groups' members")
      ->check(file_role(FileRole::Input));
  sub->add_option("--rank-map", opt->rank_map,
                  "A CSV FILE of rank,node,gpu: where ranks run (default: in order over the config's first job's nodes, "
                  "gpus_per_node each)")
      ->check(file_role(FileRole::Input));
  sub->add_flag("--replay-gaps", opt->replay_gaps,
                "Start each collective after its predecessor on its ranks' streams plus the measured compute gap, "
                "instead of at its measured start");
  add_format_flag(sub, opt->format, {Shape::Text, Shape::Json, Shape::Csv}, Format::Table);
  add_out_flag(sub, opt->out, "the output");
  sub->add_option("--html", opt->html, "Also write an HTML page to FILE: a timeline per scenario and process group")
      ->check(file_role(FileRole::Output));
  add_limit_flags(sub, opt->limits, true);
  return [opt](Io io) {
    const app::ReplayOutcome r = app::replay(*opt);
    for (const std::string& n : r.report.notes) io.err << "ecmpsim: note: " << escape_text(n) << "\n";
    emit(io, chosen_format(opt->format), replay_result(r.report), opt->out, r.inputs);
    if (!opt->html.empty()) {
      std::vector<std::string> words{"ecmpsim", "replay"};
      words.insert(words.end(), opt->inputs.traces.begin(), opt->inputs.traces.end());
      emit(io, replay_html(r.report, shell_command(words)), opt->html, r.inputs);
    }
    return 0;
  };
}

}  // namespace ecmpsim::cli
