// The static-route CSV (`routes_file` of a static scenario).
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/config_sections.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ecmpsim::config::parse_routes_csv("fuzz.csv", std::string(reinterpret_cast<const char*>(data), size));
  } catch (const ecmpsim::InputError&) {
  }
  return 0;
}
