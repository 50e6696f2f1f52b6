// The sweep checkpoint reader (sim/sweep/checkpoint.h): a single process's
// file and an MPI rank's share. Each input is read as it is, and once more
// with its checksum line recomputed, so that mutations reach the header,
// range and row checks behind the checksum instead of stopping at it.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/base/error.h"
#include "sim/sweep/checkpoint.h"

namespace {

// The identity of the seed corpus's files (tests/fuzz/corpus/checkpoint/).
const ecmpsim::CheckpointId kFuzzId{{"version", "fuzz"}, {"config", "xxh64:0123456789abcdef"}};
constexpr std::size_t kFuzzJobs = 1;
constexpr std::uint64_t kFuzzVariants = 64;
constexpr std::size_t kChecksumLine = 26;  // "checksum " + 16 hex digits + "\n"

void read_checkpoint_bytes(const std::string& bytes) {
  try {
    const ecmpsim::CheckpointShare share =
        ecmpsim::parse_checkpoint("fuzz.ck", bytes, kFuzzId, kFuzzJobs, kFuzzVariants);
    std::uint64_t rows = 0;
    for (const auto& r : share.ranges) rows += r.size();
    if (rows != share.rows() || share.rows() > kFuzzVariants) __builtin_trap();  // accepted but inconsistent
  } catch (const ecmpsim::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  read_checkpoint_bytes(bytes);
  if (bytes.size() >= kChecksumLine) {
    const std::size_t body = bytes.size() - kChecksumLine;
    bytes.replace(body, kChecksumLine, "checksum " + ecmpsim::xxh64_text(XXH64(bytes.data(), body, 0)) + "\n");
    read_checkpoint_bytes(bytes);
  }
  return 0;
}
