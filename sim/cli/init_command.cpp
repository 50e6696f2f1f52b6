// `ecmpsim init`: its flags, and the starter config of the fabric kind
// (sim/app/init.h) written.
#include <memory>

#include "sim/app/init.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {

Action add_init_command(CLI::App& app) {
  struct Options {
    std::string fabric = "leaf-spine", out;
    bool force = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("init", "Write a commented starter config (a shipped config of the fabric kind)");
  std::vector<std::string> kinds;
  std::string help = "Fabric kind:";
  for (const app::Starter& s : app::starters()) {
    kinds.emplace_back(s.fabric);
    help += " " + std::string(s.fabric) + " (" + std::string(s.shipped) + ")";
  }
  sub->add_option("--fabric", o->fabric, help)->check(CLI::IsMember(kinds))->capture_default_str();
  add_out_flag(sub, o->out, "the config");
  sub->add_flag("--force", o->force, "Replace an existing --out file");
  return [o](Io io) {
    emit(io, std::string(app::starter_text(o->fabric, o->out, o->force)), o->out);
    return 0;
  };
}

}  // namespace ecmpsim::cli
