// Reading a TOML experiment into a Spec: the only place TOML is read.
#pragma once

#include <string>
#include <string_view>

#include "sim/config/spec.h"

namespace ecmpsim {

// Throws InputError naming file, line and column (or the key) on any problem.
Spec load_config(const std::string& path);
Spec parse_config(std::string_view text, const std::string& path);

// Every config key with its type, default and meaning, for --help (docs/config-reference.md
// is rendered from the same tables by sim/config/reference_docs.h).
std::string config_reference();

}  // namespace ecmpsim
