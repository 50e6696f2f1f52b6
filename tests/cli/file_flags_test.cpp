// No command writes over what it reads (issue 47 item 1, D1 and D2): every
// output flag of every command (sim/cli/file_flags.h), named as each of the
// same command's input files, is refused before any work with exit 2 and one
// line naming both flags, and the input stays byte-identical. So is an output
// named as a file the config reads (its topology file), which only the
// command knows after loading it. Every option whose value is a FILE has a
// role, so a new file flag cannot escape the check.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli/cli.h"
#include "tests/support/cli_capture.h"

namespace file_flags_test {

namespace {

namespace fs = std::filesystem;
using ecmpsim::cli::FileFlag;
using ecmpsim::cli::FileRole;

struct Dir {
  fs::path path = fs::temp_directory_path() / ("ecmpsim_file_flags_" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
  std::set<std::string> files() const {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.insert(e.path().filename().string());
    return out;
  }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool reads(FileRole r) { return r == FileRole::Input || r == FileRole::InputList || r == FileRole::Resume; }

// The command line naming `victim` as input `in` and output `out`, every
// other required input a harmless file.
std::vector<std::string> command_line(const std::string& command, const std::vector<FileFlag>& flags,
                                      const FileFlag& in, const FileFlag& out, const std::string& victim,
                                      const std::string& other) {
  std::vector<std::string> args{command};
  const auto name = [&](const FileFlag& f, const std::string& file) {
    if (!f.positional) args.push_back(f.flag);
    args.push_back(file);
  };
  for (const FileFlag& f : flags)
    if (f.required && f.flag != in.flag) name(f, other);
  name(in, victim);
  name(out, victim);
  return args;
}

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += a + " ";
  return s;
}

}  // namespace

TEST_CASE("every output flag of every command refuses every input flag's file") {
  const Dir dir;
  const std::string text = "the only copy of a measurement\n";
  const std::string victim = dir.write("victim.txt", text);
  const std::string other = dir.write("other.txt", "x\n");
  std::set<std::string> commands;
  for (const FileFlag& f : ecmpsim::cli::file_flags()) commands.insert(f.command);
  // Every command but hash, fit and calibrate reads a config (positional or --config).
  CHECK(commands == std::set<std::string>{"calibrate", "emulate", "fit", "flows", "hash", "init", "plan",
                                          "replay", "report", "reproduce", "run", "sweep", "topology", "validate"});
  int pairs = 0;
  for (const std::string& command : commands) {
    std::vector<FileFlag> flags;
    for (const FileFlag& f : ecmpsim::cli::file_flags())
      if (f.command == command) flags.push_back(f);
    for (const FileFlag& out : flags) {
      if (reads(out.role)) continue;
      for (const FileFlag& in : flags) {
        if (!reads(in.role) || (out.role == FileRole::Checkpoint && in.role == FileRole::Resume)) continue;
        const auto args = command_line(command, flags, in, out, victim, other);
        INFO(joined(args));
        const CliResult r = cli_run(args);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(r.err == "ecmpsim: " + victim + ": " + out.flag + ": this file is the command's input (" + in.flag +
                           "); choose another output file\n");
        CHECK(slurp(victim) == text);
        CHECK(dir.files() == std::set<std::string>{"victim.txt", "other.txt"});
        // Negative control: another output file passes this check (the
        // command may fail later, on the harmless inputs, but not here).
        auto elsewhere = args;
        elsewhere.back() = (dir.path / "new.out").string();
        const CliResult control = cli_run(elsewhere);
        CHECK(control.err.find("this file is the command's input") == std::string::npos);
        fs::remove(dir.path / "new.out");
        ++pairs;
      }
    }
  }
  // calibrate 2 outputs x 2 inputs, emulate 2 x 1, fit 1 x 2, flows, hash,
  // plan as sweep, replay 2 x 5 (--out, --html x traces, --config, --inspector,
  // --flight-recorder, --rank-map), report 1 x 2, reproduce, run 1 x 3, sweep
  // 2 x 2 (less --checkpoint x --resume), topology 1 x 2 (the LLDP tables, --against),
  // validate 1 x 5 (tables, --config, --calibration, --fit-on, --fit-config).
  CHECK(pairs == 4 + 2 + 2 + 1 + 1 + 3 + 10 + 2 + 1 + 3 + 3 + 2 + 5);
}

TEST_CASE("two outputs of one command naming one file are refused") {
  const Dir dir;
  const std::string same = (dir.path / "same").string();
  const std::string table = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/vp-h100-4n-all_reduce.txt";
  const std::string config = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/vp-h100-4n.toml";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"calibrate", table, "--config", config, "--snippet", same, "--out", same},
           {"sweep", "--checkpoint", same, "--out", same},
           {"emulate", "--observations", same, "--out", same}}) {
    INFO(joined(args));
    const CliResult r = cli_run(args);
    CHECK(r.code == 2);
    // "ecmpsim: FILE: --out: this file is also --snippet; choose another" (the later flag named first).
    CHECK(r.err.find("ecmpsim: " + same + ": --") == 0);
    CHECK(r.err.find(": this file is also --") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK(!fs::exists(same));
  }
}

TEST_CASE("an output naming a file the config reads (its topology file) is refused before the work") {
  const Dir dir;
  const std::string topo_text =
      "node,s0,spine\nnode,l0,leaf\nnode,l1,leaf\nnode,a,host\nnode,b,host\n"
      "link,a,l0,100\nlink,b,l1,100\nlink,l0,s0,400\nlink,l1,s0,400\n";
  const std::string topo = dir.write("topo.csv", topo_text);
  const std::string cfg = dir.write("c.toml", "[fabric]\nkind = \"file\"\nfile = \"topo.csv\"\n");
  const std::string table = ECMPSIM_SOURCE_DIR "/tests/data/nccl-tests/vp-h100-4n-all_reduce.txt";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"run", cfg, "--out", topo},
           {"flows", cfg, "--out", topo},
           {"sweep", cfg, "--seeds", "0:4", "--out", topo},
           {"sweep", cfg, "--seeds", "0:4", "--checkpoint", topo},
           {"report", cfg, "--seeds", "0:4", "--out", topo},
           {"reproduce", "--config", cfg, "--seeds", "0:4", "--out", topo},
           {"calibrate", table, "--config", cfg, "--out", topo},
           {"calibrate", table, "--config", cfg, "--snippet", topo},
           {"topology", ECMPSIM_SOURCE_DIR "/tests/data/lldp/mixed/leaf1.txt", "--against", cfg, "--out", topo}}) {
    INFO(joined(args));
    const CliResult r = cli_run(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("it is this command's input '") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK(slurp(topo) == topo_text);
  }
}

