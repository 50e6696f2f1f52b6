// PyTorch profiler traces (torch.profiler, Kineto's Chrome trace JSON, one
// file per rank, optionally gzipped): the NCCL kernels with the metadata
// PyTorch attaches to them (torch/csrc/profiler/util.h: "Collective name",
// "In msg nelems", "Out msg nelems", "dtype", "Process Group Name", "Process
// Group Ranks", "Group size"), the rank and process groups of
// distributedInfo, the other GPU kernels (compute) and the ProfilerStep
// marks. A pure function of the bytes: errors are InputErrors naming the
// file and the event.
#pragma once

#include <string>
#include <string_view>

#include "sim/base/input_file.h"
#include "workloads/traces/comm_trace.h"

namespace ecmpsim::workloads {

// The bytes, inflated when they start with gzip's magic (1f 8b); an
// InputError naming `file` when the stream is corrupt or cut, and naming
// `limit.key` when it inflates past `limit.max` bytes (inflating stops there).
std::string gunzip_if_compressed(std::string text, const std::string& file, const ByteLimit& limit);

// One rank's trace from its JSON text (a {"traceEvents": [...]} document or
// a bare array of events). Kernels without "Collective name" are not
// collectives PyTorch issued with metadata and are left out.
RankTrace read_pytorch_trace(std::string_view text, const std::string& file);

// The algorithm and protocol a kernel's name states
// (ncclKernel_AllReduce_RING_LL_Sum_float, ncclDevKernel_AllGather_RING_LL);
// nothing for names that do not (ncclDevKernel_Generic).
void parse_kernel_name(std::string_view name, TraceKernel& k);

// The element size of a c10 ScalarType name, 0 if unknown.
std::uint32_t dtype_size(std::string_view dtype) noexcept;

// The operation a "Collective name" denotes.
TraceOp trace_op(std::string_view collective) noexcept;

// "[0, 1, 2]" or "[0, 1, ...]" as PyTorch writes a rank list: the ranks, and
// whether the list was cut; nullopt when it is not such a list.
struct RankList {
  std::vector<std::uint32_t> ranks;
  bool cut = false;
};
std::optional<RankList> parse_rank_list(std::string_view text);

}  // namespace ecmpsim::workloads
