#include "hashing/jenkins.h"

#include <bit>

namespace ecmpsim::hashing {
namespace {

struct State {
  std::uint32_t a, b, c;
};

constexpr std::uint32_t rot(std::uint32_t x, int k) noexcept { return std::rotl(x, k); }

// lookup3.c mix() and final(), unchanged.
constexpr void mix(State& s) noexcept {
  s.a -= s.c; s.a ^= rot(s.c, 4);  s.c += s.b;
  s.b -= s.a; s.b ^= rot(s.a, 6);  s.a += s.c;
  s.c -= s.b; s.c ^= rot(s.b, 8);  s.b += s.a;
  s.a -= s.c; s.a ^= rot(s.c, 16); s.c += s.b;
  s.b -= s.a; s.b ^= rot(s.a, 19); s.a += s.c;
  s.c -= s.b; s.c ^= rot(s.b, 4);  s.b += s.a;
}

constexpr void final_mix(State& s) noexcept {
  s.c ^= s.b; s.c -= rot(s.b, 14);
  s.a ^= s.c; s.a -= rot(s.c, 11);
  s.b ^= s.a; s.b -= rot(s.a, 25);
  s.c ^= s.b; s.c -= rot(s.b, 16);
  s.a ^= s.c; s.a -= rot(s.c, 4);
  s.b ^= s.a; s.b -= rot(s.a, 14);
  s.c ^= s.b; s.c -= rot(s.b, 24);
}

// Little-endian word from up to four bytes; missing bytes count as zero,
// which is what hashlittle's fall-through tail switch adds.
std::uint32_t le_word(const std::uint8_t* p, std::size_t avail) noexcept {
  std::uint32_t w = 0;
  for (std::size_t i = 0; i < 4 && i < avail; ++i) w |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return w;
}

}  // namespace

std::uint32_t lookup3_hashlittle(Key key, std::uint32_t initval) noexcept {
  std::size_t length = key.size();
  const std::uint8_t* k = key.data();
  const std::uint32_t init = 0xdeadbeefu + static_cast<std::uint32_t>(length) + initval;
  State s{init, init, init};

  while (length > 12) {
    s.a += le_word(k, 4);
    s.b += le_word(k + 4, 4);
    s.c += le_word(k + 8, 4);
    mix(s);
    length -= 12;
    k += 12;
  }
  if (length == 0) return s.c;  // only for an empty key: lookup3 skips final()
  s.a += le_word(k, length);
  if (length > 4) s.b += le_word(k + 4, length - 4);
  if (length > 8) s.c += le_word(k + 8, length - 8);
  final_mix(s);
  return s.c;
}

std::uint64_t jenkins(Key key, std::uint32_t seed) noexcept { return lookup3_hashlittle(key, seed); }
std::uint64_t jenkins_lo(Key key, std::uint32_t seed) noexcept {
  return lookup3_hashlittle(key, seed) & 0xFFFFu;
}
std::uint64_t jenkins_hi(Key key, std::uint32_t seed) noexcept {
  return lookup3_hashlittle(key, seed) >> 16;
}

}  // namespace ecmpsim::hashing
