// The two inputs beside the profiler traces: NCCL Inspector logs (NCCL >=
// 2.28, ext-profiler/inspector: one JSON object per collective and
// communicator, {"header": {"id", "rank", ...}, "coll_perf": {"coll",
// "coll_sn", "coll_msg_size_bytes", "coll_exec_time_us", ...}}), the measured
// times, and PyTorch Flight Recorder dumps in JSON (pg_config: each group's
// name and ranks), the membership the profiler cuts after 30 ranks. Pure
// functions of the bytes; errors name the file and line or field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "workloads/traces/comm_trace.h"

namespace ecmpsim::workloads {

// Every record of an Inspector log: JSON objects one after another (one per
// line as the plugin writes them, or pretty-printed).
std::vector<InspectorRecord> read_inspector(std::string_view text, const std::string& file);

// The process groups of a Flight Recorder JSON dump.
std::vector<TraceGroup> read_flight_recorder(std::string_view text, const std::string& file);

}  // namespace ecmpsim::workloads
