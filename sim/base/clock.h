// Wall-clock intervals for progress lines and the emulator's measured times:
// one steady clock and one way to read an interval in seconds.
#pragma once

#include <chrono>

namespace ecmpsim {

using Clock = std::chrono::steady_clock;

// Seconds from `t` to now.
inline double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace ecmpsim
