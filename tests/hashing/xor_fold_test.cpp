#include "hashing/xor_fold.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>

namespace xor_fold_test {

namespace h = ecmpsim::hashing;

TEST_CASE("xor16: P4 bmv2 vector on 0b b8 1f 90") {
  constexpr std::array<std::uint8_t, 4> input{0x0b, 0xb8, 0x1f, 0x90};
  CHECK(h::xor16(input, 0) == 0x1428);  // 0x0bb8 ^ 0x1f90
}

TEST_CASE("xor16 / xor32 zero-pad a short tail on the right") {
  constexpr std::array<std::uint8_t, 5> input{0x12, 0x34, 0x56, 0x78, 0x9a};
  CHECK(h::xor16(input, 0) == (0x1234 ^ 0x5678 ^ 0x9a00));
  CHECK(h::xor32(input, 0) == (0x12345678u ^ 0x9a000000u));
}

TEST_CASE("xor seeds are XORed into the result") {
  constexpr std::array<std::uint8_t, 4> input{0x0b, 0xb8, 0x1f, 0x90};
  CHECK(h::xor16(input, 0x0001ffff) == (0x1428 ^ 0xffff));
  CHECK(h::xor32(input, 0xdeadbeef) == (0x0bb81f90u ^ 0xdeadbeefu));
}
}  // namespace xor_fold_test
