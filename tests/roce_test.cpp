#include <doctest/doctest.h>

#include "workloads/roce.h"

using namespace ecmpsim::workloads;

TEST_CASE("rdma_calc_flow_label and the UDP source port follow the kernel formula") {
  // Worked in shared/reference/roce-nccl.md: 0x1a5 * 0x2b7 = 0x476f3, no high bits to fold.
  CHECK(rdma_flow_label(0x1a5, 0x2b7) == 0x476f3);
  CHECK(linux_roce_sport(0x1a5, 0x2b7) == 63202);
  CHECK(linux_roce_sport(1, 1) == 49153);
  // Symmetric: both ends of a QP pair compute the same port.
  CHECK(linux_roce_sport(0x2b7, 0x1a5) == 63202);
  // v = 0xFFFFFF * 0xFFFFFF = 0xFFFFFE000001; v ^= v >> 20 (0xFFFFFE0) -> 0xFFFFF1FFFFE1;
  // v ^= v >> 40 (0xFF) -> 0xFFFFF1FFFF1E; low 20 bits 0xFFF1E.
  CHECK(rdma_flow_label(0xFFFFFF, 0xFFFFFF) == 0xFFF1E);
  // 0xFFF1E: lo = 0x3F1E, high six bits 0x3F -> 0x3F21 | 0xC000 = 0xFF21.
  CHECK(rdma_flow_label_to_udp_sport(0xFFF1E) == 0xFF21);
}

TEST_CASE("every source port lands in the 49152..65535 range") {
  for (std::uint32_t q = 2; q < 5000; q += 7) {
    const auto p = linux_roce_sport(q, q * 3 + 1);
    CHECK(p >= 49152);
  }
}

TEST_CASE("QP numbers are allocated per NIC from the base with the stride, skipping 0 and 1") {
  QpnAllocator a(2, 0x100, 4);
  CHECK(a.allocate(0) == 0x100);
  CHECK(a.allocate(0) == 0x104);
  CHECK(a.allocate(1) == 0x100);
  QpnAllocator z(1, 0, 1);
  CHECK(z.allocate(0) == 2);
  CHECK(z.allocate(0) == 3);
  QpnAllocator wrap(1, 0xFFFFFF, 1);
  CHECK(wrap.allocate(0) == 0xFFFFFF);
  CHECK(wrap.allocate(0) == 2);  // 24-bit wrap lands on 0, then skips the reserved QPs
}
