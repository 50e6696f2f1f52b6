// Runs the ecmpsim command line in-process and captures what it prints.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "sim/cli/run.h"

struct CliResult {
  int code;
  std::string out, err;
};

inline CliResult cli_run(std::vector<std::string> args) {
  args.insert(args.begin(), "ecmpsim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = ecmpsim::cli::run(static_cast<int>(argv.size()), argv.data(), {out, err});
  return {code, out.str(), err.str()};
}
