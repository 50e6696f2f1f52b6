// The command line's one progress line, drawn on a terminal's stderr from the
// progress callback of an app:: command (sim/app/progress.h): the flow
// model's events, simulated time, flows finished and ETA once a run has taken
// 2 s; the seed search's bar once a fit has taken 1 s; a sweep's bar. At most one draw per
// 200 ms (100 ms for the bar); cleared when the command ends.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <csignal>
#include <mutex>

#include "sim/app/progress.h"

namespace ecmpsim::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool tty);
  ~ProgressLine();  // clears a drawn line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  // The callback to hand to the command; empty off a terminal.
  app::Progress callback();
  // Whether a line is on screen now (read by run's SIGINT handler through line_drawn()).
  static bool line_drawn();

 private:
  using Clock = std::chrono::steady_clock;
  void update(const app::ProgressUpdate& u);
  bool tty_;
  Clock::time_point start_ = Clock::now(), last_draw_{}, run_start_ = start_;
  std::uint64_t last_events_ = 0;
  std::mutex mutex_;
};

// A sweep's bar on stderr: `finished` of `total` variants after `elapsed`
// seconds, their rate and the ETA (sweep draws it from its stop signals'
// tick once it has run 1 s, and clears it with "\r\033[K").
void draw_sweep_bar(std::uint64_t finished, std::uint64_t total, double elapsed);

// While alive: SIGINT during a run prints "ecmpsim: interrupted" (over a
// drawn progress line) and exits 130 at once, whatever the stage. Nothing is
// written before the run ends, so no partial output is left.
class InterruptExits {
 public:
  InterruptExits();
  ~InterruptExits();
  InterruptExits(const InterruptExits&) = delete;
  InterruptExits& operator=(const InterruptExits&) = delete;

 private:
  struct sigaction old_int_ {};
};

}  // namespace ecmpsim::cli
