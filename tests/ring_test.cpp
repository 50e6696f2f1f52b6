#include <doctest/doctest.h>

#include <vector>

#include "workloads/ring.h"

using namespace ecmpsim::workloads;

TEST_CASE("ring all-reduce: neighbours, bytes, QPs and ports") {
  const std::vector<std::uint32_t> ring{0, 1, 2, 3};
  const std::vector<std::uint32_t> ips{0x0A000001, 0x0A000002, 0x0A000003, 0x0A000004};
  QpnAllocator qpns(4, 0x100, 1);
  Flows flows;
  RingAllReduce p;
  p.message_bytes = 1200;  // per rank 2*(4-1)/4 * 1200 = 1800 bytes, over 2 channels x 2 QPs
  p.channels = 2;
  p.qps_per_connection = 2;
  ring_allreduce(p, ring, ips, qpns, flows);
  REQUIRE(flows.size() == 16);
  std::uint64_t total = 0;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    CHECK(flows.dst[f] == (flows.src[f] + 1) % 4);
    CHECK(flows.dport[f] == 4791);
    CHECK(flows.proto[f] == 17);
    CHECK(flows.bytes[f] == 450);
    CHECK(flows.sport[f] == linux_roce_sport(flows.lqpn[f], flows.rqpn[f]));
    total += flows.bytes[f];
  }
  CHECK(total == 4 * 1800);
  // First connection: node 0 takes QP 0x100 on its NIC, node 1 QP 0x100 on its NIC;
  // then node 1 -> 2: node 1's next QP is 0x101, node 2's first is 0x100.
  CHECK(flows.lqpn[0] == 0x100);
  CHECK(flows.rqpn[0] == 0x100);
  CHECK(flows.lqpn[1] == 0x101);
  CHECK(flows.rqpn[1] == 0x100);
  CHECK(flows.lqpn[3] == 0x101);  // node 3 -> node 0: node 0 already used 0x100
  CHECK(flows.rqpn[3] == 0x101);
  CHECK(flows.channel[15] == 1);
}

TEST_CASE("bytes that do not divide evenly go one each to the first connections") {
  const std::vector<std::uint32_t> ring{0, 1};
  const std::vector<std::uint32_t> ips{1, 2};
  QpnAllocator qpns(2, 0x100, 1);
  Flows flows;
  RingAllReduce p;
  p.message_bytes = 7;  // per rank 2*(2-1)/2 * 7 = 7 bytes over 3 channels: 3, 2, 2
  p.channels = 3;
  ring_allreduce(p, ring, ips, qpns, flows);
  REQUIRE(flows.size() == 6);
  CHECK(flows.bytes[0] == 3);
  CHECK(flows.bytes[1] == 3);
  CHECK(flows.bytes[2] == 2);
  CHECK(flows.bytes[5] == 2);
}
