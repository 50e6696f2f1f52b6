// The one-line error parse_config reports for a config text ("no error" when
// it parses), written once for the config tests that pin messages.
#pragma once

#include <string>

#include "sim/base/error.h"
#include "sim/config/config.h"

namespace ecmpsim::test_support {

inline std::string config_error(const std::string& text) {
  try {
    parse_config(text, "t.toml");
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace ecmpsim::test_support
