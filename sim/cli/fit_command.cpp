// `ecmpsim fit OBS.csv --members N`: learn a switch's hash from the members
// its flows were seen to take (sim/fit), print the ranked models, or with
// --predict the best model's member for each flow of a tuples file. A file
// with a switch column is fitted switch by switch (sim/fit/switches.h).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "hashing/suggest.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/parallel.h"
#include "sim/base/text.h"
#include "sim/cli/cli.h"
#include "sim/cli/fit_one.h"
#include "sim/config/ranges.h"
#include "sim/fit/fit_report.h"
#include "sim/routing/hash_query.h"

namespace ecmpsim::cli {
namespace {

std::string read_named(const FitOptions& o, const std::string& path) {
  return read_input_or_stdin(path, "file", {o.max_capture_bytes, "--max-capture-bytes"});
}

// `members` is the group's size: every switch's when several are fitted
// (each fit sets its own), so the weights are checked against it only for one.
fit::FitOptions fit_options(const FitOptions& o, const fit::Observations& obs, std::uint32_t members) {
  fit::FitOptions f;
  f.group.members = members;
  f.group.weights = o.weights;
  f.group.buckets = o.buckets;
  if (!o.weights.empty() && o.weights.size() != members)
    throw InputError({{}, 0, 0, "--weights"}, "expected " + std::to_string(members) + " weights, one per member");
  if (!o.weights.empty() && o.buckets < members)
    throw InputError({{}, 0, 0, "--buckets"}, "need at least one bucket per member");
  for (const std::string& name : o.algos) {
    const hashing::Algorithm* a = hashing::find(name);
    if (a == nullptr) throw InputError({{}, 0, 0, "--algos"}, unknown_algorithm(name));
    f.algos.push_back(a);
  }
  if (!o.fields.empty()) {
    std::vector<hashing::Field> list;
    for (const std::string& name : o.fields) {
      const auto field = hashing::parse_field(name);
      if (!field) throw InputError({{}, 0, 0, "--fields"}, unknown_field(name));
      if (std::find(obs.fields.begin(), obs.fields.end(), *field) == obs.fields.end())
        throw InputError({{}, 0, 0, "--fields"}, "'" + name + "' is not a column of " + obs.source);
      list.push_back(*field);
    }
    if (const auto r = hashing::repeated_field(list))
      throw InputError({{}, 0, 0, "--fields"}, "hash field '" + std::string(hashing::field_name(*r)) + "' listed twice");
    f.fields = std::move(list);
  }
  const UintRange seeds = parse_range(o.seeds, 0xFFFFFFFFu, {{}, 0, 0, "--seeds"});
  if (seeds.step != 1) throw InputError({{}, 0, 0, "--seeds"}, "expected A:B without a step");
  f.seed_begin = seeds.first;
  f.seed_end = seeds.end;
  f.exhaustive = o.exhaustive;
  f.threads = o.threads == 0 ? default_threads() : o.threads;
  f.keep = o.top;
  return f;
}

// Draws the seed search's progress on a terminal once it has run for a second.
class Progress {
 public:
  Progress(fit::SearchProgress& p, bool tty) : p_(p), tty_(tty) {
    if (tty_) thread_ = std::thread([this] { loop(); });
  }
  ~Progress() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  void loop() {
    const auto start = std::chrono::steady_clock::now();
    bool drawn = false;
    while (!done_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const auto total = p_.total.load(), done = p_.done.load();
      if (elapsed < 1.0 || total == 0 || done_.load()) continue;
      const double frac = static_cast<double>(done) / static_cast<double>(total);
      const double rate = static_cast<double>(done) / elapsed;
      const int filled = static_cast<int>(frac * 30);
      std::fprintf(stderr, "\r[%s%s] %5.1f%%  seeds %llu/%llu  %.3g/s  ETA %.0fs ",
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(30 - filled), '.').c_str(), 100 * frac,
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total), rate,
                   rate > 0 ? static_cast<double>(total - done) / rate : 0.0);
      drawn = true;
    }
    if (drawn) std::fprintf(stderr, "\r\033[K");
  }

