// A long command's stop signals, watched from a thread of their own while
// alive: SIGINT, SIGTERM (what `timeout` and Slurm send), SIGHUP or SIGUSR1
// (which mpirun forwards to every rank, unlike its Ctrl-C) set `stop`. They
// are blocked in every other thread, so they are only ever delivered there;
// one that arrives after the end is consumed, not delivered late.
#pragma once

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>

namespace ecmpsim::app {

class StopSignals {
 public:
  // `stopped_by` gets the signal that set `stop` first. `tick`, if any, runs
  // on the watching thread about every 100 ms with the seconds since the
  // start (a door's progress line), never after the destructor begins.
  StopSignals(std::atomic<bool>& stop, int& stopped_by, std::function<void(double)> tick);
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The shell's code for a command `signal` stopped: 128 + SIGTERM or
  // SIGHUP; SIGINT's 130 otherwise (SIGUSR1, mpirun's forwarded Ctrl-C, too).
  static int exit_code(int signal);

 private:
  void loop();

  std::atomic<bool>& stop_;
  std::atomic_ref<int> stopped_by_;
  std::function<void(double)> tick_;
  sigset_t set_{}, old_{};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace ecmpsim::app
