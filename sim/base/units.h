// Units as types, so a link speed cannot be added to a byte count by mistake.
#pragma once

#include <cstdint>

namespace ecmpsim {

struct Gbps {
  double value = 0;
  friend constexpr auto operator<=>(Gbps, Gbps) = default;
};

struct Bytes {
  std::uint64_t value = 0;
  friend constexpr auto operator<=>(Bytes, Bytes) = default;
};

struct Seconds {
  double value = 0;
  friend constexpr auto operator<=>(Seconds, Seconds) = default;
};

// Time to move `b` at rate `r` (1 Gb/s = 1e9 bit/s).
constexpr Seconds transfer_time(Bytes b, Gbps r) { return Seconds{static_cast<double>(b.value) * 8.0 / (r.value * 1e9)}; }

}  // namespace ecmpsim
