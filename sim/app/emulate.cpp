// `emulate` (see emulate.h).
#include "sim/app/emulate.h"

#include <unistd.h>

#include "sim/app/load.h"
#include "sim/base/error.h"
#include "sim/emulate/emulate_time.h"
#include "sim/emulate/emulated_fabric.h"

namespace ecmpsim::app {
namespace {

void require_root() {
  if (::geteuid() != 0)
    throw InputError({{}, 0, 0, "emulate"}, "needs root (CAP_SYS_ADMIN) to create network namespaces");
}

}  // namespace

std::vector<std::string> emulate_cleanup() {
  require_root();
  return cleanup_leftovers();
}

EmulateOutcome emulate(const EmulateRequest& q, const volatile std::sig_atomic_t* stop) {
  require_root();
  EmulateOutcome out;
  out.sim = std::make_shared<const Simulation>(load_spec(q.config, q.limits));
  out.inputs = spec_inputs(out.sim->spec());
  if (!q.observations.empty()) check_out(q.observations, out.inputs);
  check_out(q.out, out.inputs);
  EmulateOptions e = q.options;
  if (q.method != "both") e.methods = {q.method == "packets" ? EmulateMethod::Packets : EmulateMethod::RouteGet};
  if (!q.scale.empty()) {
    e.time.scale = parse_scale(q.scale);
    if (!e.time.scale) throw InputError(option_at("scale"), "expected 1/N or a number in (0, 1], got '" + q.scale + "'");
  }
  e.stop = stop;
  try {
    out.report = ecmpsim::emulate(*out.sim, e);
  } catch (const Interrupted&) {
    out.interrupted = true;
  } catch (const std::runtime_error& err) {
    if (stop == nullptr || *stop == 0 || dynamic_cast<const InputError*>(&err) != nullptr) throw;
    out.interrupted = true;
  }
  return out;
}

}  // namespace ecmpsim::app
