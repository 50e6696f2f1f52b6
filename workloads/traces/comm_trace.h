// The collectives of a training job as its ranks' traces record them: what
// every trace reader returns (PyTorch profiler traces, NCCL Inspector lines,
// Flight Recorder dumps) and what the join of the ranks makes of them. Plain
// data with their sources' units (microseconds, element counts); the replay
// on the fabric is sim/model/replay.h. Formats and sources: docs/traces.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workloads/nccl.h"

namespace ecmpsim::workloads {

// The operations a trace names, one row each (trace_ops.h): what the
// flows are for the ones the NCCL model expands, none for the others.
enum class TraceOp : std::uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, Send, Recv, Broadcast, Reduce, Barrier, Other };

// One NCCL kernel on one rank, as the profiler recorded it.
struct TraceKernel {
  std::string name;                    // the kernel's name (ncclDevKernel_AllGather_RING_LL(...))
  std::string collective;              // "Collective name" as written (allreduce, _allgather_base, ...)
  TraceOp op = TraceOp::Other;
  std::uint64_t in_nelems = 0, out_nelems = 0;
  std::string dtype;                   // c10's ScalarType name ("Float", "BFloat16")
  std::uint32_t dtype_bytes = 0;       // 0: a dtype the reader does not know
  std::string group;                   // "Process Group Name"
  std::vector<std::uint32_t> ranks;    // "Process Group Ranks" as listed
  bool ranks_cut = false;              // the list ends in "...": PyTorch keeps the first 30
  std::uint32_t group_size = 0;        // "Group size", 0 if absent
  std::optional<std::uint32_t> peer;   // send/recv: "Dst Rank" / "Src Rank" when given
  std::optional<NcclAlgo> algo;        // from the kernel's name when it says
  std::optional<NcclProto> proto;
  std::string algo_name;               // the name's algorithm token as written (RING, NVLS, ...), or empty
  double ts_us = 0, dur_us = 0;        // the kernel's measured start and duration
  std::uint64_t stream = 0;
  std::uint32_t event = 0;             // 1-based index in traceEvents, for messages
};

// A process group as a trace or a dump lists it.
struct TraceGroup {
  std::string name;
  std::string desc;
  std::vector<std::uint32_t> ranks;    // global ranks in group order
  bool ranks_cut = false;
};

// A time interval in microseconds.
struct Interval {
  double begin = 0, end = 0;
};

// The union of `v` as disjoint intervals by start (workloads/traces/join.cpp).
std::vector<Interval> merge_intervals(std::vector<Interval> v);

// One rank's trace.
struct RankTrace {
  std::string file;
  std::optional<std::uint32_t> rank;   // distributedInfo.rank
  std::uint32_t world_size = 0;
  std::vector<TraceGroup> groups;      // distributedInfo.pg_config
  std::vector<TraceKernel> kernels;    // the NCCL kernels, by start
  std::vector<Interval> compute;       // every other GPU kernel, merged, by start
  std::vector<double> steps;           // ProfilerStep#N starts (us), by time
};

// One NCCL Inspector record (ext-profiler/inspector, NCCL >= 2.28).
struct InspectorRecord {
  std::uint32_t rank = 0;
  std::string comm;                    // header.id
  std::string coll;                    // coll_perf.coll: AllReduce, AllGather, ...
  std::uint64_t sn = 0;                // coll_sn
  std::uint64_t bytes = 0;             // coll_msg_size_bytes
  double exec_us = 0;                  // coll_exec_time_us
  std::optional<double> start_us;      // the first kernel_start_ts of a verbose record
  std::uint32_t line = 0;
};

}  // namespace ecmpsim::workloads
