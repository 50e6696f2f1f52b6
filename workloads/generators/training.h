// One training step of a transformer under Megatron-style parallelism, as
// the collectives it issues: tensor-parallel all-reduces, pipeline
// sends, expert-parallel all-to-alls and data-parallel gradient all-reduces,
// with sizes from the model's shape and in the order the step issues them.
// The formulas and their sources (Megatron-LM papers and source) are in
// docs/workloads.md, "Training steps".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/base/named.h"
#include "workloads/generators/collective.h"

namespace ecmpsim::workloads {

// What a job is: one collective (run, sweep and report's default), or a
// training step's collectives.
enum class JobKind : std::uint8_t { Collective, Training };
inline constexpr std::array<Named<JobKind>, 2> kJobKinds{
    {{JobKind::Collective, "collective", "one collective (`collective`, `message_bytes`)"},
     {JobKind::Training, "training", "one training step of a transformer (`tp`, `pp`, `dp`, ... docs/traces.md)"}}};

// The element types a step's tensors are in, with their sizes.
enum class TrainingDtype : std::uint8_t { BF16, FP16, FP32, FP8 };
struct TrainingDtypeRow : Named<TrainingDtype> {
  std::uint32_t bytes;
};
inline constexpr std::array<TrainingDtypeRow, 4> kTrainingDtypes{{{{TrainingDtype::BF16, "bf16", "bfloat16"}, 2},
                                                                   {{TrainingDtype::FP16, "fp16", "float16"}, 2},
                                                                   {{TrainingDtype::FP32, "fp32", "float32"}, 4},
                                                                   {{TrainingDtype::FP8, "fp8", "float8 (e4m3)"}, 1}}};

// The parallel sizes and the model's shape (a `kind = "training"` job).
struct TrainingShape {
  std::uint32_t tp = 1;            // tensor parallel
  std::uint32_t pp = 1;            // pipeline stages
  std::uint32_t dp = 1;            // data parallel
  std::uint32_t ep = 1;            // expert parallel (divides dp; MoE only)
  std::uint32_t layers = 1;        // transformer layers (a multiple of pp)
  std::uint32_t hidden = 4096;     // h
  std::uint32_t seq_len = 4096;    // s, tokens per microbatch (one sequence)
  std::uint32_t microbatches = 1;  // per step and pipeline
  TrainingDtype dtype = TrainingDtype::BF16;
  std::uint32_t experts = 0;       // 0: dense; else every layer's MLP is E experts, top-1 routed
  std::uint32_t ranks() const noexcept { return tp * pp * dp; }
};

// A process group of the step: its kind and global ranks in group order.
struct StepGroup {
  std::string name;  // "tp3", "pp0", "dp12", "ep1", "edp5"
  std::vector<std::uint32_t> ranks;
};

// One collective of the step, in issue order.
struct StepCollective {
  std::uint32_t group = 0;       // into TrainingStep::groups
  Collective collective = Collective::RingAllReduce;  // send: SendRecv from src to dst
  std::uint64_t bytes = 0;       // S as nccl-tests counts it
  std::uint32_t src = 0, dst = 0;  // send: global ranks
};

struct TrainingStep {
  std::vector<StepGroup> groups;
  std::vector<StepCollective> collectives;
};

// Megatron's rank order, tensor fastest, then data, then pipeline:
// rank = t + tp * (d + dp * p). Expert groups are ep consecutive data ranks
// and expert-data groups the data ranks ep apart (Megatron-Core's
// tp-ep-dp-pp order). Forward then backward for every microbatch (GPipe
// order), the gradient all-reduces at the end in buckets.
TrainingStep training_step(const TrainingShape& shape);

// Megatron-Core's gradient bucket: 40M parameters
// (distributed_data_parallel.py: max(40000000, 1000000 * dp)).
std::uint64_t gradient_bucket_elements(std::uint32_t dp) noexcept;

}  // namespace ecmpsim::workloads
