// A long command's stop signals (see stop_signals.h).
#include "sim/app/stop_signals.h"

#include <pthread.h>

#include <chrono>
#include <utility>

namespace ecmpsim::app {

StopSignals::StopSignals(std::atomic<bool>& stop, int& stopped_by, std::function<void(double)> tick)
    : stop_(stop), stopped_by_(stopped_by), tick_(std::move(tick)) {
  sigemptyset(&set_);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&set_, sig);
  pthread_sigmask(SIG_BLOCK, &set_, &old_);
  thread_ = std::thread([this] { loop(); });
}

StopSignals::~StopSignals() {
  done_.store(true);
  thread_.join();
  const timespec zero{0, 0};
  while (sigtimedwait(&set_, nullptr, &zero) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

int StopSignals::exit_code(int signal) { return signal == SIGTERM || signal == SIGHUP ? 128 + signal : 130; }

void StopSignals::loop() {
  const auto start = std::chrono::steady_clock::now();
  while (!done_.load()) {
    const timespec tick{0, 100'000'000};
    if (const int sig = sigtimedwait(&set_, nullptr, &tick); sig > 0) {
      if (!stop_.exchange(true)) stopped_by_.store(sig);
    }
    if (tick_ && !done_.load()) tick_(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
}

}  // namespace ecmpsim::app
