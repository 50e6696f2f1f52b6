// `init` (see init.h).
#include "sim/app/init.h"

#include <array>
#include <filesystem>
#include <system_error>

#include "sim/app/starter_configs.h"
#include "sim/base/error.h"

namespace ecmpsim::app {
namespace {

constexpr std::array<Starter, 3> kStarters{{{"leaf-spine", "configs/paper16.toml", kStarter_paper16},
                                            {"fat-tree", "configs/fattree-k8.toml", kStarter_fattree_k8},
                                            {"rail", "configs/rail.toml", kStarter_rail}}};

}  // namespace

std::span<const Starter> starters() { return kStarters; }

std::string_view starter_text(const std::string& fabric, const std::string& out, bool force) {
  for (const Starter& s : kStarters) {
    if (s.fabric != fabric) continue;
    std::error_code ec;
    if (!force && !out.empty() && out != "-" && std::filesystem::is_regular_file(out, ec))
      throw InputError(option_at("out"), "'" + out + "' exists (" + option_ref("force") + " replaces it)");
    return s.text;
  }
  throw InputError(option_at("fabric"), "no starter config for '" + fabric + "'");
}

}  // namespace ecmpsim::app
