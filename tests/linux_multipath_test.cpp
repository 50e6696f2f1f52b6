#include "hashing/linux_multipath.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"

namespace h = ecmpsim::hashing;

namespace {

std::vector<std::uint8_t> flow_keys(const h::Tuple& t, bool l4) {
  h::KeyBuffer buf;
  const std::size_t n = h::build_key(l4 ? h::KeyLayout::LinuxL4 : h::KeyLayout::LinuxL3, {}, t, buf);
  return {buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n)};
}

h::Tuple udp(std::uint32_t src, std::uint32_t dst, std::uint16_t sport, std::uint16_t dport) {
  h::Tuple t;
  t.src_ip = src;
  t.dst_ip = dst;
  t.proto = 17;
  t.sport = sport;
  t.dport = dport;
  return t;
}

}  // namespace

TEST_CASE("fib_multipath_hash_construct_key: both SipHash key words are (seed << 32) | seed") {
  constexpr h::SipKey k = h::linux_multipath_sipkey(0x12345678);
  CHECK(k.k0 == 0x1234567812345678ULL);
  CHECK(k.k1 == 0x1234567812345678ULL);
}

TEST_CASE("struct flow_keys bytes hashed for policy 1 (64-bit kernel layout)") {
  // 10.0.0.1:0xc001 -> 10.0.1.2:4791. Native (little-endian) comparison:
  // dst 0x0201000a > src 0x0100000a keeps the addresses; dport 0xb712 <
  // sport 0x01c0 is false, so the ports stay too.
  const auto k = flow_keys(udp(0x0A000001, 0x0A000102, 0xC001, 4791), true);
  std::vector<std::uint8_t> want(48, 0);
  want[2] = 17;                                              // basic.ip_proto
  want[28] = 0xC0, want[29] = 0x01, want[30] = 0x12, want[31] = 0xB7;  // ports.src, ports.dst
  want[36] = 10, want[37] = 0, want[38] = 0, want[39] = 1;   // addrs.v4addrs.src
  want[40] = 10, want[41] = 0, want[42] = 1, want[43] = 2;   // addrs.v4addrs.dst
  CHECK(k == want);
}

TEST_CASE("policy 0 hashes only the addresses: no n_proto, no ip_proto, no ports") {
  const auto k = flow_keys(udp(0x0A000001, 0x0A000102, 0xC001, 4791), false);
  std::vector<std::uint8_t> want(48, 0);
  want[36] = 10, want[37] = 0, want[38] = 0, want[39] = 1;
  want[40] = 10, want[41] = 0, want[42] = 1, want[43] = 2;
  CHECK(k == want);
}

TEST_CASE("__flow_hash_consistentify: addresses and ports are ordered independently, as LE integers") {
  // 10.0.0.2 is 0x0200000a natively, 1.0.0.3 is 0x03000001: 1.0.0.3 sorts
  // last although it is the smaller address in network order.
  const auto k = flow_keys(udp(0x01000003, 0x0A000002, 0x0100, 0x0002), true);
  CHECK(std::vector<std::uint8_t>(k.begin() + 36, k.begin() + 44) ==
        std::vector<std::uint8_t>{10, 0, 0, 2, 1, 0, 0, 3});
  // Ports: 0x0100 is 0x0001 natively, 0x0002 is 0x0200: no swap.
  CHECK(std::vector<std::uint8_t>(k.begin() + 28, k.begin() + 32) ==
        std::vector<std::uint8_t>{0x01, 0x00, 0x00, 0x02});
  // Reverse direction gives the same bytes, hence the same hash.
  CHECK(flow_keys(udp(0x0A000002, 0x01000003, 0x0002, 0x0100), true) == k);
  // Addresses swap while ports do not (and vice versa): independent sorting.
  CHECK(flow_keys(udp(0x0A000002, 0x01000003, 0x0100, 0x0002), true) == k);
}

TEST_CASE("protocols without ports hash with zero ports under policy 1") {
  h::Tuple t = udp(0x0A000001, 0x0A000102, 0xC001, 4791);
  t.proto = 47;  // GRE
  const auto k = flow_keys(t, true);
  CHECK(k[2] == 47);
  CHECK(std::vector<std::uint8_t>(k.begin() + 28, k.begin() + 32) == std::vector<std::uint8_t>(4, 0));
}

TEST_CASE("linux-l3 / linux-l4 catalogue entries: 31 bits, threshold selection") {
  for (const char* name : {"linux-l3", "linux-l4"}) {
    const h::Algorithm* a = h::find(name);
    REQUIRE(a != nullptr);
    CHECK(a->bits == 31);
  }
  CHECK(h::find("linux-l3")->layout == h::KeyLayout::LinuxL3);
  CHECK(h::find("linux-l4")->layout == h::KeyLayout::LinuxL4);
}
