// The sweep checkpoint reader (sim/sweep/checkpoint.h): a single process's
// file and an MPI rank's (or a shard's) share. Each input is read as it is,
// and once more with its header's checksum and every record's recomputed, so
// that mutations reach the header, range and row checks behind the checksums
// instead of stopping at them. Seeds: tests/fuzz/make_checkpoint_seeds.py.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "sim/base/error.h"
#include "sim/sweep/checkpoint.h"

namespace {

// The identity of the seed corpus's files (tests/fuzz/corpus/checkpoint/).
const ecmpsim::CheckpointId kFuzzId{{"version", "fuzz"}, {"config", "xxh64:0123456789abcdef"}};
constexpr std::size_t kFuzzJobs = 1;
constexpr std::size_t kWidth = 9;  // kSweepMetrics + one job
constexpr std::uint64_t kFuzzVariants = 64;
constexpr std::size_t kChecksumLine = 26;  // "checksum " + 16 hex digits + "\n"

void read_checkpoint_bytes(const std::string& bytes) {
  try {
    const ecmpsim::CheckpointShare share =
        ecmpsim::parse_checkpoint("fuzz.ck", bytes, kFuzzId, kFuzzJobs, kFuzzVariants);
    std::uint64_t rows = 0;
    for (const auto& r : share.ranges) {
      if (r.begin >= r.end || r.end > kFuzzVariants) __builtin_trap();  // accepted but out of range
      rows += r.size();
    }
    if (rows != share.rows() || share.rows() > kFuzzVariants || share.dropped > bytes.size()) __builtin_trap();
  } catch (const ecmpsim::InputError&) {
  }
}

std::uint64_t load(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}

// `bytes` with the header's checksum line and each record's checksum made to
// match (records walked by their begin and end, as far as they fit).
void reseal(std::string& bytes) {
  const std::size_t head = bytes.find("\n\n");
  if (head == std::string::npos || head + 2 + kChecksumLine > bytes.size()) return;
  const std::size_t body = head + 2;
  const std::uint64_t seed = XXH64(bytes.data(), body, 0);
  bytes.replace(body, kChecksumLine, "checksum " + ecmpsim::xxh64_text(seed) + "\n");
  for (std::size_t at = body + kChecksumLine; at + 40 <= bytes.size();) {
    const std::uint64_t begin = load(bytes, at + 8), end = load(bytes, at + 16);
    if (end <= begin || end - begin > (bytes.size() - at - 40) / (kWidth * 8)) return;
    const std::size_t size = 32 + (end - begin) * kWidth * 8;
    const std::uint64_t sum = XXH64(bytes.data() + at, size, seed);
    std::memcpy(bytes.data() + at + size, &sum, sizeof sum);
    at += size + 8;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  read_checkpoint_bytes(bytes);
  reseal(bytes);
  read_checkpoint_bytes(bytes);
  return 0;
}
