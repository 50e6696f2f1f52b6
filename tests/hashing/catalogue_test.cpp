#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "hashing/hasher.h"

namespace catalogue_test {

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

TEST_CASE("SAI names: CRC_32LO / CRC_32HI are the halves of CRC-32, CRC_CCITT the 0x1021 CRC-16") {
  // Published check values over ASCII "123456789": CRC-32 0xCBF43926,
  // CRC-16/CCITT-FALSE 0x29B1, CRC-16/XMODEM (the same polynomial, init 0) 0x31C3.
  constexpr std::array<std::uint8_t, 9> check{'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  const h::Algorithm* lo = h::find("CRC_32LO");
  const h::Algorithm* hi = h::find("CRC_32HI");
  const h::Algorithm* ccitt = h::find("CRC_CCITT");
  REQUIRE(lo != nullptr);
  REQUIRE(hi != nullptr);
  REQUIRE(ccitt != nullptr);
  CHECK(lo == h::find("crc32-lo"));
  CHECK(hi == h::find("crc32-hi"));
  CHECK(ccitt == h::find("crc16-ccitt"));
  CHECK(lo->fn(check, 0) == 0x3926);
  CHECK(hi->fn(check, 0) == 0xCBF4);
  CHECK(ccitt->fn(check, 0) == 0x29B1);
  // SAI names the polynomial, not the initial register: init 0 (XMODEM) is seed 0xFFFF.
  CHECK(ccitt->fn(check, 0xFFFF) == 0x31C3);
  // Exactly these three carry SAI names, and only in SAI's spelling.
  std::set<std::string_view> sai;
  for (const h::Algorithm& a : h::catalogue())
    if (!a.sai.empty()) sai.insert(a.sai);
  CHECK(sai == std::set<std::string_view>{"CRC_32LO", "CRC_32HI", "CRC_CCITT"});
  // SONiC's APP_DB writes them in lower case (sonic-net/sonic-pins
  // p4rt_app/sonic/hashing.cc: SAI_HASH_ALGORITHM_CRC_32LO -> "crc_32lo"); one case per name.
  CHECK(h::find("crc_32lo") == lo);
  CHECK(h::find("crc_ccitt") == ccitt);
  CHECK(h::find("Crc_32lo") == nullptr);
}

TEST_CASE("SAI's full enum spelling names the same algorithm as the short one") {
  // inc/saiswitch.h spells the values SAI_HASH_ALGORITHM_<name>; the check
  // values are the published ones of the test above (CRC-32 0xCBF43926,
  // CRC-16/CCITT-FALSE 0x29B1 over "123456789").
  constexpr std::array<std::uint8_t, 9> check{'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  const h::Algorithm* lo = h::find("SAI_HASH_ALGORITHM_CRC_32LO");
  const h::Algorithm* hi = h::find("SAI_HASH_ALGORITHM_CRC_32HI");
  const h::Algorithm* ccitt = h::find("SAI_HASH_ALGORITHM_CRC_CCITT");
  REQUIRE(lo != nullptr);
  REQUIRE(hi != nullptr);
  REQUIRE(ccitt != nullptr);
  CHECK(lo->fn(check, 0) == 0x3926);
  CHECK(hi->fn(check, 0) == 0xCBF4);
  CHECK(ccitt->fn(check, 0) == 0x29B1);
  // The prefix goes with SAI's names only, and only in SAI's spelling.
  CHECK(h::find("SAI_HASH_ALGORITHM_crc32-lo") == nullptr);
  CHECK(h::find("SAI_HASH_ALGORITHM_") == nullptr);
  CHECK(h::find("sai_hash_algorithm_CRC_32LO") == nullptr);
  CHECK(h::find("sai_hash_algorithm_crc_32lo") == lo);
  CHECK(h::find("SAI_HASH_ALGORITHM_CRC_32") == nullptr);
}

TEST_CASE("every value of sai_hash_algorithm_t but the Jenkins halves is an algorithm or explained") {
  // The enum's values as opencomputeproject/SAI inc/saiswitch.h lists them
  // (START and END are markers). JENKINS_LO/HI name no Jenkins variant
  // (lookup2, lookup3 hashword or hashlittle), so they are neither.
  for (std::string_view name : {"CRC", "XOR", "RANDOM", "CRC_32LO", "CRC_32HI", "CRC_CCITT", "CRC_XOR", "NONE",
                                "ROUND_ROBIN"}) {
    CAPTURE(name);
    const std::string full = "SAI_HASH_ALGORITHM_" + std::string(name);
    CHECK((h::find(name) != nullptr) != (h::find_vendor_defined(name) != nullptr));
    CHECK(h::find(full) == h::find(name));
    CHECK(h::find_vendor_defined(full) == h::find_vendor_defined(name));
  }
  // Per-packet spraying is said to be what it is, not a hash.
  for (std::string_view name : {"RANDOM", "ROUND_ROBIN"}) {
    CAPTURE(name);
    const h::VendorDefined* v = h::find_vendor_defined(name);
    REQUIRE(v != nullptr);
    CHECK(v->what.find("per packet") != std::string_view::npos);
    CHECK(v->what.find("spray") != std::string_view::npos);
  }
  REQUIRE(h::find_vendor_defined("NONE") != nullptr);
  CHECK(h::find_vendor_defined("NONE")->what.find("default") != std::string_view::npos);
}

TEST_CASE("vendor-defined SAI names are no algorithm; their closest models are catalogue names") {
  for (std::string_view name : {"CRC", "XOR", "CRC_XOR", "RANDOM", "ROUND_ROBIN", "NONE"}) {
    CAPTURE(name);
    CHECK(h::find(name) == nullptr);
    const h::VendorDefined* v = h::find_vendor_defined(name);
    REQUIRE(v != nullptr);
    std::string_view rest = v->closest;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(", ");
      std::string_view one = rest.substr(0, comma);
      one = one.substr(0, one.find(' '));  // "xxh3 (a well-mixed ...)"
      CAPTURE(one);
      CHECK(h::find(one) != nullptr);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 2);
    }
  }
  CHECK(h::find_vendor_defined("crc_xor") == h::find_vendor_defined("CRC_XOR"));
  CHECK(h::find_vendor_defined("CRC_32LO") == nullptr);
  CHECK(h::find_vendor_defined("JENKINS") == nullptr);
}
}  // namespace catalogue_test
