#include "hashing/bonding.h"

#include <doctest/doctest.h>

#include <cstdint>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"

namespace bonding_test {

namespace h = ecmpsim::hashing;

namespace {

std::uint64_t bond_hash(const h::Tuple& t) {
  h::KeyBuffer buf;
  const std::size_t n = h::build_key(h::KeyLayout::BondL34, {}, t, buf);
  return h::find("linux-bond-l34")->fn(h::Key(buf.data(), n), 0);
}

}  // namespace

TEST_CASE("bonding layer3+4 worked example (bonding.rst formula, little-endian kernel)") {
  // UDP 10.0.0.1:49152 -> 10.0.0.2:4791. By hand, with every 32-bit field
  // read as the kernel does on x86 (network bytes as a little-endian u32):
  //   ports word "as in the header": c0 00 12 b7 -> 0xb71200c0
  //   src 0a 00 00 01 -> 0x0100000a, dst 0a 00 00 02 -> 0x0200000a
  //   hash = 0xb71200c0 ^ 0x0100000a ^ 0x0200000a      = 0xb41200c0
  //   hash ^= hash >> 16: 0xb41200c0 ^ 0x0000b412      = 0xb412b4d2
  //   hash ^= hash >> 8:  0xb412b4d2 ^ 0x00b412b4      = 0xb4a6a666
  //   hash >>= 1                                       = 0x5a535333
  //   slave = hash % count: 2 -> 1, 3 -> 1 (1515410227 = 3 * 505136742 + 1), 4 -> 3
  h::Tuple t;
  t.src_ip = 0x0A000001;
  t.dst_ip = 0x0A000002;
  t.proto = 17;
  t.sport = 49152;
  t.dport = 4791;
  const std::uint64_t hash = bond_hash(t);
  CHECK(hash == 0x5a535333u);
  CHECK(h::select_modulo(hash, 2) == 1);
  CHECK(h::select_modulo(hash, 3) == 1);
  CHECK(h::select_modulo(hash, 4) == 3);
}

TEST_CASE("bonding layer3+4 second worked example (TCP)") {
  // TCP 192.168.1.10:1234 -> 192.168.2.20:80.
  //   ports 04 d2 00 50 -> 0x5000d204; src c0 a8 01 0a -> 0x0a01a8c0;
  //   dst c0 a8 02 14 -> 0x1402a8c0
  //   hash = 0x5000d204 ^ 0x0a01a8c0 ^ 0x1402a8c0      = 0x4e03d204
  //   hash ^= hash >> 16: ^ 0x00004e03                 = 0x4e039c07
  //   hash ^= hash >> 8:  ^ 0x004e039c                 = 0x4e4d9f9b
  //   hash >>= 1                                       = 0x2726cfcd
  h::Tuple t;
  t.src_ip = 0xC0A8010A;
  t.dst_ip = 0xC0A80214;
  t.proto = 6;
  t.sport = 1234;
  t.dport = 80;
  CHECK(bond_hash(t) == 0x2726cfcdu);
}

TEST_CASE("bonding layer3+4 omits ports for protocols without them (bonding.rst)") {
  // ICMP 10.0.0.1 -> 10.0.0.2: hash = 0x0100000a ^ 0x0200000a = 0x03000000;
  // ^ >>16 -> 0x03000300; ^ >>8 -> 0x03030303; >>1 -> 0x01818181.
  h::Tuple t;
  t.src_ip = 0x0A000001;
  t.dst_ip = 0x0A000002;
  t.proto = 1;
  t.sport = 49152;
  t.dport = 4791;
  CHECK(bond_hash(t) == 0x01818181u);
}
}  // namespace bonding_test
