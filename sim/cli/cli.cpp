#include "sim/cli/cli.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <ostream>
#include <sstream>
#include <vector>

#include "hashing/suggest.h"
#include "sim/cli/file_flags.h"
#include "sim/app/ranks.h"
#include "sim/config/config.h"
#include "sim/base/error.h"
#include "sim/base/output_file.h"
#include "sim/base/parse.h"
#include "sim/base/text.h"

#ifndef ECMPSIM_VERSION
#define ECMPSIM_VERSION "dev"
#endif

namespace ecmpsim::cli {

CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi) {
  const std::string range = hi == ~0ULL || hi == ~0ULL >> 1 ? ">= " + std::to_string(lo)
                                                           : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        const auto n = parse_uint(v, hi);
        if (n && *n >= lo) return {};
        return "expected an integer " + range + ", got '" + v + "'";
      },
      "INTEGER " + range);
}

CLI::Validator number_in(double lo, double hi) {
  std::ostringstream out;
  if (std::isinf(hi))
    out << ">= " << lo;
  else
    out << "in [" << lo << ", " << hi << "]";
  const std::string range = out.str();
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (!v.empty() && end == v.c_str() + v.size() && std::isfinite(x) && x >= lo && x <= hi) return {};
        return "expected a number " + range + ", got '" + v + "'";
      },
      "NUMBER " + range);
}

CLI::Validator number_at_least(double lo) { return number_in(lo, std::numeric_limits<double>::infinity()); }

CLI::Validator byte_size(std::uint64_t lo) {
  return CLI::Validator(
      [=](std::string& v) -> std::string {
        const auto b = parse_size(v);
        if (!b) return "invalid size '" + v + "' (" + std::string(kSizeExamples) + ")";
        if (b->value < lo)
          return (lo == 1 ? std::string("expected a positive size") : "expected at least " + std::to_string(lo) + " bytes") +
                 ", got '" + v + "'";
        v = std::to_string(b->value);
        return {};
      },
      "SIZE");
}

// A limit's default as --help shows it, with its unit: "1000000 switches",
// "64M = 67108864 bytes" (the binary suffix a user would type, then bytes).
static std::string limit_default_text(const LimitFlag& f) {
  const std::uint64_t v = Limits{}.*f.field;
  if (!f.bytes) return std::to_string(v) + " " + f.unit;
  std::string typed = std::to_string(v);
  for (const auto& [shift, suffix] : {std::pair{30, "G"}, std::pair{20, "M"}, std::pair{10, "K"}})
    if (v % (1ULL << shift) == 0) {
      typed = std::to_string(v >> shift) + suffix;
      break;
    }
  return typed + " = " + std::to_string(v) + " " + f.unit;
}

namespace {

void add_limit_flag(CLI::App* sub, const LimitFlag& f, std::uint64_t& value) {
  const std::string doc = f.bytes ? std::string(f.doc) + "; SIZE in " + std::string(kSizeExamples) : f.doc;
  CLI::Option* o = sub->add_option(flag_spelling(f.key), value, doc)->default_str(limit_default_text(f));
  // A size is rewritten to its bytes before it converts (D9: "64M" as --help shows it).
  if (f.bytes)
    o->transform(byte_size());
  else
    o->check(integer_in(1, ~0ULL));
}

}  // namespace

void add_limit_flags(CLI::App* sub, Limits& limits, bool reads_measurements) {
  for (const LimitFlag& f : kLimitFlags)
    if (f.field != &Limits::max_capture_bytes || reads_measurements) add_limit_flag(sub, f, limits.*f.field);
}

void add_capture_limit_flag(CLI::App* sub, std::uint64_t& max_bytes) {
  for (const LimitFlag& f : kLimitFlags)
    if (f.field == &Limits::max_capture_bytes) add_limit_flag(sub, f, max_bytes);
}

CLI::Option* add_out_flag(CLI::App* sub, std::string& out, const std::string& what) {
  return sub
      ->add_option("-o,--out", out,
                   "Write " + what + " to FILE ('-': stdout). A file is replaced atomically (through a symlink, "
                   "its target); a device, FIFO or socket is written in place; never one of the command's inputs")
      ->check(file_role(FileRole::Output));
}

CLI::Option* add_format_flag(CLI::App* sub, std::string& format, std::initializer_list<Shape> shapes, Format fallback,
                             const std::string& note) {
  format = std::string(name_of(formats(), fallback));
  const std::vector<std::string> names = format_names(shapes);
  std::string help = "Output format: ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    help += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    const std::string_view doc = doc_of(formats(), *parse_name(formats(), names[i]));
    if (!doc.empty()) help += " (" + std::string(doc) + ")";
  }
  if (!note.empty()) help += "; " + note;
  // nccl-tests' -f is the size step factor: `-f 2` pasted from an
  // nccl-tests command line is told where that went.
  const CLI::Validator stepfactor(
      [sub](const std::string& v) -> std::string {
        if (v.empty() || v.find_first_not_of("0123456789.") != std::string::npos) return {};
        const bool here = sub->get_option_no_throw("--stepfactor") != nullptr;
        return "'" + v + "' is a number: nccl-tests' -f is --stepfactor " +
               (here ? std::string("here") : "(`ecmpsim run`, `sweep` and `report` take it)") + "; -f is --format";
      },
      "");
  return sub->add_option("-f,--format", format, help)->check(stepfactor)->check(CLI::IsMember(names))->default_str(format);
}

