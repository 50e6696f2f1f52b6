// Reading a TOML experiment into a Spec: the only place TOML is read.
#pragma once

#include <string>
#include <string_view>

#include "sim/config/spec.h"

namespace ecmpsim {

// Throws InputError naming file, line and column (or the key) on any problem;
// a topology file ([fabric] file) over `limits.max_config_bytes` is refused
// before it is read. The Spec's own limits are the caller's to set.
Spec load_config(const std::string& path, const Limits& limits = {});
Spec parse_config(std::string_view text, const std::string& path, const Limits& limits = {});

// A calibration file (`ecmpsim calibrate --snippet` writes one): a
// [calibration] table and nothing else, read over `hosts` as a config's own
// [calibration] is. InputError at the file's line for anything else.
void read_calibration(std::string_view text, const std::string& path, HostSpec& hosts);

// Every config key with its type, default and meaning, for --help (docs/config-reference.md
// is rendered from the same tables by sim/config/reference_docs.h).
std::string config_reference();

}  // namespace ecmpsim
