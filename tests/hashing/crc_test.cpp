#include "hashing/crc.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "hashing/hasher.h"

namespace crc_test {

namespace h = ecmpsim::hashing;

namespace {

h::Key bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

struct Check {
  std::string_view algo;
  std::uint64_t value;
};

}  // namespace

TEST_CASE("CRC catalogue check values on \"123456789\" (seed 0)") {
  // reveng CRC catalogue "check" values; crc32-lo/-hi are the halves of
  // CRC-32's 0xCBF43926.
  constexpr std::array checks{
      Check{"crc16-ccitt", 0x29B1},   Check{"crc16-xmodem", 0x31C3}, Check{"crc16-kermit", 0x2189},
      Check{"crc16-arc", 0xBB3D},     Check{"crc16-buypass", 0xFEE8}, Check{"crc32", 0xCBF43926},
      Check{"crc32-lo", 0x3926},      Check{"crc32-hi", 0xCBF4},     Check{"crc32c", 0xE3069283},
  };
  for (const Check& c : checks) {
    CAPTURE(c.algo);
    const h::Algorithm* a = h::find(c.algo);
    REQUIRE(a != nullptr);
    CHECK(a->fn(bytes("123456789"), 0) == c.value);
  }
}

TEST_CASE("P4 bmv2 test_calculations vectors on 0b b8 1f 90") {
  constexpr std::array<std::uint8_t, 4> input{0x0b, 0xb8, 0x1f, 0x90};
  CHECK(h::find("crc16-arc")->fn(input, 0) == 0x5d8a);    // bmv2 crc16
  CHECK(h::find("crc16-ccitt")->fn(input, 0) == 0x5d75);  // bmv2 crcCCITT
  CHECK(h::find("crc32")->fn(input, 0) == 0x005d6a6f);    // bmv2 crc32
}

TEST_CASE("a CRC seed is a key-independent XOR for a fixed key length") {
  // CRC linearity: crc_{init^s}(x) ^ crc_init(x) depends only on s and |x|.
  // This is why two tiers with the same CRC and different seeds polarize.
  constexpr std::array<std::uint8_t, 13> x{10, 0, 0, 1, 10, 0, 1, 2, 17, 0xc0, 0x00, 0x12, 0xb7};
  constexpr std::array<std::uint8_t, 13> y{10, 3, 9, 7, 10, 8, 1, 9, 17, 0x12, 0x34, 0x12, 0xb7};
  for (const char* name : {"crc16-ccitt", "crc16-xmodem", "crc16-kermit", "crc16-arc", "crc16-buypass",
                           "crc32", "crc32c"}) {
    CAPTURE(name);
    const h::HashFn f = h::find(name)->fn;
    const std::uint32_t seed = 0x2525;
    CHECK(f(x, seed) != f(x, 0));
    CHECK((f(x, seed) ^ f(x, 0)) == (f(y, seed) ^ f(y, 0)));
  }
}
}  // namespace crc_test
