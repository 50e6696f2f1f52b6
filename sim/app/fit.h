// `fit`: learn a switch's hash from the members its flows were seen to take
// (sim/fit), its options as values: the observations fitted as the command
// fits them (one switch, or every switch of a switch column grouped by
// shared model), the result it prints, or with `predict` the best model's
// member for each flow of a tuples file. The command line fills FitOptions
// from its flags, the Python module (python/) from keyword arguments, so
// both fit, report and refuse alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/app/progress.h"
#include "sim/base/format.h"
#include "sim/base/limits.h"
#include "sim/fit/fit.h"
#include "sim/fit/switches.h"

namespace ecmpsim::app {

struct FitOptions {
  std::string observations, predict, seeds = "0:65536", only_switch, members;
  std::string seed_as;  // register, prefix or xor; empty: the --algos names' vocabulary's
  std::uint32_t buckets = 128, threads = 0, top = 20;
  std::vector<std::uint32_t> weights;
  std::vector<std::string> algos, fields;
  bool exhaustive = false;
  std::uint64_t max_capture_bytes = Limits{}.max_capture_bytes;  // of the observations and predict
  std::string out;  // where the door will write: refused before the work if it names an input
};

// What fitting a file's observations gave: one fit (one switch, or a file
// without a switch column), else every switch's, grouped by shared model.
struct Fitted {
  fit::Observations obs;
  std::optional<fit::SwitchRows> picked;  // --switch NAME: its rows
  std::optional<fit::FitResult> one;
  std::vector<fit::SwitchRows> switches;
  std::vector<fit::SwitchGroupFit> groups;
  std::vector<std::string> notes;  // "note: ..." lines
  const fit::Observations& rows() const { return picked ? picked->obs : obs; }
  // The shapes `fit` writes; borrows this.
  Result result() const;
};

// Fits the observations `text` (the file `name`). InputError as `ecmpsim
// fit` reports it.
Fitted fit_observations(const FitOptions& o, std::string_view text, const std::string& name,
                        const Progress& progress = {});

// What `fit` answers: the fit, and with `predict` the member per flow (a
// CSV "member" column) and its notes.
struct FitReport {
  Fitted fitted;
  std::optional<std::string> predictions;
  std::vector<std::string> notes;  // the fit's, then the prediction's
  std::vector<std::string> inputs;  // the files read: what no output may replace
};
// Reads `observations` (and `predict`; '-': standard input) and fits.
FitReport fit(const FitOptions& o, const Progress& progress = {});

}  // namespace ecmpsim::app
