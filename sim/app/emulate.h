// `emulate`: build the config's fabric from Linux network namespaces, send
// the flows, and compare the kernel's decisions (and, with measure_time, the
// timed flows' slowdown) with the prediction (sim/emulate/emulate.h).
#pragma once

#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "sim/base/limits.h"
#include "sim/emulate/emulate.h"

namespace ecmpsim::app {

struct EmulateRequest {
  Limits limits;
  std::string config;  // empty: default_config_path()
  EmulateOptions options;
  std::string scale;   // measure_time: emulated / configured speed, 1/N or (0, 1]; empty: chosen
  std::string method = "both";  // packets, route-get or both: options.methods
  // Where the door will write the output and the observations: refused
  // before the work if either names an input.
  std::string out, observations;
};

struct EmulateOutcome {
  std::shared_ptr<const Simulation> sim;
  EmulateReport report;
  bool interrupted = false;  // stopped by `stop`; the emulated fabric was removed
  std::vector<std::string> inputs;  // the files read: what no output may replace
};

// InputError when not root. `stop`, set by the door (a signal), ends the
// emulation between steps.
EmulateOutcome emulate(const EmulateRequest& request, const volatile std::sig_atomic_t* stop);

// Deletes the namespaces left by emulate runs that no longer exist; their names.
std::vector<std::string> emulate_cleanup();

}  // namespace ecmpsim::app
