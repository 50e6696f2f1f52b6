// `replay TRACE... --config C`: PyTorch profiler traces (one per rank, with
// NCCL Inspector logs and Flight Recorder dumps) replayed over time on the
// config's routed fabric, or without traces the config's training job
// (sim/model/replay.h, docs/traces.md). The report is complete: the doors
// only write it.
#pragma once

#include <string>
#include <vector>

#include "sim/base/limits.h"
#include "sim/model/replay.h"

namespace ecmpsim::app {

struct ReplayRequest {
  Limits limits;            // limits.max_capture_bytes bounds every file read
  std::string config;       // empty: default_config_path()
  ReplayInputs inputs;      // no traces: the config's training job (then no other file)
  std::string rank_map;     // a CSV of rank,node,gpu; empty: in order over the first job's nodes
  bool replay_gaps = false;  // each collective after its predecessor plus the measured gap
};

struct ReplayOutcome {
  ReplayReport report;
  std::vector<std::string> inputs;  // the config and the files it reads
};

ReplayOutcome replay(const ReplayRequest& request);

}  // namespace ecmpsim::app
