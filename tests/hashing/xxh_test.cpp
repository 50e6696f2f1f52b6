#include "hashing/xxh.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>

#include "hashing/hasher.h"

namespace xxh_test {

namespace h = ecmpsim::hashing;

namespace {

h::Key bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

constexpr std::uint32_t kPrime32 = 2654435761u;  // xxHash's PRIME32_1, used as a seed by its tests

}  // namespace

// xxhsum BMK_sanityCheck (programs/bench.c): XXH32/XXH64 of an empty input
// with seed 0 and with seed PRIME32; XXH3_64bits("") and the "abc" values as
// the xxHash documentation and xxhsum -H print them.
TEST_CASE("xxHash published sanity values") {
  CHECK(h::find("xxh32")->fn(bytes(""), 0) == 0x02CC5D05u);
  CHECK(h::find("xxh32")->fn(bytes(""), kPrime32) == 0x36B78AE7u);
  CHECK(h::find("xxh64")->fn(bytes(""), 0) == 0xEF46DB3751D8E999ULL);
  CHECK(h::find("xxh64")->fn(bytes(""), kPrime32) == 0xAC75FDA2929B17EFULL);
  CHECK(h::find("xxh3")->fn(bytes(""), 0) == 0x2D06800538D394C2ULL);
  CHECK(h::find("xxh32")->fn(bytes("abc"), 0) == 0x32D153FFu);
  CHECK(h::find("xxh64")->fn(bytes("abc"), 0) == 0x44BC2CF5AD770999ULL);
}
}  // namespace xxh_test
