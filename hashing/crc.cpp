#include "hashing/crc.h"

#include <boost/crc.hpp>

namespace ecmpsim::hashing {

std::uint64_t crc16_ccitt(Key key, std::uint32_t seed) noexcept {
  boost::crc_optimal<16, 0x1021, 0xFFFF, 0, false, false> crc(
      static_cast<std::uint16_t>(0xFFFF ^ (seed & 0xFFFF)));
  crc.process_bytes(key.data(), key.size());
  return crc.checksum();
}

}  // namespace ecmpsim::hashing
