// The command line's entry point, apart from the flags: main(), the MPI main
// and the tests that run a command in-process need only run() and Io, and
// this header spares them CLI11 (84k preprocessed lines) and the config's
// whole Spec, which sim/cli/cli.h brings for the subcommands.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "sim/base/error.h"

namespace ecmpsim::app {
class Ranks;  // sim/app/ranks.h
}

namespace ecmpsim::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
  // Set by the MPI build's main when several ranks run: `sweep` splits its
  // work across them, and every other command runs on rank 0 alone.
  const app::Ranks* ranks = nullptr;
};

// An error message as the one line the command line prints after "ecmpsim: "
// (sim/base/error.h).
using ecmpsim::one_line;

// Runs one command line; returns the exit code (0 ok, 2 bad input, 1 internal error).
int run(int argc, const char* const* argv, Io io);

}  // namespace ecmpsim::cli
