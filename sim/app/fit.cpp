// `fit` (see fit.h).
#include "sim/app/fit.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "hashing/suggest.h"
#include "hashing/vocabulary.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
#include "sim/base/parallel.h"
#include "sim/base/text.h"
#include "sim/config/ranges.h"
#include "sim/fit/fit_report.h"
#include "sim/routing/hash_query.h"

namespace ecmpsim::app {
namespace {

std::string read_named(const FitOptions& o, const std::string& path) {
  return read_input_or_stdin(path, "file", {o.max_capture_bytes, "max_capture_bytes"});
}

// `members` is the group's size: every switch's when several are fitted
// (each fit sets its own), so the weights are checked against it only for one.
fit::FitOptions fit_options(const FitOptions& o, const fit::Observations& obs, std::uint32_t members) {
  fit::FitOptions f;
  f.group.members = members;
  f.group.weights = o.weights;
  f.group.buckets = o.buckets;
  if (!o.weights.empty() && o.weights.size() != members)
    throw InputError(option_at("weights"), "expected " + std::to_string(members) + " weights, one per member");
  if (!o.weights.empty() && o.buckets < members)
    throw InputError(option_at("buckets"), "need at least one bucket per member");
  bool all_sai = !o.algos.empty();
  for (const std::string& name : o.algos) {
    const hashing::Algorithm* a = hashing::find(name);
    if (a == nullptr) throw InputError(option_at("algos"), unknown_algorithm(name));
    f.algos.push_back(a);
    all_sai = all_sai && hashing::algorithm_vocabulary(name) == hashing::Vocabulary::Sai;
  }
  // Seeds are searched and reported in the convention of the vocabulary the
  // algorithms are named in (SAI names: SONiC's prefix), unless seed_as says.
  const auto seed_as = !o.seed_as.empty() ? hashing::parse_seed_as(o.seed_as)
                       : all_sai          ? std::optional(hashing::vocabulary(hashing::Vocabulary::Sai).seed_as)
                                          : std::optional(hashing::SeedAs::Register);
  if (!seed_as)
    throw InputError(option_at("seed_as"),
                     "unknown convention '" + o.seed_as + "' (" + quoted_choices(hashing::kSeedAs) + ")");
  f.seed_as = *seed_as;
  if (!o.fields.empty()) {
    std::vector<hashing::Field> list;
    if (const auto why = parse_field_list(o.fields, list)) throw InputError(option_at("fields"), *why);
    for (const hashing::Field field : list)
      if (std::find(obs.fields.begin(), obs.fields.end(), field) == obs.fields.end())
        throw InputError(option_at("fields"),
                         "'" + std::string(hashing::field_name(field)) + "' is not a column of " + obs.source);
    f.fields = std::move(list);
  }
  const UintRange seeds = parse_range(o.seeds, 0xFFFFFFFFu, option_at("seeds"));
  if (seeds.step != 1) throw InputError(option_at("seeds"), "expected A:B without a step");
  f.seed_begin = seeds.first;
  f.seed_end = seeds.end;
  f.exhaustive = o.exhaustive;
  f.threads = o.threads == 0 ? default_threads() : o.threads;
  f.keep = o.top;
  return f;
}

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
      throw InputError(option_at("members"), "no switch '" + name + "' in " + obs.source);
  return fit::split_switches(mine, spec).front();
}

}  // namespace

Result Fitted::result() const {
  return one ? fit::fit_result(rows(), *one) : fit::switches_result(switches, groups);
}

Fitted fit_observations(const FitOptions& o, std::string_view text, const std::string& name,
                        const Progress& progress) {
  Fitted out;
  out.obs = fit::read_observations(text, name, o.only_switch);
  const fit::Observations& obs = out.obs;
  const fit::MembersSpec members = o.members.empty() ? fit::MembersSpec{} : fit::parse_members(o.members);
  fit::SearchProgress search;
  if (progress)
    search.changed = [&progress](const fit::SearchProgress& p) {
      progress({ProgressUpdate::Stage::SeedSearch, p.done.load(), p.total.load(), 0, 0});
    };
  // A file with a switch column and no --switch: every switch, one model per
  // group of switches that share it.
  if (!obs.switch_names.empty() && o.only_switch.empty()) {
    out.switches = fit::split_switches(obs, members);
    if (!o.weights.empty() && out.switches.size() > 1)
      throw InputError(option_at("weights"), "weights are one group's: give " + option_ref("switch") + " NAME (the file holds " +
                                                    std::to_string(out.switches.size()) + " switches)");
    fit::FitOptions f = fit_options(o, obs, out.switches.front().members);
    f.progress = &search;
    out.groups = fit::fit_switches(out.switches, f);
    return out;
  }
  if (!o.only_switch.empty()) {
    out.picked = one_switch(obs, o.only_switch, members);
  } else if (!members.named.empty()) {
    throw InputError(option_at("members"), "NAME=N names a switch, but " + obs.source + " has no 'switch' column");
  } else if (!members.all) {
    throw InputError(option_at("members"),
                     "required: " + obs.source + " has no 'switch' column to take each switch's group size from");
  }
  const fit::Observations& rows = out.rows();
  fit::FitOptions f = fit_options(o, rows, out.picked ? out.picked->members : *members.all);
  if (out.picked && out.picked->members_from_rows)
    out.notes.push_back("note: " + rows.whose + ": members " + std::to_string(out.picked->members) + " from the " +
                        fit::members_origin(*out.picked));
  f.progress = &search;
  out.one = fit::fit(rows, f);
  return out;
}

FitReport fit(const FitOptions& o, const Progress& progress) {
  FitReport r;
  r.inputs = fit_inputs(o);
  check_output(o.out.empty() ? "-" : o.out, r.inputs);
  const std::string name = o.observations == "-" ? "<stdin>" : o.observations;
  r.fitted = fit_observations(o, read_named(o, o.observations), name, progress);
  r.notes = r.fitted.notes;
  if (o.predict.empty()) return r;
  const Fitted& fitted = r.fitted;
  if (fitted.groups.size() > 1)
    throw InputError(option_at("predict"), "the switches of " + fitted.obs.source + " follow " +
                                                  std::to_string(fitted.groups.size()) +
                                                  " different models: give " + option_ref("switch") + " NAME to predict one's members");
  const fit::FitResult& best = fitted.one ? *fitted.one : fitted.groups.front().result;
  r.predictions = predictions(o, best);
  if (!best.certain)
    r.notes.push_back("note: the fitted model is not certain; add about " + std::to_string(best.more_needed) +
                      " more observations (run without " + option_ref("predict") + " for the candidates)");
  return r;
}

}  // namespace ecmpsim::app