Format chosen_format(const std::string& name) { return *parse_name(formats(), name); }

void emit(Io io, const std::string& text, const std::string& out_path, std::span<const std::string> inputs) {
  write_output(out_path.empty() ? "-" : out_path, text, io.out, inputs);
}

void emit(Io io, Format f, const Result& r, const std::string& out_path, std::span<const std::string> inputs) {
  write_output(out_path.empty() ? "-" : out_path, [&](const Sink& put) { write(f, r, put); }, io.out, inputs);
}

void emit(Io io, const OutputProducer& produce, const std::string& out_path, std::span<const std::string> inputs) {
  write_output(out_path.empty() ? "-" : out_path, produce, io.out, inputs);
}

namespace {

// "did you mean '--seed'?" for a misspelt flag of the command being parsed.
std::string flag_hint(const CLI::ParseError& e, const std::vector<std::pair<CLI::App*, Action>>& commands) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) return {};
  for (const auto& [sub, _] : commands) {
    if (!sub->parsed()) continue;
    std::vector<std::string> flags;
    for (const CLI::Option* o : sub->get_options()) {
      for (const auto& n : o->get_lnames()) flags.push_back("--" + n);
      for (const auto& n : o->get_snames()) flags.push_back("-" + n);
    }
    std::vector<std::string_view> names(flags.begin(), flags.end());
    for (const std::string& extra : sub->remaining())
      if (!extra.empty() && extra[0] == '-') return did_you_mean(extra.substr(0, extra.find('=')), names, 0);
  }
  return {};
}

}  // namespace

std::vector<std::pair<CLI::App*, Action>> add_commands(CLI::App& app) {
  std::vector<std::pair<CLI::App*, Action>> commands;
  for (auto add : {add_run_command, add_hash_command, add_flows_command, add_sweep_command, add_plan_command,
                   add_report_command, add_reproduce_command, add_emulate_command, add_fit_command,
                   add_calibrate_command, add_topology_command, add_validate_command, add_replay_command,
                   add_init_command}) {
    const auto before = app.get_subcommands({}).size();
    Action action = add(app);
    commands.emplace_back(app.get_subcommands({})[before], std::move(action));
  }
  return commands;
}

int run(int argc, const char* const* argv, Io io) {
  CLI::App app{"ecmpsim: ECMP routing what-if simulator for AI training clusters", "ecmpsim"};
  app.formatter(help_formatter());
  app.set_version_flag("--version", std::string("ecmpsim ") + ECMPSIM_VERSION);
  app.require_subcommand(1);
  const std::vector<std::pair<CLI::App*, Action>> commands = add_commands(app);

  // CLI11 would say only "A subcommand is required" for a misspelt command.
  const auto known = [&](const char* name) {
    return std::any_of(commands.begin(), commands.end(), [&](const auto& c) { return c.first->check_name(name); });
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    std::vector<std::string_view> names;
    for (const auto& [sub, _] : commands) names.push_back(sub->get_name());
    // Every command listed, however many (the default cap of 12 is for long vocabularies).
    io.err << "ecmpsim: "
           << one_line("unknown command '" + std::string(argv[1]) + "'" + did_you_mean(argv[1], names, names.size()))
           << "\n";
    return 2;
  }
  std::string shown;  // --help's or --version's text
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    shown = app.help();
  } catch (const CLI::CallForAllHelp& e) {
    shown = app.help("", CLI::AppFormatMode::All);
  } catch (const CLI::CallForVersion& e) {
    shown = std::string(e.what()) + "\n";
  } catch (const CLI::ParseError& e) {
    // A subcommand's own --help surfaces here with exit code 0.
    if (e.get_exit_code() != 0) {
      io.err << "ecmpsim: " << one_line(e.what()) << flag_hint(e, commands) << "\n";
      return 2;
    }
    for (const auto& [sub, _] : commands)
      if (sub->parsed()) shown += sub->help();
  }
  if (!shown.empty()) {
    // As any output to stdout: a failed write says why, with its errno (D14).
    try {
      emit(io, shown, "-");
    } catch (const InputError& e) {
      io.err << "ecmpsim: " << one_line(e.describe()) << "\n";
      return 2;
    }
    return 0;
  }
  try {
    for (const auto& [sub, action] : commands) {
      if (!sub->parsed()) continue;
      // Before any work: no output names an input (file_flags.h); under
      // mpirun every rank checks, and all fail together.
      const auto check_files = [sub = sub] { check_file_flags(*sub); };
      if (io.ranks != nullptr && io.ranks->size() > 1)
        io.ranks->agree(check_files);
      else
        check_files();
      if (io.ranks != nullptr && io.ranks->rank() != 0 && sub->get_name() != "sweep") return 0;
      return action(io);
    }
  } catch (const InputError& e) {
    io.err << "ecmpsim: " << one_line(e.describe()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    io.err << "ecmpsim: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
  return 1;
}

}  // namespace ecmpsim::cli
