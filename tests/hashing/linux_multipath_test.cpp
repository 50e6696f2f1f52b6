#include "hashing/linux_multipath.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"

namespace linux_multipath_test {

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

namespace {

struct Observed {
  const char* src;
  const char* dst;
  std::uint16_t sport;
  std::uint16_t dport;
  std::uint32_t next_hop;
};

std::uint32_t ipv4(const char* s) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  REQUIRE(std::sscanf(s, "%u.%u.%u.%u", &a, &b, &c, &d) == 4);
  return (a << 24) | (b << 16) | (c << 8) | d;
}

void check_kernel(const char* algo, std::uint32_t seed, const std::vector<std::uint32_t>& weights,
                  const std::vector<Observed>& rows) {
  const h::Algorithm* a = h::find(algo);
  const auto bounds = h::threshold_bounds(weights, a->bits);
  for (const Observed& o : rows) {
    CAPTURE(o.src);
    h::KeyBuffer buf;
    const std::size_t n = h::build_key(a->layout, {}, udp(ipv4(o.src), ipv4(o.dst), o.sport, o.dport), buf);
    CHECK(h::select_threshold(a->fn(h::Key(buf.data(), n), seed), bounds) == o.next_hop);
  }
}

}  // namespace

// Next hops the running kernel chose (Linux 6.18, x86-64) for
// `ip route get DST from SRC iif vin ipproto udp sport S dport D` on the
// routes tests/kernel/linux_multipath.sh builds; recorded from one run
// (ECMPSIM_HK_KEEP) so the model stays pinned without root.
TEST_CASE("kernel-observed choices: 8 equal next hops, seed 0xdeadbeef, policy 0") {
  check_kernel("linux-l3", 0xdeadbeef, std::vector<std::uint32_t>(8, 1),
               {{"24.180.127.164", "172.21.105.25", 35164, 4791, 6},
                {"89.103.251.111", "172.21.94.168", 46083, 26946, 4},
                {"8.28.61.234", "172.21.189.203", 17758, 11410, 7},
                {"60.89.56.30", "172.21.231.13", 21207, 33801, 3},
                {"30.6.3.224", "172.21.112.29", 27321, 4791, 7},
                {"19.132.102.148", "172.21.226.15", 18477, 19470, 1}});
}

TEST_CASE("kernel-observed choices: 8 equal next hops, seed 0xdeadbeef, policy 1") {
  check_kernel("linux-l4", 0xdeadbeef, std::vector<std::uint32_t>(8, 1),
               {{"3.1.194.38", "172.21.79.172", 8618, 4791, 1},
                {"26.243.113.95", "172.21.13.72", 57112, 4415, 0},
                {"65.195.41.187", "172.21.105.7", 45262, 29112, 7},
                {"73.206.164.149", "172.21.243.200", 45594, 40533, 2},
                {"102.179.97.243", "172.21.3.15", 5741, 4791, 3},
                {"27.1.135.150", "172.21.15.206", 30046, 8358, 2}});
}

TEST_CASE("kernel-observed choices: weights 1,3,5,2, seed 42, both policies") {
  check_kernel("linux-l3", 42, {1, 3, 5, 2},
               {{"40.190.88.16", "172.22.59.119", 19043, 4791, 3},
                {"124.136.166.227", "172.22.44.153", 59891, 28884, 2},
                {"51.207.148.153", "172.22.12.158", 63058, 27277, 0},
                {"110.123.72.173", "172.22.194.160", 14013, 43360, 1}});
  check_kernel("linux-l4", 42, {1, 3, 5, 2},
               {{"82.142.156.19", "172.22.35.140", 58574, 4791, 3},
                {"125.21.158.87", "172.22.222.187", 39197, 39769, 2},
                {"110.250.131.237", "172.22.62.93", 58840, 13976, 3},
                {"63.245.187.44", "172.22.212.103", 40393, 18936, 3}});
}

namespace {

h::Tuple udp6(const char* src, const char* dst, std::uint16_t sport, std::uint16_t dport, std::uint32_t label) {
  h::Tuple t;
  t.src_ip = *h::parse_ip(src);
  t.dst_ip = *h::parse_ip(dst);
  t.proto = 17;
  t.sport = sport;
  t.dport = dport;
  t.flow_label = label;
  return t;
}

}  // namespace

TEST_CASE("IPv6 flow_keys (rt6_multipath_hash): 72 bytes; policy 0 = addresses, flow label, next header") {
  const auto k = flow_keys(udp6("fd00::1", "fd00::2", 49152, 4791, 0xABCDE), false);
  REQUIRE(k.size() == 72);  // flow_keys_hash_length: 80 - (8 + 32 - 32)
  std::vector<std::uint8_t> want(72, 0);
  want[2] = 17;  // basic.ip_proto = the next header
  // tags.flow_label holds the be32 word masked with IPV6_FLOWLABEL_MASK.
  want[4] = 0x00, want[5] = 0x0A, want[6] = 0xBC, want[7] = 0xDE;
  want[36] = 0xfd, want[51] = 0x01;  // addrs.v6addrs.src = fd00::1
  want[52] = 0xfd, want[67] = 0x02;  // dst = fd00::2
  CHECK(k == want);
}

TEST_CASE("IPv6 policy 1: addresses, ports and next header, no flow label") {
  const auto k = flow_keys(udp6("fd00::1", "fd00::2", 49152, 4791, 0xABCDE), true);
  REQUIRE(k.size() == 72);
  std::vector<std::uint8_t> want(72, 0);
  want[2] = 17;
  // Ports swapped when dst < src as little-endian u16: 4791 = b7 12 -> 0x12b7;
  // 49152 = c0 00 -> 0x00c0: 0x12b7 > 0x00c0, so they stay.
  want[28] = 0xC0, want[29] = 0x00, want[30] = 0x12, want[31] = 0xB7;
  want[36] = 0xfd, want[51] = 0x01;
  want[52] = 0xfd, want[67] = 0x02;
  CHECK(k == want);
}

TEST_CASE("IPv6 __flow_hash_consistentify: addresses ordered by memcmp, both directions hash alike") {
  const auto fwd = flow_keys(udp6("fd00::9", "fd00::2", 1000, 2000, 5), true);
  const auto rev = flow_keys(udp6("fd00::2", "fd00::9", 2000, 1000, 5), true);
  CHECK(fwd == rev);
  CHECK(fwd[51] == 0x02);  // the smaller address first
  // Negative control: a different flow label changes policy 0's key, not policy 1's.
  CHECK(flow_keys(udp6("fd00::1", "fd00::2", 1, 2, 5), false) != flow_keys(udp6("fd00::1", "fd00::2", 1, 2, 6), false));
  CHECK(flow_keys(udp6("fd00::1", "fd00::2", 1, 2, 5), true) == flow_keys(udp6("fd00::1", "fd00::2", 1, 2, 6), true));
}
}  // namespace linux_multipath_test
