// NCCL ring all-reduce across nodes with one NIC each.
#pragma once

#include <cstdint>
#include <span>

#include "workloads/flow.h"
#include "workloads/roce.h"

namespace ecmpsim::workloads {

struct RingAllReduce {
  std::uint64_t message_bytes = 0;  // S, the all-reduce buffer size
  std::uint32_t channels = 1;
  std::uint32_t qps_per_connection = 1;
  std::uint16_t job = 0;
};

// ring: endpoint indices in ring order; ips: IP of every endpoint.
// Per channel c, every node n sends to ring[n+1] over qps_per_connection QPs;
// each rank sends 2(N-1)/N * S bytes, split evenly over channels and QPs
// (the remainder goes to the first connections, one byte each).
// QPs are allocated channel by channel, QP by QP, ring position by position:
// the sender's QP on its NIC, then the receiver's QP on its NIC.
void ring_allreduce(const RingAllReduce& p, std::span<const std::uint32_t> ring,
                    std::span<const std::uint32_t> ips, QpnAllocator& qpns, Flows& out);

}  // namespace ecmpsim::workloads
