#include "hashing/jenkins.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string_view>

#include "hashing/hasher.h"

namespace jenkins_test {

namespace h = ecmpsim::hashing;

namespace {

h::Key bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

TEST_CASE("lookup3 hashlittle: values printed by lookup3.c's driver5()") {
  constexpr std::string_view four_score = "Four score and seven years ago";
  CHECK(h::lookup3_hashlittle(bytes(""), 0) == 0xdeadbeefu);
  CHECK(h::lookup3_hashlittle(bytes(four_score), 0) == 0x17770551u);
  CHECK(h::lookup3_hashlittle(bytes(four_score), 1) == 0xcd628161u);
}

TEST_CASE("jenkins catalogue entries: 32 bits, and SAI JENKINS_LO / _HI halves") {
  constexpr std::string_view four_score = "Four score and seven years ago";
  CHECK(h::find("jenkins")->fn(bytes(four_score), 0) == 0x17770551u);
  CHECK(h::find("jenkins")->fn(bytes(four_score), 1) == 0xcd628161u);
  CHECK(h::find("jenkins-lo")->fn(bytes(four_score), 0) == 0x0551u);
  CHECK(h::find("jenkins-hi")->fn(bytes(four_score), 0) == 0x1777u);
  CHECK(h::find("jenkins-lo")->fn(bytes(four_score), 1) == 0x8161u);
  CHECK(h::find("jenkins-hi")->fn(bytes(four_score), 1) == 0xcd62u);
}
}  // namespace jenkins_test