  fit::SearchProgress& p_;
  bool tty_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// The files fit reads: what --out must not replace.
std::vector<std::string> fit_inputs(const FitOptions& o) { return {o.observations, o.predict}; }

std::string predictions(const FitOptions& o, const fit::FitResult& r) {
  const fit::Predictor predict(r);
  const std::string name = o.predict == "-" ? "<stdin>" : o.predict;
  std::string text = "member\n";
  std::size_t row = 0;
  for_each_tuple_csv(read_named(o, o.predict), name, [&](const hashing::Tuple& t) {
    ++row;
    const auto m = predict(t);
    if (!m)
      throw InputError({name, 0, 0, {}}, "flow " + std::to_string(row) + " (" + hashing::format_ip(t.src_ip) + ":" +
                                             std::to_string(t.sport) + " -> " + hashing::format_ip(t.dst_ip) + ":" +
                                             std::to_string(t.dport) +
                                             "): the observations do not determine its member (its key bits are "
                                             "not a combination of observed ones); add observations");
    text += std::to_string(*m) + "\n";
  });
  return text;
}

int emit_predictions(const FitOptions& o, Io io, const fit::FitResult& r) {
  const std::string text = predictions(o, r);
  if (!r.certain)
    io.err << "ecmpsim: note: the fitted model is not certain; add about " << r.more_needed
           << " more observations (run without --predict for the candidates)\n";
  emit(io, text, o.out, fit_inputs(o));
  return 0;
}

// The rows of --switch NAME as a one-switch trace, with its group size.
fit::SwitchRows one_switch(const fit::Observations& obs, const std::string& only, const fit::MembersSpec& members) {
  fit::Observations mine = obs;
  mine.switch_names = {only};
  for (fit::Observation& row : mine.rows) row.sw = 0;
  fit::MembersSpec spec;
  spec.all = members.all;
  if (const auto it = members.named.find(only); it != members.named.end()) spec.named.emplace(only, it->second);
  for (const auto& [name, n] : members.named)
    if (std::find(obs.switch_names.begin(), obs.switch_names.end(), name) == obs.switch_names.end())
      throw InputError({{}, 0, 0, "--members"}, "no switch '" + name + "' in " + obs.source);
  return fit::split_switches(mine, spec).front();
}

}  // namespace

Result Fitted::result() const {
  return one ? fit::fit_result(rows(), *one) : fit::switches_result(switches, groups);
}

Fitted fit_observations(const FitOptions& o, std::string_view text, const std::string& name, std::ostream& err,
                        bool tty) {
  Fitted out;
  out.obs = fit::read_observations(text, name, o.only_switch);
  const fit::Observations& obs = out.obs;
  const fit::MembersSpec members = o.members.empty() ? fit::MembersSpec{} : fit::parse_members(o.members);
  fit::SearchProgress progress;
  // A file with a switch column and no --switch: every switch, one model per
  // group of switches that share it.
  if (!obs.switch_names.empty() && o.only_switch.empty()) {
    out.switches = fit::split_switches(obs, members);
    if (!o.weights.empty() && out.switches.size() > 1)
      throw InputError({{}, 0, 0, "--weights"}, "weights are one group's: give --switch NAME (the file holds " +
                                                    std::to_string(out.switches.size()) + " switches)");
    fit::FitOptions f = fit_options(o, obs, out.switches.front().members);
    f.progress = &progress;
    const Progress bar(progress, tty);
    out.groups = fit::fit_switches(out.switches, f);
    return out;
  }
  if (!o.only_switch.empty()) {
    out.picked = one_switch(obs, o.only_switch, members);
  } else if (!members.named.empty()) {
    throw InputError({{}, 0, 0, "--members"}, "NAME=N names a switch, but " + obs.source + " has no 'switch' column");
  } else if (!members.all) {
    throw InputError({{}, 0, 0, "--members"},
                     "required: " + obs.source + " has no 'switch' column to take each switch's group size from");
  }
  const fit::Observations& rows = out.rows();
  fit::FitOptions f = fit_options(o, rows, out.picked ? out.picked->members : *members.all);
  if (out.picked && out.picked->members_from_rows)
    err << "ecmpsim: note: " << escape_text(rows.whose) << ": members " << out.picked->members << " from the "
        << fit::members_origin(*out.picked) << "\n";
  f.progress = &progress;
  const Progress bar(progress, tty);
  out.one = fit::fit(rows, f);
  return out;
}

namespace {

int run_fit(const FitOptions& o, Io io) {
  check_out(o.out, fit_inputs(o));
  const std::string name = o.observations == "-" ? "<stdin>" : o.observations;
  const Fitted fitted = fit_observations(o, read_named(o, o.observations), name, io.err, ::isatty(STDERR_FILENO) != 0);
  if (o.predict.empty()) {
    emit(io, chosen_format(o.format), fitted.result(), o.out, fit_inputs(o));
    return 0;
  }
  if (fitted.groups.size() > 1)
    throw InputError({{}, 0, 0, "--predict"}, "the switches of " + fitted.obs.source + " follow " +
                                                  std::to_string(fitted.groups.size()) +
                                                  " different models: give --switch NAME to predict one's members");
  return emit_predictions(o, io, fitted.one ? *fitted.one : fitted.groups.front().result);
}

}  // namespace

Action add_fit_command(CLI::App& app) {
  auto o = std::make_shared<FitOptions>();
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
  return [o](Io io) { return run_fit(*o, io); };
}

}  // namespace ecmpsim::cli
