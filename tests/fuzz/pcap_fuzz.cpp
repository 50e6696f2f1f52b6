// The pcap/pcapng importer (libpcap reading from memory).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "workloads/import/import_pcap.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto r = ecmpsim::workloads::parse_pcap(bytes, "fuzz.pcap");
  return r.index() > 1;
}