TEST_CASE("every option whose value is a FILE has a file role; D13: --out '' is refused") {
  CLI::App app;
  std::set<std::string> tagged;
  for (const FileFlag& f : ecmpsim::cli::file_flags()) tagged.insert(f.command + " " + f.flag);
  // The names help.cpp shows as FILE, and any option whose help says FILE.
  const std::set<std::string> file_names{"config", "out", "flows", "rdma-map", "tuples", "predict", "observations",
                                         "emulation", "snippet", "checkpoint", "resume", "nccl_tests_output",
                                         "files", "against",
                                         "tables", "calibration", "fit-on", "fit-config"};
  int files = 0;
  for (const auto& [sub, action] : ecmpsim::cli::add_commands(app)) {
    for (const CLI::Option* opt : sub->get_options()) {
      const std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
      const bool file = file_names.count(name) > 0 || opt->get_description().find(" FILE") != std::string::npos;
      if (!file || name == "help") continue;
      ++files;
      const std::string flag = opt->get_lnames().empty() ? name : "--" + name;
      INFO(sub->get_name() << " " << flag);
      CHECK(tagged.count(sub->get_name() + " " + flag) == 1);
    }
  }
  CHECK(files == static_cast<int>(tagged.size()));
  for (const std::string command : {"run", "sweep", "fit", "calibrate", "hash"}) {
    INFO(command);
    const CliResult r = cli_run({command, "--out", ""});
    CHECK(r.code == 2);
    CHECK(r.err == "ecmpsim: --out: no file given ('-' is standard output)\n");
  }
}

}  // namespace file_flags_test
