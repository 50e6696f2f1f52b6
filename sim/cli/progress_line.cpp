// The one progress line (see progress_line.h).
#include "sim/cli/progress_line.h"

#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace ecmpsim::cli {
namespace {

// A signal handler reaches static storage only: whether the line is on
// screen (and must be cleared) is the one flag.
std::atomic<bool> g_line_drawn{false};
static_assert(std::atomic<bool>::is_always_lock_free, "read in a signal handler");

extern "C" void on_run_interrupt(int) {
  static constexpr char kMessage[] = "\r\033[Kecmpsim: interrupted\n";
  const std::size_t skip = g_line_drawn.load() ? 0 : 4;  // the clearing escape only over a progress line
  if (::write(STDERR_FILENO, kMessage + skip, sizeof kMessage - 1 - skip) < 0) ::_exit(130);
  ::_exit(130);
}

void draw_flow_model(const app::ProgressUpdate& u, double spent) {
  const double eta =
      u.done > 0 ? spent * static_cast<double>(u.total - u.done) / static_cast<double>(u.done) : 0.0;
  std::fprintf(stderr, "\rflow model: %llu events, %.6g s simulated, %llu/%llu flows finished, ETA %.0f s \033[K",
               static_cast<unsigned long long>(u.events), u.simulated_s, static_cast<unsigned long long>(u.done),
               static_cast<unsigned long long>(u.total), eta);
}

void draw_seed_search(const app::ProgressUpdate& u, double elapsed) {
  const double frac = static_cast<double>(u.done) / static_cast<double>(u.total);
  const double rate = static_cast<double>(u.done) / elapsed;
  const int filled = static_cast<int>(frac * 30);
  std::fprintf(stderr, "\r[%s%s] %5.1f%%  seeds %llu/%llu  %.3g/s  ETA %.0fs ",
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(30 - filled), '.').c_str(), 100 * frac,
               static_cast<unsigned long long>(u.done), static_cast<unsigned long long>(u.total), rate,
               rate > 0 ? static_cast<double>(u.total - u.done) / rate : 0.0);
}

}  // namespace

void draw_sweep_bar(std::uint64_t finished, std::uint64_t total, double elapsed) {
  const double rate = static_cast<double>(finished) / elapsed;
  const double frac = static_cast<double>(finished) / static_cast<double>(total);
  const double eta = rate > 0 ? static_cast<double>(total - finished) / rate : 0;
  const int filled = static_cast<int>(frac * 30);
  std::fprintf(stderr, "\r[%s%s] %5.1f%%  %llu/%llu variants  %.0f/s  ETA %.0fs ",
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(30 - filled), '.').c_str(), 100 * frac,
               static_cast<unsigned long long>(finished), static_cast<unsigned long long>(total), rate, eta);
}

ProgressLine::ProgressLine(bool tty) : tty_(tty) { g_line_drawn.store(false); }

ProgressLine::~ProgressLine() {
  if (g_line_drawn.load()) std::fprintf(stderr, "\r\033[K");
  g_line_drawn.store(false);
}

bool ProgressLine::line_drawn() { return g_line_drawn.load(); }

app::Progress ProgressLine::callback() {
  if (!tty_) return {};
  return [this](const app::ProgressUpdate& u) { update(u); };
}

void ProgressLine::update(const app::ProgressUpdate& u) {
  const std::unique_lock lock(mutex_, std::try_to_lock);  // the seed search calls from every thread
  if (!lock.owns_lock()) return;
  const auto t = Clock::now();
  const bool flow = u.stage == app::ProgressUpdate::Stage::FlowModel;
  if (flow && (u.events < last_events_ || last_events_ == 0)) run_start_ = t;  // the next scenario's run
  if (flow) last_events_ = u.events;
  const double elapsed = std::chrono::duration<double>(t - start_).count();
  const auto interval = std::chrono::milliseconds(flow ? 200 : 100);
  if (elapsed < (flow ? 2.0 : 1.0) || u.total == 0 || u.done > u.total || t - last_draw_ < interval) return;
  last_draw_ = t;
  if (flow)
    draw_flow_model(u, std::chrono::duration<double>(t - run_start_).count());
  else
    draw_seed_search(u, elapsed);
  g_line_drawn.store(true);
}

InterruptExits::InterruptExits() {
  struct sigaction sa {};
  sa.sa_handler = on_run_interrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &old_int_);
}

InterruptExits::~InterruptExits() { ::sigaction(SIGINT, &old_int_, nullptr); }

}  // namespace ecmpsim::cli
