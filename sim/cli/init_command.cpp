// `ecmpsim init`: a commented starter config for a fabric kind, the shipped
// config of that kind (compiled in at build time), so a new user starts from
// a file the test suite runs.
#include <array>
#include <filesystem>
#include <memory>
#include <string_view>

#include "sim/base/error.h"
#include "sim/cli/cli.h"
#include "sim/cli/starter_configs.h"

namespace ecmpsim::cli {
namespace {

struct Starter {
  std::string_view fabric, shipped;
  const char* text;
};
constexpr std::array<Starter, 3> kStarters{{{"leaf-spine", "configs/paper16.toml", kStarter_paper16},
                                            {"fat-tree", "configs/fattree-k8.toml", kStarter_fattree_k8},
                                            {"rail", "configs/rail.toml", kStarter_rail}}};

struct InitOptions {
  std::string fabric = "leaf-spine", out;
  bool force = false;
};

int run_init(const InitOptions& o, Io io) {
  for (const Starter& s : kStarters) {
    if (s.fabric != o.fabric) continue;
    std::error_code ec;
    if (!o.force && !o.out.empty() && o.out != "-" && std::filesystem::is_regular_file(o.out, ec))
      throw InputError({{}, 0, 0, "--out"}, "'" + o.out + "' exists (--force replaces it)");
    emit(io, s.text, o.out);
    return 0;
  }
  return 2;  // unreachable: the flag's check accepts only kStarters' names
}

}  // namespace

Action add_init_command(CLI::App& app) {
  auto o = std::make_shared<InitOptions>();
  CLI::App* sub = app.add_subcommand("init", "Write a commented starter config (a shipped config of the fabric kind)");
  std::vector<std::string> kinds;
  std::string help = "Fabric kind:";
  for (const Starter& s : kStarters) {
    kinds.emplace_back(s.fabric);
    help += " " + std::string(s.fabric) + " (" + std::string(s.shipped) + ")";
  }
  sub->add_option("--fabric", o->fabric, help)->check(CLI::IsMember(kinds))->capture_default_str();
  add_out_flag(sub, o->out, "the config");
  sub->add_flag("--force", o->force, "Replace an existing --out file");
  return [o](Io io) { return run_init(*o, io); };
}

}  // namespace ecmpsim::cli
