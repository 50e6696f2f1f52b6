// The flows CSV importer (`ecmpsim run --flows FILE.csv`).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workloads/import/import_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto r = ecmpsim::workloads::parse_flows_csv(text, "fuzz.csv");
  return r.index() > 1;
}
