// Explicit topology files (`[fabric] kind = "file"`), CSV or TOML, then the
// fabric they describe built and checked. The first byte picks the format:
// 'T' for TOML, anything else CSV (the byte is part of the CSV text).
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/config/config_sections.h"
#include "sim/fabric/fabric.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const bool toml = !text.empty() && text[0] == 'T';
  if (toml) text.erase(0, 1);
  try {
    ecmpsim::FabricSpec spec;
    spec.kind = ecmpsim::FabricKind::File;
    spec.topology = ecmpsim::config::parse_topology(toml ? "fuzz.toml" : "fuzz.csv", text);
    if (spec.topology.nodes.size() > 512 || spec.topology.links.size() > 2048) return 0;
    ecmpsim::build_fabric(spec);
  } catch (const ecmpsim::InputError&) {
  }
  return 0;
}
