// The trace readers of `replay` (workloads/traces): the input, split at the
// first NUL byte into two ranks' PyTorch traces (each gunzipped when it
// starts with gzip's magic), joined; the whole input also as an NCCL
// Inspector log and as a Flight Recorder dump. Bad input must be an
// InputError, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/error.h"
#include "workloads/traces/join.h"
#include "workloads/traces/pytorch_trace.h"
#include "workloads/traces/side_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ecmpsim::workloads;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const auto cut = all.find('\0');
  std::vector<std::string_view> parts{all.substr(0, cut)};
  if (cut != std::string_view::npos) parts.push_back(all.substr(cut + 1));
  try {
    std::vector<RankTrace> ranks;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string name = "r" + std::to_string(i) + ".json";
      ranks.push_back(read_pytorch_trace(gunzip_if_compressed(std::string(parts[i]), name, {64 << 20, "max_capture_bytes"}), name));
    }
    join_traces(std::move(ranks), {}, {});
  } catch (const ecmpsim::InputError&) {
  }
  try {
    read_inspector(all, "inspector.log");
  } catch (const ecmpsim::InputError&) {
  }
  try {
    read_flight_recorder(all, "fr.json");
  } catch (const ecmpsim::InputError&) {
  }
  return 0;
}
