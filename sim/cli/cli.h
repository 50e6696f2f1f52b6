// The command line: thin wrappers that parse flags, call the library and print.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/base/output_file.h"
#include "sim/cli/file_flags.h"
#include "sim/cli/run.h"
#include "sim/base/limits.h"

namespace ecmpsim::cli {

// A subcommand's body, run after its flags are parsed.
using Action = std::function<int(Io)>;

// Each subcommand registers its flags on `app` and returns its body.
Action add_run_command(CLI::App& app);
Action add_sweep_command(CLI::App& app);
Action add_plan_command(CLI::App& app);  // in sweep_command.cpp
Action add_hash_command(CLI::App& app);
Action add_flows_command(CLI::App& app);
Action add_report_command(CLI::App& app);
Action add_reproduce_command(CLI::App& app);
Action add_emulate_command(CLI::App& app);
Action add_init_command(CLI::App& app);
Action add_fit_command(CLI::App& app);
Action add_calibrate_command(CLI::App& app);
Action add_topology_command(CLI::App& app);
Action add_validate_command(CLI::App& app);  // in calibrate_command.cpp
Action add_replay_command(CLI::App& app);

// Every subcommand registered on `app`, with its body, in --help's order.
std::vector<std::pair<CLI::App*, Action>> add_commands(CLI::App& app);

// Shared by subcommands.
// Checks for numeric flags whose messages name the accepted range plainly
// ("expected an integer in [1, 128], got '0'"); CLI11's own print the limits
// of a double.
CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi);
CLI::Validator number_at_least(double lo);
CLI::Validator number_in(double lo, double hi);
// A byte size (sim/base/parse.h: 4096, 512M, 1G, 256MiB, 1GB) of at least
// `lo` bytes, rewritten to its number of bytes before the option converts it.
CLI::Validator byte_size(std::uint64_t lo = 1);
// The --help layout of every command (sim/cli/help.cpp): value names and
// "(range, default: X)" instead of CLI11's type names.
std::shared_ptr<CLI::FormatterBase> help_formatter();
// The names of an enum's one table (sim/base/named.h), as a flag's accepted values.
template <class Table>
CLI::Validator one_of(const Table& table) {
  return CLI::IsMember(names_of(table));
}
// The limit flags (sim/base/limits.h) on `sub`, and --max-capture-bytes when
// the command reads a measurement file (a --flows file, --emulation, ...).
void add_limit_flags(CLI::App* sub, Limits& limits, bool reads_measurements = false);
// --max-capture-bytes alone, for a command that reads measurements but no config.
void add_capture_limit_flag(CLI::App* sub, std::uint64_t& max_bytes);
// -f,--format on `sub`: the formats written from the shapes the command's
// result comes in (sim/base/format.h), in the table's order, `fallback` by
// default; `note` ends the help, after a semicolon.
CLI::Option* add_format_flag(CLI::App* sub, std::string& format, std::initializer_list<Shape> shapes, Format fallback,
                             const std::string& note = {});
// The format a --format flag accepted.
Format chosen_format(const std::string& name);
// --out on `sub`, its help naming `what` is written ("the output", "the HTML report").
CLI::Option* add_out_flag(CLI::App* sub, std::string& out, const std::string& what);
// Writes `text` to `out_path` by write_output's rules (sim/base/output_file.h);
// empty or "-" is stdout.
void emit(Io io, const std::string& text, const std::string& out_path, std::span<const std::string> inputs = {});
// Writes `r` as `f` to `out_path` the same way, as the format's writer makes
// it: a large JSON or CSV document is never in memory whole.
void emit(Io io, Format f, const Result& r, const std::string& out_path, std::span<const std::string> inputs = {});
// Writes what `produce` makes (a page, piece by piece) to `out_path` the same way.
void emit(Io io, const OutputProducer& produce, const std::string& out_path, std::span<const std::string> inputs = {});

}  // namespace ecmpsim::cli
