#include "hashing/toeplitz.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "hashing/hasher.h"

namespace toeplitz_test {

namespace h = ecmpsim::hashing;

namespace {

struct Vector {
  const char* src;
  std::uint16_t sport;
  const char* dst;
  std::uint16_t dport;
  std::uint32_t ip_only;
  std::uint32_t with_ports;
};

// Input = src addr, dst addr[, src port, dst port], all network byte order.
std::vector<std::uint8_t> rss_input(int family, const Vector& v, bool ports) {
  std::array<std::uint8_t, 16> a{};
  std::vector<std::uint8_t> out;
  const std::size_t len = family == AF_INET ? 4 : 16;
  for (const char* addr : {v.src, v.dst}) {
    REQUIRE(inet_pton(family, addr, a.data()) == 1);
    out.insert(out.end(), a.begin(), a.begin() + static_cast<std::ptrdiff_t>(len));
  }
  if (ports)
    for (std::uint16_t p : {v.sport, v.dport}) {
      out.push_back(static_cast<std::uint8_t>(p >> 8));
      out.push_back(static_cast<std::uint8_t>(p));
    }
  return out;
}

}  // namespace

TEST_CASE("Toeplitz: RSS verification suite, IPv4 (Intel 82599 7.1.2.8.3, DPDK test_thash)") {
  constexpr std::array vectors{
      Vector{"66.9.149.187", 2794, "161.142.100.80", 1766, 0x323e8fc2, 0x51ccc178},
      Vector{"199.92.111.2", 14230, "65.69.140.83", 4739, 0xd718262a, 0xc626b0ea},
      Vector{"24.19.198.95", 12898, "12.22.207.184", 38024, 0xd2d0a5de, 0x5c2b394a},
      Vector{"38.27.205.30", 48228, "209.142.163.6", 2217, 0x82989176, 0xafc7327f},
      Vector{"153.39.163.191", 44251, "202.188.127.2", 1303, 0x5d1809c5, 0x10e828a2},
  };
  for (const Vector& v : vectors) {
    CAPTURE(v.src);
    CHECK(h::toeplitz_hash(rss_input(AF_INET, v, false), h::kDefaultRssKey, 0) == v.ip_only);
    CHECK(h::toeplitz_hash(rss_input(AF_INET, v, true), h::kDefaultRssKey, 0) == v.with_ports);
    CHECK(h::find("toeplitz")->fn(rss_input(AF_INET, v, true), 0) == v.with_ports);
  }
}

TEST_CASE("Toeplitz: RSS verification suite, IPv6 (Microsoft 'Verifying the RSS hash calculation')") {
  // 36-byte inputs use all 40 key bytes.
  constexpr std::array vectors{
      Vector{"3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766, 0x2cc18cd5, 0x40207d3d},
      Vector{"3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739, 0x0f0c461c, 0xdde51bbf},
      Vector{"3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251, "fe80::200:f8ff:fe21:67cf", 38024, 0x4b61e985,
             0x02d1feef},
  };
  for (const Vector& v : vectors) {
    CAPTURE(v.src);
    CHECK(h::toeplitz_hash(rss_input(AF_INET6, v, false), h::kDefaultRssKey, 0) == v.ip_only);
    CHECK(h::toeplitz_hash(rss_input(AF_INET6, v, true), h::kDefaultRssKey, 0) == v.with_ports);
  }
}

TEST_CASE("Toeplitz: the key is configurable and the seed enters every key word") {
  const Vector v{"66.9.149.187", 2794, "161.142.100.80", 1766, 0, 0};
  const auto in = rss_input(AF_INET, v, true);
  h::RssKey seeded = h::kDefaultRssKey;
  for (std::size_t w = 0; w < seeded.size(); w += 4) {
    seeded[w] ^= 0x12;
    seeded[w + 3] ^= 0x78;
  }
  CHECK(h::toeplitz_hash(in, seeded, 0) == h::toeplitz_hash(in, h::kDefaultRssKey, 0x12000078));
  CHECK(h::toeplitz_hash(in, seeded, 0) != 0x51ccc178);
  // By hand: input 00 00 00 01 sets only bit 31, which XORs in key bits 31..62:
  // the last bit of word 0 and the first 31 of word 1. With a zero key and
  // seed s both words are s, so the hash is s rotated right by one.
  constexpr std::array<std::uint8_t, 4> bit31{0, 0, 0, 1};
  CHECK(h::toeplitz_hash(bit31, h::RssKey{}, 0x80000001u) == 0xC0000000u);
  CHECK(h::toeplitz_hash(bit31, h::RssKey{}, 0x12345678u) == 0x091A2B3Cu);
  // The low bits a modulo selection reads move with the seed even when the
  // key's first bytes (a 10.x source address) are the same for every flow.
  const std::array<std::uint8_t, 13> roce{10, 0, 0, 1, 10, 0, 1, 1, 17, 0xC0, 0x04, 0x12, 0xB7};
  std::set<std::uint32_t> low2;
  for (std::uint32_t s = 0; s < 64; ++s) low2.insert(h::toeplitz_hash(roce, h::kDefaultRssKey, s) & 3);
  CHECK(low2.size() == 4);
  // A key of all zero bits hashes everything to 0 (no key bits to XOR in).
  CHECK(h::toeplitz_hash(in, h::RssKey{}, 0) == 0);
}
}  // namespace toeplitz_test
