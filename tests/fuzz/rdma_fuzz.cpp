// The `rdma resource show qp` importer, JSON (-j) and text. The input is split
// at the first NUL byte (or kept whole) into two host dumps, and the device map
// is fixed, so the fuzzer explores pairing across hosts as well as both parsers
// (each dump's first non-blank byte picks its form). The whole input also goes
// through the detector that tells a dump by its first bytes (is_rdma_dump: a
// JSON SAX parse of the head).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "workloads/import/import_rdma.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const auto cut = all.find('\0');
  const bool dump = ecmpsim::workloads::is_rdma_dump(all);
  std::vector<ecmpsim::workloads::ImportFile> dumps{{"a.json", all.substr(0, cut)}};
  if (cut != std::string_view::npos) dumps.push_back({"b.json", all.substr(cut + 1)});
  const std::string_view map = "host,ifname,ip\na,mlx5_0,10.0.0.1\na,mlx5_1,10.0.0.2\nb,mlx5_0,10.0.1.1\n";
  ecmpsim::workloads::ImportOptions options;
  options.map = {"map.csv", map};
  options.flow_bytes = 4096;
  options.allow_unpaired = size % 2 == 0;
  const auto r = ecmpsim::workloads::parse_rdma(dumps, options);
  return r.index() > 1 && dump;
}
