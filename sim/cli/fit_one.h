// `ecmpsim fit` without --predict, its flags as values: the observations
// fitted as the command fits them (one switch, or every switch of a switch
// column grouped by shared model) and the result it prints. The command line
// fills FitOptions from its flags, the Python module (python/) from keyword
// arguments, so both fit, report and refuse alike.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/format.h"
#include "sim/base/limits.h"
#include "sim/fit/fit.h"
#include "sim/fit/switches.h"

namespace ecmpsim::cli {

struct FitOptions {
  std::string observations, predict, out, format, seeds = "0:65536", only_switch, members;
  std::uint32_t buckets = 128, threads = 0, top = 20;
  std::vector<std::uint32_t> weights;
  std::vector<std::string> algos, fields;
  bool exhaustive = false;
  std::uint64_t max_capture_bytes = Limits{}.max_capture_bytes;  // of the observations and --predict
};

// What fitting a file's observations gave: one fit (one switch, or a file
// without a switch column), else every switch's, grouped by shared model.
struct Fitted {
  fit::Observations obs;
  std::optional<fit::SwitchRows> picked;  // --switch NAME: its rows
  std::optional<fit::FitResult> one;
  std::vector<fit::SwitchRows> switches;
  std::vector<fit::SwitchGroupFit> groups;
  const fit::Observations& rows() const { return picked ? picked->obs : obs; }
  // The shapes `fit` writes; borrows this.
  Result result() const;
};

// Fits the observations `text` (the file `name`); notes go to `err`, a
// progress bar too when `tty`. InputError as `ecmpsim fit` reports it.
Fitted fit_observations(const FitOptions& o, std::string_view text, const std::string& name, std::ostream& err,
                        bool tty);

}  // namespace ecmpsim::cli
