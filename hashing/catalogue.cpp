#include <array>

#include "hashing/crc.h"
#include "hashing/hasher.h"

namespace ecmpsim::hashing {
namespace {

constexpr std::array kAlgorithms{
    Algorithm{"crc16-ccitt", 16, &crc16_ccitt, KeyLayout::Fields,
              "CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); seed XORed into the initial value"},
};

}  // namespace

std::span<const Algorithm> catalogue() noexcept { return kAlgorithms; }

const Algorithm* find(std::string_view name) noexcept {
  for (const Algorithm& a : kAlgorithms)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace ecmpsim::hashing
