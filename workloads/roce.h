// RoCEv2 wire facts: QP-number allocation and the UDP source port the NIC uses.
#pragma once

#include <cstdint>
#include <vector>

namespace ecmpsim::workloads {

// rdma_calc_flow_label (include/rdma/ib_verbs.h): the 20-bit flow label the
// kernel derives from a QP pair when the GRH flow label is 0.
constexpr std::uint32_t rdma_flow_label(std::uint32_t lqpn, std::uint32_t rqpn) noexcept {
  std::uint64_t v = static_cast<std::uint64_t>(lqpn) * rqpn;
  v ^= v >> 20;
  v ^= v >> 40;
  return static_cast<std::uint32_t>(v & 0xFFFFF);
}

// rdma_flow_label_to_udp_sport: always in 0xC000..0xFFFF.
constexpr std::uint16_t rdma_flow_label_to_udp_sport(std::uint32_t fl) noexcept {
  std::uint32_t lo = fl & 0x3FFF;
  lo ^= (fl & 0xFC000) >> 14;
  return static_cast<std::uint16_t>(lo | 0xC000);
}

// The source port mlx5 puts on RoCEv2 packets of an RC QP pair (mlx5_set_path_udp_sport).
constexpr std::uint16_t linux_roce_sport(std::uint32_t lqpn, std::uint32_t rqpn) noexcept {
  return rdma_flow_label_to_udp_sport(rdma_flow_label(lqpn, rqpn));
}

// QP numbers per NIC: base, base + stride, ... (24-bit, wrapping, skipping 0 and 1,
// which the verbs layer reserves for QP0/QP1).
class QpnAllocator {
 public:
  QpnAllocator(std::size_t nics, std::uint32_t base, std::uint32_t stride)
      : next_(nics, base & 0xFFFFFF), stride_(stride) {}

  std::uint32_t allocate(std::uint32_t nic) noexcept {
    std::uint32_t q = next_[nic];
    while (q < 2) q = (q + stride_) & 0xFFFFFF;
    next_[nic] = (q + stride_) & 0xFFFFFF;
    return q;
  }

 private:
  std::vector<std::uint32_t> next_;
  std::uint32_t stride_;
};

}  // namespace ecmpsim::workloads
