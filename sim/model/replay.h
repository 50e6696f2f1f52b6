// `ecmpsim replay`: a training job's collectives, joined from its ranks'
// traces (workloads/traces/join.h) or generated for a training step
// (workloads/generators/training.h), replayed over time on the routed fabric.
// Each collective becomes the flows the NCCL model gives it on its group's
// GPUs and NICs; the flows start when the collective started and share the
// fabric with every flow in flight (the flow model with arrivals). Per
// collective: measured, predicted per scenario, and predicted alone on the
// fabric; per step and group: communication time and its exposed part.
// docs/traces.md holds the definitions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/spec.h"
#include "workloads/traces/join.h"

namespace ecmpsim {

struct ReplayOptions {
  // Start each collective after its predecessor on each of its ranks'
  // streams plus the measured compute gap, instead of at its measured start.
  bool replay_gaps = false;
  // Rank r -> its node (a server name of the fabric) and GPU, for the ranks
  // it lists; the others in order over the job's nodes, gpus_per_node each.
  std::vector<std::optional<std::pair<std::string, std::uint32_t>>> rank_map;
  std::string rank_map_file;  // for messages
  // The job whose nodes, NCCL settings and id the collectives take.
  std::size_t job = 0;
};

// One collective in one scenario.
struct ReplayRow {
  std::uint32_t group = 0;           // index into ReplayReport::groups
  std::uint64_t seq = 0;
  std::string collective;            // as the trace wrote it
  std::string op;                    // the NCCL operation (AllReduce, ...)
  std::string algo;                  // the algorithm its flows follow ("" when not expanded)
  std::uint64_t bytes = 0;
  std::uint64_t flows = 0;           // network flows (0: all inside nodes, or not expanded)
  double start_us = 0;               // when it starts in this replay
  double measured_us = 0;
  std::optional<double> predicted_us;  // with every other flow in flight; none when not expanded
  std::optional<double> alone_us;      // its flows alone on the fabric
};

// Per step and group: the union of its collectives' intervals, and the part
// of it during which none of the group's traced ranks ran a compute kernel.
struct ReplayGroupStep {
  std::uint32_t step = 0;
  std::uint32_t group = 0;
  std::uint32_t collectives = 0;
  double measured_comm_us = 0, measured_exposed_us = 0;
  double predicted_comm_us = 0, predicted_exposed_us = 0;
};

struct ReplayScenario {
  std::string name;
  std::vector<ReplayRow> collectives;   // in start order of the trace
  std::vector<ReplayGroupStep> groups;  // by step, then group
  double measured_span_us = 0;          // first start to last measured end
  double predicted_span_us = 0;         // first start to last predicted end
  std::size_t events = 0;               // the flow model's rate allocations
};

struct ReplayReport {
  std::vector<std::string> files;
  std::vector<std::string> groups;      // names, indexed by ReplayRow::group
  std::vector<std::uint32_t> group_size;
  std::size_t ranks = 0;                // of the job (the highest rank + 1)
  std::size_t traced = 0;               // ranks whose trace was given
  std::size_t steps = 1;
  std::uint64_t flows = 0;
  std::vector<ReplayScenario> scenarios;
  std::vector<std::string> notes;
};

// Replays `trace` on the spec's fabric under each of its scenarios. Ranks map
// onto the spec's first job's nodes (its `hosts`, or its placement), in
// order, gpus_per_node per node, unless options.rank_map says otherwise.
// InputError when a rank has no node, or the workload passes --max-flows.
ReplayReport replay(const Spec& spec, const workloads::CommTrace& trace, const ReplayOptions& options = {});

}  // namespace ecmpsim

namespace ecmpsim {

// The files `replay` reads: traces (files, or directories whose *.json and
// *.json.gz files are the traces), NCCL Inspector logs and Flight Recorder
// dumps (files or directories of them).
struct ReplayInputs {
  std::vector<std::string> traces;
  std::vector<std::string> inspector;
  std::vector<std::string> flight_recorder;
  std::uint64_t max_bytes = Limits{}.max_capture_bytes;  // each file, and what a gzip one inflates to
};

// A rank map: CSV lines `rank,node,gpu` (a header line `rank,node,gpu` and
// '#' comments allowed), into ReplayOptions::rank_map; InputError at the line
// and column otherwise.
void read_rank_map(const std::string& path, ReplayOptions& options, std::uint64_t max_bytes);

// The traces read and joined (workloads/traces/join.h); InputErrors name the file.
workloads::CommTrace load_comm_trace(const ReplayInputs& inputs);

// A training job's shape in words, for the outputs and the report:
// "training step: tp 8 x pp 4 x dp 32, 32 layers, hidden 8192, seq_len 4096,
// 8 microbatches, bf16" (", 64 experts over ep 8" with experts).
std::string training_text(const workloads::TrainingShape& t);

// Without traces: the spec's first training job's step (kind = "training"),
// each collective after its predecessors on its ranks (replay_gaps), on that
// job's nodes. InputError when the spec has no training job.
ReplayReport replay_training(const Spec& spec);

}  // namespace ecmpsim
