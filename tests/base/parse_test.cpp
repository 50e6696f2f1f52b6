// The size parser: nccl-tests' single-letter units (binary, as its -b/-e
// parse them), IEC binary and SI decimal units, against products worked by hand.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "sim/base/parse.h"

namespace parse_test {

using namespace ecmpsim;

namespace {

std::optional<std::uint64_t> bytes(const std::string& s) {
  const auto b = parse_size(s);
  return b ? std::optional<std::uint64_t>(b->value) : std::nullopt;
}

}  // namespace

TEST_CASE("parse_size: K/M/G/T are binary like nccl-tests; KiB.. binary; KB.. decimal") {
  CHECK(bytes("4096") == 4096u);
  CHECK(bytes("512M") == 512u * 1048576u);           // 536870912
  CHECK(bytes("1G") == 1073741824u);                 // 2^30
  CHECK(bytes("1g") == 1073741824u);
  CHECK(bytes("8K") == 8192u);
  CHECK(bytes("2T") == 2199023255552u);              // 2 x 2^40
  CHECK(bytes("256MiB") == 268435456u);
  CHECK(bytes("1GB") == 1000000000u);                // decimal: not 2^30
  CHECK(bytes("1G") != bytes("1GB"));
  CHECK(bytes("7B") == 7u);
}

TEST_CASE("parse_size: malformed or overflowing text is refused") {
  for (const char* bad : {"", "G", "1.5G", "1X", "1 G", "-1", "1Gi", "18446744073709551616", "17179869184G"}) {
    CAPTURE(bad);
    CHECK(!parse_size(bad));
  }
  CHECK(bytes("17179869183G") == 17179869183ULL << 30);  // (2^34 - 1) x 2^30 < 2^64
}
}  // namespace parse_test
