#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "hashing/hasher.h"

namespace h = ecmpsim::hashing;

TEST_CASE("the catalogue has every algorithm issue 3 requires, each once") {
  constexpr std::array<std::string_view, 21> required{
      "crc16-ccitt", "crc16-xmodem", "crc16-kermit", "crc16-arc", "crc16-buypass", "crc32", "crc32-lo",
      "crc32-hi",    "crc32c",       "xor16",        "xor32",     "toeplitz",      "jenkins", "jenkins-lo",
      "jenkins-hi",  "xxh32",        "xxh64",        "xxh3",      "linux-bond-l34", "linux-l3", "linux-l4"};
  for (std::string_view name : required) {
    CAPTURE(name);
    const h::Algorithm* a = h::find(name);
    REQUIRE(a != nullptr);
    CHECK(a->name == name);
    const bool has_fn = a->fn != nullptr;
    CHECK(has_fn);
    CHECK(!a->doc.empty());
  }
  std::set<std::string_view> names;
  for (const h::Algorithm& a : h::catalogue()) CHECK(names.insert(a.name).second);
  CHECK(h::find("crc16") == nullptr);
  CHECK(h::find("") == nullptr);
}

TEST_CASE("every algorithm stays within its declared bit width, and a seed changes its output") {
  constexpr std::array<std::uint8_t, 13> key{10, 0, 0, 1, 10, 0, 1, 2, 17, 0xC0, 0x01, 0x12, 0xB7};
  for (const h::Algorithm& a : h::catalogue()) {
    CAPTURE(a.name);
    REQUIRE(a.bits >= 16);
    REQUIRE(a.bits <= 64);
    const std::uint64_t limit = a.bits == 64 ? ~0ULL : (1ULL << a.bits) - 1;
    for (std::uint32_t seed : {0u, 1u, 0xFFFFFFFFu}) CHECK(a.fn(key, seed) <= limit);
    CHECK(a.fn(key, 0x5A5A5A5A) != a.fn(key, 0));
  }
}
