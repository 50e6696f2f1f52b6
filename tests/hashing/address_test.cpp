#include "hashing/address.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>

namespace address_test {

namespace h = ecmpsim::hashing;

namespace {

h::IpAddr v6(std::initializer_list<std::uint8_t> head, std::initializer_list<std::uint8_t> tail) {
  std::array<std::uint8_t, 16> b{};
  std::size_t i = 0;
  for (std::uint8_t x : head) b[i++] = x;
  i = 16 - tail.size();
  for (std::uint8_t x : tail) b[i++] = x;
  return h::IpAddr::v6(b);
}

}  // namespace

TEST_CASE("addresses parse and print in both families (RFC 4291 in, RFC 5952 out)") {
  CHECK(h::parse_ip("10.0.1.2") == h::IpAddr(0x0A000102u));
  CHECK(h::parse_ip("10.0.1.2")->is_v4());
  CHECK(h::parse_ip("fd00::1") == v6({0xfd, 0x00}, {0x01}));
  CHECK(h::parse_ip("FD00:0:0:0:0:0:0:1") == v6({0xfd, 0x00}, {0x01}));
  CHECK_FALSE(h::parse_ip("fd00::1")->is_v4());
  CHECK(h::format_ip(*h::parse_ip("fd00:0:0:0:0:0:1:0")) == "fd00::1:0");
  CHECK(h::format_ip(h::IpAddr(0xC0A80001u)) == "192.168.0.1");
  // An IPv4-mapped address is IPv4: the family is read off the bytes.
  CHECK(h::parse_ip("::ffff:10.0.0.1") == h::IpAddr(0x0A000001u));
  for (const char* bad : {"fd00:::1", "fd00::1::2", "fd00::g", "1:2:3:4:5:6:7:8:9", "10.0.0", "10.0.0.256", "", ":"})
    CHECK_MESSAGE(!h::parse_ip(bad), bad);
}

TEST_CASE("the wire form is 4 bytes for IPv4 and 16 for IPv6, in network order") {
  const h::IpAddr a(0x0A000102u);
  REQUIRE(a.wire().size() == 4);
  CHECK(a.wire()[0] == 10);
  CHECK(a.wire()[3] == 2);
  const auto b = *h::parse_ip("2001:db8::102");
  REQUIRE(b.wire().size() == 16);
  CHECK(b.wire()[0] == 0x20);
  CHECK(b.wire()[1] == 0x01);
  CHECK(b.wire()[14] == 0x01);
  CHECK(b.wire()[15] == 0x02);
  CHECK(a.bits() == 32);
  CHECK(b.bits() == 128);
}

TEST_CASE("plus carries across bytes and stops at the end of the family's space") {
  CHECK(*h::parse_ip("fd00::ff")->plus(1) == *h::parse_ip("fd00::100"));
  CHECK(*h::parse_ip("fd00::")->plus(0x10001) == *h::parse_ip("fd00::1:1"));
  CHECK(*h::parse_ip("fd00::ffff:ffff:ffff:ffff")->plus(1) == *h::parse_ip("fd00:0:0:1::"));
  CHECK_FALSE(h::parse_ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe")->plus(2));
  CHECK(h::parse_ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe")->plus(1));
  // IPv4 does not spill into the mapped prefix.
  CHECK_FALSE(h::IpAddr(0xFFFFFFFFu).plus(1));
  CHECK(*h::IpAddr(0x0A0000FFu).plus(1) == h::IpAddr(0x0A000100u));
}

TEST_CASE("prefixes: parse, reject host bits and lengths past the family, match by bits") {
  const auto p = h::parse_ip_prefix("fd00:0:0:1::/64");
  REQUIRE(p);
  CHECK(p->len == 64);
  CHECK(h::format_ip_prefix(*p) == "fd00:0:0:1::/64");
  CHECK(h::parse_ip_prefix("fd00::1")->len == 128);
  CHECK(h::parse_ip_prefix("10.0.1.0/24")->len == 24);
  CHECK_FALSE(h::parse_ip_prefix("fd00::1/64"));   // host bits set
  CHECK_FALSE(h::parse_ip_prefix("fd00::/129"));
  CHECK_FALSE(h::parse_ip_prefix("10.0.0.0/33"));
  CHECK_FALSE(h::parse_ip_prefix("fd00::/"));
  CHECK(h::parse_ip("fd00:0:0:1::7")->in_prefix(p->addr, 64));
  CHECK_FALSE(h::parse_ip("fd00:0:0:2::7")->in_prefix(p->addr, 64));
  CHECK(h::parse_ip("fd00:0:0:1::7")->in_prefix(*h::parse_ip("fd00::"), 63));  // 1 is bit 63
  CHECK_FALSE(h::parse_ip("fd00:0:0:1::7")->in_prefix(*h::parse_ip("fd00::"), 64));
  // Families never match each other, even the /0s.
  CHECK_FALSE(h::IpAddr(0x0A000001u).in_prefix(*h::parse_ip("::"), 0));
  CHECK(h::IpAddr(0x0A000001u).in_prefix(h::IpAddr(0x0A000000u), 8));
}
}  // namespace address_test
