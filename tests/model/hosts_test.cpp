// Hosts as they are (issue 32 item 3): the RoCEv2 wire arithmetic, the
// intra-node hop (its latency row and its cap on busBw), NCCL's netOverhead
// and latencyInter. Every expected value is worked by hand from the header
// sizes and NCCL 2.23.4's constants (docs/prediction.md, "Hosts"), and the
// goodput checked against a published perftest figure.
#include <doctest/doctest.h>

#include <limits>

#include "sim/model/size_table.h"
#include "workloads/roce.h"

namespace hosts_test {

using namespace ecmpsim;
using workloads::NcclAlgo;
using workloads::NcclProto;

namespace {

// 2 nodes x 8 H100 (NVLink), 8 channels searched, 16 run; the network's
// busbw: 8 x 400G NICs at RoCEv2 goodput (MTU 4096, IPv4) = 8 x 50 x 4096/4178.
constexpr double kNet = 8 * 50.0 * 4096 / 4178;  // 392.149 GB/s
NcclComm two_nodes_of_8(NcclHost host = {}) { return {NcclColl::AllReduce, 16, 2, 8, 16, kNet, host}; }

}  // namespace

TEST_CASE("RoCEv2 goodput: payload / (payload + 82 wire bytes), 102 over IPv6") {
  // 8 preamble+SFD + 14 MAC + 4 FCS + 12 IFG + 20 IPv4 + 8 UDP + 12 BTH + 4 ICRC = 82.
  CHECK(workloads::kRoceWireBytesV4 == 82);
  CHECK(workloads::kRoceWireBytesV6 == 102);
  CHECK(workloads::roce_goodput_fraction(4096, false) == doctest::Approx(4096.0 / 4178));  // 0.980373
  CHECK(workloads::roce_goodput_fraction(1024, false) == doctest::Approx(1024.0 / 1106));  // 0.925859
  CHECK(workloads::roce_goodput_fraction(4096, true) == doctest::Approx(4096.0 / 4198));   // 0.975703
  // Published: ib_write_bw on a 400G RoCE CX7, 1 QP, 128 KiB messages: 392.1 Gb/s
  // (nccl issue #2409): 0.98025 of line, within 0.02% of the MTU 4096 arithmetic.
  CHECK(392.1 / 400 == doctest::Approx(workloads::roce_goodput_fraction(4096, false)).epsilon(2e-4));
  // Negative control: MTU 1024's fraction is 5% off that measurement.
  CHECK_FALSE(392.1 / 400 == doctest::Approx(workloads::roce_goodput_fraction(1024, false)).epsilon(2e-2));
}

TEST_CASE("a two-node ring of 8 GPUs per node at three sizes, the NVLink hop capping busBw") {
  // busBw = min(392.149 network, 370.8 NVLink) = 370.8.
  const NcclComm c = two_nodes_of_8();
  CHECK(nccl_busbw(c) == doctest::Approx(370.8));
  SUBCASE("8 B: Tree/LL, 25.2 us + 8 B / 19.5 GB/s") {
    // Tree LL: min(min(370.8 x 0.92, 8 x 41.4) / 3.8, 39) x 0.5 = 19.5 GB/s; latency
    // 6.8 + 2 x (7 x 0.6 NVLink + 1 x 5.0 NET) = 25.2 us; below 64 B no correction.
    const auto got = nccl_choose(c, 8);
    REQUIRE(got);
    CHECK(got->algo == NcclAlgo::Tree);
    CHECK(got->proto == NcclProto::LL);
    CHECK(got->time_us == doctest::Approx(25.2 + 8.0 / 19500));
  }
  SUBCASE("1 MiB: Tree/LL128, 48.5 us + 1 MiB / (146.8 x 0.6) GB/s") {
    // Tree LL128: min(331.2 x 120/128, 8 x 36.7) x 0.5 = 146.8, corrected x 0.6 at
    // log2(2^20 / 64) = 14; beats Ring/LL128 75.2 + 2^20 / 156587 = 81.90 us.
    const auto got = nccl_choose(c, 1 << 20);
    REQUIRE(got);
    CHECK(got->algo == NcclAlgo::Tree);
    CHECK(got->proto == NcclProto::LL128);
    CHECK(got->time_us == doctest::Approx(48.5 + 1048576.0 / (146.8 * 0.6 * 1000)));  // 60.405 us
  }
  SUBCASE("1 GiB: Ring/Simple at the NVLink cap") {
    // Ring Simple algBw 370.8 x 16/30 = 197.76; latency (8.4 + 28 x 3.4 + 2 x 14) x 1.4 = 184.24.
    const auto got = nccl_choose(c, 1ULL << 30);
    REQUIRE(got);
    CHECK(got->algo == NcclAlgo::Ring);
    CHECK(got->proto == NcclProto::Simple);
    CHECK(got->time_us == doctest::Approx(184.24 + 1073741824.0 / 197760));  // 5613.76 us
    // Negative control: without the intra-node cap the network's 392.149 would set
    // it (algBw 209.15): the hop is what binds here.
    NcclHost uncapped;
    uncapped.intra_busbw = std::numeric_limits<double>::infinity();
    const auto free = nccl_choose(two_nodes_of_8(uncapped), 1ULL << 30);
    CHECK(free->time_us == doctest::Approx(184.24 + 1073741824.0 / (kNet * 16 / 30 * 1000)));
    CHECK(free->time_us < got->time_us * 0.96);
  }
}

TEST_CASE("intra-node hops over PCIe: their own latency row and 48 GB/s") {
  NcclHost pci;
  pci.intra = workloads::IntraLink::PCI;
  pci.intra_busbw = workloads::kIntraLinks[1].busbw;
  CHECK(pci.intra_busbw == 48.0);  // PCIe Gen5 x16: 16 x 240 / 80
  const NcclComm c = two_nodes_of_8(pci);
  // Ring: base + 28 x max(PCI lat, netOverhead) + 2 x NET lat.
  // LL 6.6 + 28 x max(1.0, 1.0) + 2 x 2.7 = 40.0; LL128 14 + 28 x 2.5 + 8 = 92.0;
  // Simple 8.4 + 28 x max(5.7, 3.0) + 28 = 196.0.  Tree Simple 8.4 + 2 x (7 x 4.0 + 14) = 92.4.
  CHECK(nccl_latency(c, NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(40.0));
  CHECK(nccl_latency(c, NcclAlgo::Ring, NcclProto::LL128) == doctest::Approx(92.0));
  CHECK(nccl_latency(c, NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(196.0));
  CHECK(nccl_latency(c, NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(92.4));
  // 1 GiB Ring/Simple: algBw 48 x 16/30 = 25.6; 196 x 1.4 + 2^30 / 25600.
  CHECK(nccl_time_us(c, NcclAlgo::Ring, NcclProto::Simple, 1ULL << 30) ==
        doctest::Approx(274.4 + 1073741824.0 / 25600));
}

TEST_CASE("netOverhead (AMD 2.0 us) and latencyInter (5 us) in the latency") {
  NcclHost amd;
  amd.net_overhead_us = 2.0;
  // LL 6.6 + 28 x max(0.6, 2.0) + 2 x 2.7 = 68.0; Simple 8.4 + 28 x max(3.4, 6.0) + 2 x 14 = 204.4.
  CHECK(nccl_latency(two_nodes_of_8(amd), NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(68.0));
  CHECK(nccl_latency(two_nodes_of_8(amd), NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(204.4));
  NcclHost slow;
  slow.net_latency_us = 5;
  // One GPU per node (the Tree NET row, 2.23): LL 6.6 + 2 x (5.0 + 5) = 26.6;
  // Simple adds it twice: 8.4 + 2 x (14 + 10) = 56.4.  Tree Simple 8.4 + 2 x (0 + 1 x (14 + 10)) = 56.4.
  const NcclComm one{NcclColl::AllReduce, 2, 2, 2, 4, 50, slow};
  CHECK(nccl_latency(one, NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(26.6));
  CHECK(nccl_latency(one, NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(56.4));
  CHECK(nccl_latency(one, NcclAlgo::Tree, NcclProto::Simple) == doctest::Approx(56.4));
  // Negative control: NCCL's defaults give the published 2.23 figures back (16.6, 36.4).
  const NcclComm plain{NcclColl::AllReduce, 2, 2, 2, 4, 50};
  CHECK(nccl_latency(plain, NcclAlgo::Ring, NcclProto::LL) == doctest::Approx(16.6));
  CHECK(nccl_latency(plain, NcclAlgo::Ring, NcclProto::Simple) == doctest::Approx(36.4));
}

TEST_CASE("the spec's hosts: the link's own cap when 0, goodput by MTU and address family") {
  HostSpec h;
  CHECK(nccl_host(h).intra_busbw == doctest::Approx(370.8));
  h.intra = workloads::IntraLink::PCI;
  CHECK(nccl_host(h).intra_busbw == doctest::Approx(48.0));
  h.intra_busbw = 100;
  CHECK(nccl_host(h).intra_busbw == doctest::Approx(100.0));
  Spec spec;
  CHECK(host_goodput(spec) == doctest::Approx(4096.0 / 4178));
  spec.hosts.roce_mtu = 1024;
  spec.hosts.nic_efficiency = 0.9;
  CHECK(host_goodput(spec) == doctest::Approx(0.9 * 1024 / 1106));
  spec.fabric.address_base = *hashing::parse_ip("fd00::");
  CHECK(host_goodput(spec) == doctest::Approx(0.9 * 1024 / 1126));
}

}  // namespace hosts_test
