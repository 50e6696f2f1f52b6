// `replay` (see replay.h).
#include "sim/app/replay.h"

#include "sim/app/load.h"
#include <utility>

#include "sim/base/error.h"

namespace ecmpsim::app {

ReplayOutcome replay(const ReplayRequest& q) {
  const Spec spec = load_spec(q.config, q.limits);
  ReplayOutcome out;
  out.inputs = spec_inputs(spec);
  if (q.inputs.traces.empty()) {
    // The files that only say more about traces, refused without them.
    for (const auto& [key, given] : {std::pair{"inspector", !q.inputs.inspector.empty()},
                                     std::pair{"flight_recorder", !q.inputs.flight_recorder.empty()},
                                     std::pair{"rank_map", !q.rank_map.empty()}})
      if (given) throw InputError(option_at(key), "only used with traces");
    out.report = replay_training(spec);
    return out;
  }
  ReplayOptions options;
  options.replay_gaps = q.replay_gaps;
  if (!q.rank_map.empty()) read_rank_map(q.rank_map, options, q.limits.max_capture_bytes);
  ReplayInputs inputs = q.inputs;
  inputs.max_bytes = q.limits.max_capture_bytes;
  out.report = ecmpsim::replay(spec, load_comm_trace(inputs), options);
  return out;
}

}  // namespace ecmpsim::app
