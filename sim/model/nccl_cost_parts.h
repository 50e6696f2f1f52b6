// What nccl_cost.cpp (latencies, time) and nccl_bandwidth.cpp (bandwidths,
// availability) both read of a communicator: its release's tuner row, its
// architecture row, GPUs per node and ring steps.
#pragma once

#include "sim/model/nccl_cost.h"
#include "sim/model/nccl_tuning.h"
#include "workloads/gpu.h"

namespace ecmpsim {

// The row of the communicator's release (the first row for anything older:
// the config refuses sizes before 2.18.1).
inline const NcclTuningRow& tuning_row(const NcclComm& c) noexcept {
  const NcclTuningRow* row = nccl_tuning(c.version);
  return row ? *row : kNcclTuning.front();
}

// hwLat's intra-node row: NVLINK, or PCI when the GPUs meet over PCIe.
inline const NcclLatencies& intra_row(const NcclComm& c, const NcclTuningRow& row) noexcept {
  return c.host.intra == workloads::IntraLink::PCI ? row.pci : row.nvlink;
}

inline std::uint32_t comm_ppn(const NcclComm& c) noexcept { return c.nodes == 0 ? 1 : c.ranks / c.nodes; }

// nsteps: AllReduce 2(nRanks - 1), AllGather and ReduceScatter nRanks - 1, Broadcast and Reduce nRanks.
inline std::uint32_t ring_nsteps(const NcclComm& c) noexcept {
  if (c.coll == NcclColl::AllReduce) return 2 * (c.ranks - 1);
  if (c.coll == NcclColl::AllGather || c.coll == NcclColl::ReduceScatter || c.coll == NcclColl::AllToAll)
    return c.ranks - 1;
  return c.ranks;
}

// The architecture row: the GPU's, Hopper's without one.
inline std::size_t arch_index(const NcclComm& c) noexcept {
  return static_cast<std::size_t>(c.hw ? workloads::gpu_arch(c.hw->sm) : workloads::GpuArch::Hopper);
}

// The column of the [N1, N2, N>2] tables.
inline std::size_t node_index(std::uint32_t nodes) noexcept { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }

}  // namespace ecmpsim
