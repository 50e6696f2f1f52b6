// The shared text formatters, against values worked by hand and the C
// library's own printf.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "sim/base/parse.h"
#include "sim/base/text.h"

namespace text_test {

using namespace ecmpsim;

TEST_CASE("fixed: printf's %.*f for finite values; '-' for NaN and infinity signs for the rest") {
  for (double v : {0.0, 1.0, -2.5, 3.14159, 1e-7, 123456.789, 0.125})
    for (int d : {0, 1, 3, 6}) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f", d, v);
      CHECK(fixed(v, d) == buf);
    }
  CHECK(fixed(0.125, 2) == "0.12");  // round half to even, as printf does for the exact binary 0.125
  CHECK(fixed(std::numeric_limits<double>::quiet_NaN(), 3) == "-");
  CHECK(fixed(std::numeric_limits<double>::infinity(), 3) == "\u221e");
  CHECK(fixed(-std::numeric_limits<double>::infinity(), 0) == "-\u221e");
}

TEST_CASE("format_number is the shortest text that reads back to the same double") {
  for (double v : {0.1, 1.0 / 3, 2.0, 1e300, 5e-324, -0.25}) CHECK(std::strtod(format_number(v).c_str(), nullptr) == v);
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(2.0) == "2");
  CHECK(format_number(1e21) == "1e+21");
}

TEST_CASE("human_bytes and human_seconds pick the unit by hand-worked thresholds") {
  CHECK(human_bytes(0) == "0 B");
  CHECK(human_bytes(1023) == "1023 B");
  CHECK(human_bytes(1024) == "1.00 KiB");
  CHECK(human_bytes(1536) == "1.50 KiB");
  CHECK(human_bytes(3.0 * (1ULL << 30)) == "3.00 GiB");
  CHECK(human_bytes(2048.0 * (1ULL << 40)) == "2.00 PiB");
  CHECK(human_seconds(2.5) == "2.500 s");
  CHECK(human_seconds(0.0123) == "12.300 ms");
  CHECK(human_seconds(4.2e-6) == "4.200 \u00b5s");
  CHECK(human_seconds(std::numeric_limits<double>::quiet_NaN()) == "-");
}

TEST_CASE("addresses and hex round-trip through the parsers") {
  for (std::uint32_t ip : {0u, 0x0A000101u, 0xFFFFFFFFu, 0xC0A80001u}) CHECK(parse_ipv4(format_ipv4(ip)) == ip);
  CHECK(format_ipv4(0x0A000101u) == "10.0.1.1");
  CHECK(format_hex(0x1f) == "0x1f");
  CHECK(parse_uint(format_hex(0xdeadbeef), 0xFFFFFFFFu) == 0xdeadbeefu);
  CHECK(pad_left("ab", 4) == "  ab");
  CHECK(pad_right("ab", 4) == "ab  ");
  CHECK(pad_left("abcde", 4) == "abcde");
}

TEST_CASE("wrap breaks at spaces within the width, indenting continuation lines") {
  // After a 4-column label, width 14: "aaa bbb" reaches column 11, "ccc" would end at 15.
  CHECK(wrap("aaa bbb ccc dd", 14, 4) == "aaa bbb\n    ccc dd");
  CHECK(wrap("one", 2, 0) == "one");                       // a long word keeps its own line
  CHECK(wrap("a  b", 80, 0) == "a b");                     // runs of spaces collapse
  CHECK(wrap("xxxxxxxx yy", 10, 2) == "xxxxxxxx\n  yy");  // 2 + 8 = 10 fits; 11 + 2 does not
  CHECK(wrap("", 10, 2).empty());
}
}  // namespace text_test
