#include "hashing/crc.h"

#include <boost/crc.hpp>

namespace ecmpsim::hashing {
namespace {

// Bits, Poly, Init, FinalXor, ReflectIn, ReflectOut in the catalogue's order.
template <std::size_t Bits, std::uint32_t Poly, std::uint32_t Init, std::uint32_t FinalXor,
          bool RefIn, bool RefOut>
std::uint64_t crc(Key key, std::uint32_t seed) noexcept {
  using Crc = boost::crc_optimal<Bits, Poly, Init, FinalXor, RefIn, RefOut>;
  constexpr std::uint32_t mask = Bits == 32 ? 0xFFFFFFFFu : ((1u << Bits) - 1);
  Crc c(static_cast<typename Crc::value_type>((Init ^ seed) & mask));
  c.process_bytes(key.data(), key.size());
  return static_cast<std::uint64_t>(c.checksum()) & mask;
}

}  // namespace

std::uint64_t crc16_ccitt(Key key, std::uint32_t seed) noexcept {
  return crc<16, 0x1021, 0xFFFF, 0, false, false>(key, seed);
}
std::uint64_t crc16_xmodem(Key key, std::uint32_t seed) noexcept {
  return crc<16, 0x1021, 0, 0, false, false>(key, seed);
}
std::uint64_t crc16_kermit(Key key, std::uint32_t seed) noexcept {
  return crc<16, 0x1021, 0, 0, true, true>(key, seed);
}
std::uint64_t crc16_arc(Key key, std::uint32_t seed) noexcept {
  return crc<16, 0x8005, 0, 0, true, true>(key, seed);
}
std::uint64_t crc16_buypass(Key key, std::uint32_t seed) noexcept {
  return crc<16, 0x8005, 0, 0, false, false>(key, seed);
}
std::uint64_t crc32(Key key, std::uint32_t seed) noexcept {
  return crc<32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, true, true>(key, seed);
}
std::uint64_t crc32_lo(Key key, std::uint32_t seed) noexcept { return crc32(key, seed) & 0xFFFF; }
std::uint64_t crc32_hi(Key key, std::uint32_t seed) noexcept { return crc32(key, seed) >> 16; }
std::uint64_t crc32c(Key key, std::uint32_t seed) noexcept {
  return crc<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>(key, seed);
}

}  // namespace ecmpsim::hashing
