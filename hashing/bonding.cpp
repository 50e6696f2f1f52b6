#include "hashing/bonding.h"

#include <cstring>

#include "hashing/linux_multipath.h"

namespace ecmpsim::hashing {

std::size_t bond_l34_key(const Tuple& t, std::uint8_t* out) noexcept {
  std::memset(out, 0, kBondL34KeyBytes);
  if (linux_proto_has_ports(t.proto)) {
    out[0] = static_cast<std::uint8_t>(t.sport >> 8);
    out[1] = static_cast<std::uint8_t>(t.sport);
    out[2] = static_cast<std::uint8_t>(t.dport >> 8);
    out[3] = static_cast<std::uint8_t>(t.dport);
  }
  const auto src = t.src_ip.wire();
  const auto dst = t.dst_ip.wire();
  std::memcpy(out + 4, src.data(), src.size());
  std::memcpy(out + 4 + src.size(), dst.data(), dst.size());
  return 4 + src.size() + dst.size();
}

std::uint64_t linux_bond_l34(Key key, std::uint32_t seed) noexcept {
  std::uint32_t h = seed;
  for (std::size_t i = 0; i < key.size(); ++i) h ^= static_cast<std::uint32_t>(key[i]) << (8 * (i % 4));
  h ^= h >> 16;
  h ^= h >> 8;
  return h >> 1;
}

}  // namespace ecmpsim::hashing
