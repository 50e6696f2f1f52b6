#include <doctest/doctest.h>

#include <unordered_set>
#include <vector>

#include "workloads/roce.h"
#include "workloads/seeded.h"

namespace roce_test {

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

TEST_CASE("a planned port's flow label: the kernel derives exactly that port from it") {
  // include/rdma/ib_verbs.h, rdma_flow_label_to_udp_sport, written out here.
  auto kernel = [](std::uint32_t fl) {
    std::uint32_t lo = fl & 0x3FFF;
    lo ^= (fl & 0xFC000) >> 14;
    return static_cast<std::uint16_t>(lo | 0xC000);
  };
  // By hand: 49153 = 0xC001 -> label 1; 65535 -> 0x3FFF; 0xC000 cannot be
  // label 0 (0 = "derive from the QP pair"): 0x4001 gives (1 ^ 1) | 0xC000.
  CHECK(flow_label_for_udp_sport(49153) == 1);
  CHECK(flow_label_for_udp_sport(65535) == 0x3FFF);
  CHECK(flow_label_for_udp_sport(0xC000) == 0x4001);
  for (std::uint32_t port = 0xC000; port <= 0xFFFF; ++port) {
    const std::uint32_t fl = flow_label_for_udp_sport(static_cast<std::uint16_t>(port));
    CHECK(fl != 0);
    CHECK(fl < (1u << 20));
    CHECK(kernel(fl) == port);
  }
  // Negative control: below 0xC000 no label can give the port (the kernel sets the top two bits).
  CHECK(kernel(flow_label_for_udp_sport(0x8001)) != 0x8001);
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

TEST_CASE("mlx4 (ConnectX-3) source port, worked by hand") {
  // fold(0x123456) = (0x56 ^ 0x12) | 0x3400 = 0x3444; fold(0x000100) = 0x0100;
  // 0x3444 ^ 0x0100 = 0x3544, | 0xC000 = 0xF544.
  CHECK(mlx4_fold_qpn(0x123456) == 0x3444);
  CHECK(mlx4_roce_sport(0x123456, 0x000100) == 0xF544);
  CHECK(mlx4_roce_sport(0x000100, 0x123456) == 0xF544);
  // Equal QP numbers: fold(0x010203) = (0x03 ^ 0x01) | 0x0200 = 0x0202, | 0xC000.
  CHECK(mlx4_roce_sport(0x010203, 0x010203) == 0xC202);
}

TEST_CASE("source-port models on known QP pairs") {
  RoceParams p;
  CHECK(roce_sport(p, 0, 0x1a5, 0x2b7, 0) == 63202);  // linux, the reference example
  p.sport = SportModel::Mlx4;
  CHECK(roce_sport(p, 0, 0x123456, 0x100, 0) == 0xF544);
  p.sport = SportModel::Fixed;
  p.sport_base = 5000;
  CHECK(roce_sport(p, 3, 0x1a5, 0x2b7, 9) == 5000);
  p.sport = SportModel::Range;
  p.sport_base = 50000;
  p.sport_range = 4;
  const std::uint16_t expected[] = {50000, 50001, 50002, 50003, 50000, 50001};
  for (std::uint64_t i = 0; i < 6; ++i) CHECK(roce_sport(p, 0, 0x100, 0x100, i) == expected[i]);
  p.sport = SportModel::Random;
  p.sport_base = 60000;
  p.sport_range = 100;
  bool differs_by_seed = false;
  for (std::uint32_t q = 2; q < 200; ++q) {
    const auto port = roce_sport(p, 1, q, q + 1, 0);
    CHECK(port >= 60000);
    CHECK(port < 60100);
    CHECK(port == roce_sport(p, 1, q, q + 1, 7));  // a function of (seed, NIC, QP), not of call order
    RoceParams other = p;
    other.seed = 1;
    differs_by_seed |= roce_sport(other, 1, q, q + 1, 0) != port;
  }
  CHECK(differs_by_seed);
}

TEST_CASE("SplitMix64 matches the published first output for state 0") {
  CHECK(ecmpsim::splitmix64(0) == 0xE220A8397B1DCDAFULL);
}

TEST_CASE("random QP numbers: 24-bit, never 0 or 1, unique per NIC, reproducible") {
  RoceParams p;
  p.qpn = QpnModel::Random;
  p.seed = 42;
  QpnAllocator a(2, p), b(2, p);
  std::unordered_set<std::uint32_t> seen;
  for (int i = 0; i < 5000; ++i) {
    const auto q = a.allocate(0);
    CHECK(q >= 2);
    CHECK(q <= 0xFFFFFF);
    CHECK(seen.insert(q).second);
    CHECK(b.allocate(0) == q);
  }
  p.seed = 43;
  QpnAllocator c(2, p);
  QpnAllocator d(2, RoceParams{.qpn = QpnModel::Random, .seed = 42});
  CHECK(c.allocate(1) != d.allocate(1));  // 1 in 2^24 chance of a false failure
}

TEST_CASE("the range model counts a job's QPs over all its NICs (one counter per job, not per NIC)") {
  // docs/workloads.md: sport_base + (the QP's index in the job mod sport_range).
  // QPs from NICs 0, 1, 0, 2, 1: indices 0..4 in the job, so ports 50000..50004;
  // a per-NIC count would give 50000, 50000, 50001, 50000, 50001.
  RoceParams p;
  p.sport = SportModel::Range;
  p.sport_base = 50000;
  p.sport_range = 16;
  const std::vector<ecmpsim::hashing::IpAddr> ips{ecmpsim::hashing::IpAddr(1u), ecmpsim::hashing::IpAddr(2u), ecmpsim::hashing::IpAddr(3u),
                                         ecmpsim::hashing::IpAddr(4u)};
  QpnAllocator qpns(ips.size(), p);
  FlowMaker maker(p, qpns, ips, 0, Collective::RingAllReduce);
  Flows flows;
  const std::uint32_t src[] = {0, 1, 0, 2, 1};
  for (std::uint32_t s : src) maker.add(flows, s, 3, 0, 1);
  REQUIRE(flows.size() == 5);
  for (std::size_t f = 0; f < 5; ++f) CHECK(flows.sport[f] == static_cast<std::uint16_t>(50000 + f));
  // A second job's FlowMaker starts its own count at sport_base.
  FlowMaker other(p, qpns, ips, 1, Collective::RingAllReduce);
  other.add(flows, 1, 3, 0, 1);
  CHECK(flows.sport[5] == 50000);
}
}  // namespace roce_test
