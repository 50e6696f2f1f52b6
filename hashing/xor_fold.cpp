#include "hashing/xor_fold.h"

namespace ecmpsim::hashing {
namespace {

template <std::size_t Width>
std::uint64_t fold(Key key) noexcept {
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < key.size(); i += Width) {
    std::uint64_t word = 0;
    for (std::size_t j = 0; j < Width; ++j)
      word = (word << 8) | (i + j < key.size() ? key[i + j] : 0u);
    h ^= word;
  }
  return h;
}

}  // namespace

std::uint64_t xor16(Key key, std::uint32_t seed) noexcept { return fold<2>(key) ^ (seed & 0xFFFFu); }

std::uint64_t xor32(Key key, std::uint32_t seed) noexcept { return fold<4>(key) ^ seed; }

}  // namespace ecmpsim::hashing
