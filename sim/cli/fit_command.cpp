// `ecmpsim fit OBS.csv --members N`: its flags, as app::FitOptions
// (sim/app/fit.h), the seed search's progress line, the notes and the
// ranked models (or with --predict the members) written.
#include <memory>
#include <optional>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "sim/app/fit.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/progress_line.h"

namespace ecmpsim::cli {

Action add_fit_command(CLI::App& app) {
  struct Options : app::FitOptions {
    std::string format;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("fit", "Learn a switch's hash from the members its flows were seen to take");
  sub->add_option("observations", o->observations,
                  "CSV: src,dst,proto,sport,dport,member (+ optional dst_qp,flow_label,in_port,switch); '-' = stdin")
      ->required()
      ->check(file_role(FileRole::Input));
  sub->add_option("-n,--members", o->members,
                  "Members in the switch's ECMP group (2..65536): N for every switch, NAME=N,... per switch of "
                  "the file's switch column, or both (N,NAME=N,...); with a switch column, a switch not given "
                  "takes the largest member of its rows + 1. Required without a switch column");
  sub->add_option("--weights", o->weights, "Per-member weights (threshold and resilient are then searched)")
      ->delimiter(',')
      ->check(integer_in(1, 1u << 24));
  sub->add_option("--buckets", o->buckets, "Bucket-table size for resilient selection")
      ->capture_default_str()
      ->check(integer_in(1, 1u << 20));
  sub->add_option("--algos", o->algos, "Only these catalogue algorithms, comma-separated (default all)")->delimiter(',');
  sub->add_option("--fields", o->fields, "Only this key field list, in order (default every subset)")->delimiter(',');
  sub->add_option("--seed-as", o->seed_as,
                  "Search and report seeds as register, prefix or xor seeds (default prefix when every --algos name "
                  "is a SAI name, else register)");
  sub->add_option("--seeds", o->seeds, "Seeds A:B (half-open) tried one by one for algorithms whose seed is not "
                                       "affine; 0:4294967296 is the full space")
      ->capture_default_str();
  sub->add_flag("--exhaustive", o->exhaustive, "Run the seed search even when an affine map explains the observations");
  sub->add_option("--switch", o->only_switch,
                  "Only the rows of this switch (the file's switch column); without it every switch is fitted "
                  "and switches sharing a model are reported together");
  sub->add_option("--top", o->top, "Models listed")->capture_default_str()->check(integer_in(1, 100000));
  sub->add_option("--predict", o->predict, "Tuples CSV (as hash --tuples): print the best model's member per flow")
      ->check(file_role(FileRole::Input));
  sub->add_option("-j,--threads", o->threads, "Threads")->default_str("all cores")->check(integer_in(1, 4096));
  add_format_flag(sub, o->format, {Shape::Text, Shape::Json}, Format::Table);
  add_out_flag(sub, o->out, "the output");
  add_capture_limit_flag(sub, o->max_capture_bytes);
  sub->footer("Exit status: 0 a model fits (see its verdict), 2 bad input or no model fits the observations.");
  return [o](Io io) {
    std::optional<ProgressLine> line(std::in_place, ::isatty(STDERR_FILENO) != 0);
    const app::FitReport r = app::fit(*o, line->callback());
    line.reset();
    for (const std::string& n : r.notes) io.err << "ecmpsim: " << escape_text(n) << "\n";
    if (r.predictions)
      emit(io, *r.predictions, o->out, r.inputs);
    else
      emit(io, chosen_format(o->format), r.fitted.result(), o->out, r.inputs);
    return 0;
  };
}

}  // namespace ecmpsim::cli
