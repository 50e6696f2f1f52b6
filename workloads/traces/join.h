// The ranks' traces joined into one job's collectives: each collective is
// matched across the ranks that hold it by its process group and its place
// in that group's order on each rank (NCCL runs a communicator's collectives
// in one order on every rank), point-to-point sends with their receives by
// (group, sender, receiver, occurrence). Membership comes from the kernels'
// rank lists, the traces' pg_config and Flight Recorder dumps; a group whose
// members are not all traced is completed from it, and a note says so.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "workloads/generators/training.h"
#include "workloads/traces/comm_trace.h"

namespace ecmpsim::workloads {

struct CommGroup {
  std::string name;
  std::vector<std::uint32_t> ranks;  // global ranks in group order
  std::uint32_t traced = 0;          // of them, ranks whose trace was given
};

// One collective (or one send with its receive) of the job.
struct TraceCollective {
  std::uint32_t group = 0;           // index into CommTrace::groups
  std::uint64_t seq = 0;             // its place in the group's order (p2p: in the pair's)
  TraceOp op = TraceOp::Other;
  std::string collective;            // "Collective name" as the trace wrote it
  std::uint64_t bytes = 0;           // S as nccl-tests counts it (0: dtype unknown)
  std::optional<NcclAlgo> algo;      // from the kernel's name
  std::optional<NcclProto> proto;
  std::string algo_name;
  std::string kernel;
  std::uint32_t src = 0, dst = 0;    // send/recv: the global ranks
  double start_us = 0;               // the last traced rank's kernel start, from the trace's origin
  double measured_us = 0;            // from then to the last traced rank's kernel end
  std::vector<std::uint32_t> held;   // the traced ranks whose trace holds it
  std::vector<double> rank_start_us, rank_end_us;  // parallel to held
};

struct CommTrace {
  std::vector<CommGroup> groups;
  std::vector<TraceCollective> collectives;  // by start_us (then group, seq)
  std::vector<std::uint32_t> traced_ranks;   // ascending
  std::vector<std::vector<Interval>> compute;  // per traced rank: its compute kernels, from the origin
  std::vector<double> steps;                 // ProfilerStep starts of the lowest traced rank, from the origin
  double origin_us = 0;                      // the first collective's start in the traces' clock
  std::vector<std::string> files;
  std::vector<std::string> notes;
};

// Joins the traces (any order). `membership` (Flight Recorder dumps) fills in
// groups whose rank lists the traces cut; `inspector` records, when given,
// replace the measured times of the collectives they match (by rank,
// operation and bytes, in order). InputError when the traces cannot be
// joined: a rank that is not named, a rank traced twice, a collective whose
// ranks disagree on what it is, a group of unknown membership, no collectives.
CommTrace join_traces(std::vector<RankTrace> ranks, std::span<const TraceGroup> membership,
                      std::span<const InspectorRecord> inspector);

// A generated training step as a trace: every rank traced, the collectives
// in issue order with nothing measured (each rank's stream holds them in
// that order, so --replay-gaps starts each after its predecessors).
CommTrace step_trace(const TrainingStep& step);

// S of a kernel as nccl-tests counts it for a group of n ranks.
std::uint64_t collective_bytes(const TraceKernel& k, std::uint32_t n) noexcept;

// The operation's name as NCCL and the outputs write it (AllReduce, ...).
std::string_view trace_op_name(TraceOp op) noexcept;

}  // namespace ecmpsim::workloads
