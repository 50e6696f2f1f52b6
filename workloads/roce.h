// RoCEv2 wire facts: QP-number allocation and the UDP source port the NIC uses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sim/base/named.h"
#include "workloads/flow.h"
#include "workloads/generators/collective.h"

namespace ecmpsim::workloads {

// rdma_calc_flow_label (include/rdma/ib_verbs.h): the 20-bit flow label the
// kernel derives from a QP pair when the GRH flow label is 0. ecmpsim's one
// flow-label function: the source port models and IPv6 flows both use it.
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

// A non-zero flow label from which the kernel derives `sport` (which must be
// in 0xC000..0xFFFF, the only ports rdma_flow_label_to_udp_sport yields):
// the port's low 14 bits with bits 14-19 clear. Port 0xC000 would give label
// 0, which means "derive a label from the QP pair", so it takes 0x04001
// (1 XOR 1 = 0) instead.
constexpr std::uint32_t flow_label_for_udp_sport(std::uint16_t sport) noexcept {
  const std::uint32_t lo = sport & 0x3FFFu;
  return lo != 0 ? lo : 0x4001u;
}

// Bytes a RoCEv2 packet puts on an Ethernet wire besides its payload (the
// path MTU's worth of data): preamble + SFD 8, MAC header 14, FCS 4 and the
// minimum inter-packet gap 12 (IEEE 802.3), IPv4 20 (RFC 791, no options) or
// IPv6 40 (RFC 8200), UDP 8 (RFC 768), the InfiniBand BTH 12 and ICRC 4
// (IBTA Annex A17, RoCEv2). A data packet in the middle of a message carries
// no other header; the RETH of a write's first packet (16 B per message of
// up to 512 KiB for NCCL's Simple) is left out: < 0.01%. No VLAN tag.
inline constexpr std::uint32_t kRoceWireBytesV4 = 8 + 14 + 4 + 12 + 20 + 8 + 12 + 4;  // 82
inline constexpr std::uint32_t kRoceWireBytesV6 = kRoceWireBytesV4 + 20;            // 102

// The fraction of line rate a stream of full RoCEv2 packets delivers as
// payload: 4096 / 4178 = 0.98037 (IPv4, MTU 4096), 1024 / 1106 = 0.92586.
constexpr double roce_goodput_fraction(std::uint32_t mtu, bool ipv6) noexcept {
  return static_cast<double>(mtu) / static_cast<double>(mtu + (ipv6 ? kRoceWireBytesV6 : kRoceWireBytesV4));
}

// The source port mlx5 puts on RoCEv2 packets of an RC QP pair (mlx5_set_path_udp_sport).
constexpr std::uint16_t linux_roce_sport(std::uint32_t lqpn, std::uint32_t rqpn) noexcept {
  return rdma_flow_label_to_udp_sport(rdma_flow_label(lqpn, rqpn));
}

// ConnectX-3 (mlx4_qp_roce_entropy): both 24-bit QP numbers folded to 16 bits.
constexpr std::uint16_t mlx4_fold_qpn(std::uint32_t q) noexcept {
  return static_cast<std::uint16_t>(((q & 0xFF) ^ ((q >> 16) & 0xFF)) | (q & 0xFF00));
}
constexpr std::uint16_t mlx4_roce_sport(std::uint32_t lqpn, std::uint32_t rqpn) noexcept {
  const std::uint16_t src = mlx4_fold_qpn(lqpn);
  return static_cast<std::uint16_t>((lqpn != rqpn ? (mlx4_fold_qpn(rqpn) ^ src) : src) | 0xC000);
}

enum class SportModel : std::uint8_t {
  Linux,   // kernel/mlx5 formula from the QP pair
  Mlx4,    // ConnectX-3 folding of the QP pair
  Fixed,   // every QP uses sport_base (an application override)
  Range,   // sport_base + (QP index in the job mod sport_range)
  Random,  // sport_base + seeded random mod sport_range, per (source NIC, QP)
};
inline constexpr std::array<Named<SportModel>, 5> kSportModels{{{SportModel::Linux, "linux"},
                                                                {SportModel::Mlx4, "mlx4"},
                                                                {SportModel::Fixed, "fixed"},
                                                                {SportModel::Range, "range"},
                                                                {SportModel::Random, "random"}}};
constexpr std::optional<SportModel> parse_sport_model(std::string_view s) noexcept { return parse_name(kSportModels, s); }
constexpr std::string_view sport_model_name(SportModel m) noexcept { return name_of(kSportModels, m); }

enum class QpnModel : std::uint8_t {
  Sequential,  // per NIC: base, base + stride, ...
  Random,      // per NIC: seeded random 24-bit numbers, unique on that NIC
};
inline constexpr std::array<Named<QpnModel>, 2> kQpnModels{
    {{QpnModel::Sequential, "sequential"}, {QpnModel::Random, "random"}}};
constexpr std::optional<QpnModel> parse_qpn_model(std::string_view s) noexcept { return parse_name(kQpnModels, s); }
constexpr std::string_view qpn_model_name(QpnModel m) noexcept { return name_of(kQpnModels, m); }

struct RoceParams {
  SportModel sport = SportModel::Linux;
  std::uint32_t sport_base = 49152;
  std::uint32_t sport_range = 16384;  // sport_base + sport_range - 1 <= 65535
  QpnModel qpn = QpnModel::Sequential;
  std::uint32_t qpn_base = 0x100;
  std::uint32_t qpn_stride = 1;
  std::uint64_t seed = 0;
};

// QP numbers per NIC, 24-bit, never 0 or 1 (QP0/QP1 are reserved by the verbs layer).
class QpnAllocator {
 public:
  QpnAllocator(std::size_t nics, std::uint32_t base, std::uint32_t stride)
      : next_(nics, base & 0xFFFFFF), stride_(stride) {}
  QpnAllocator(std::size_t nics, const RoceParams& p);

  std::uint32_t allocate(std::uint32_t nic);

 private:
  std::vector<std::uint32_t> next_;  // sequential: next number; random: draws so far
  std::uint32_t stride_ = 1;
  bool random_ = false;
  std::uint64_t seed_ = 0;
  std::vector<std::unordered_set<std::uint32_t>> used_;  // random only
};

// The source port of one QP under a model; `index` counts the job's QPs.
std::uint16_t roce_sport(const RoceParams& p, std::uint32_t src_nic, std::uint32_t lqpn, std::uint32_t rqpn,
                         std::uint64_t index) noexcept;

// Makes the RoCEv2 flows of one job: one per QP, with QP numbers from the
// NICs' allocators and the job's source-port model.
class FlowMaker {
 public:
  FlowMaker(const RoceParams& p, QpnAllocator& qpns, std::span<const hashing::IpAddr> ips, std::uint16_t job,
            Collective collective)
      : p_(p), qpns_(qpns), ips_(ips), job_(job), collective_(collective) {}

  // One QP from NIC endpoint src to dst: the sender's QP is allocated first.
  // Throws FlowLimitExceeded when `out` already holds the set_max_flows() count.
  void add(Flows& out, std::uint32_t src, std::uint32_t dst, std::uint32_t channel, std::uint64_t bytes);
  void set_max_flows(std::uint64_t n) noexcept { max_flows_ = n; }

 private:
  const RoceParams& p_;
  QpnAllocator& qpns_;
  std::span<const hashing::IpAddr> ips_;
  std::uint16_t job_;
  Collective collective_;
  std::uint64_t index_ = 0;
  std::uint64_t max_flows_ = ~0ULL;
};

// A workload would hold more flows than its FlowMaker allows: refused before
// the flows exhaust memory.
struct FlowLimitExceeded : std::length_error {
  FlowLimitExceeded() : std::length_error("flow limit exceeded") {}
};

// The i-th of `parts` near-equal shares of `total` (the remainder goes one
// byte each to the first shares).
constexpr std::uint64_t share(std::uint64_t total, std::uint64_t parts, std::uint64_t i) noexcept {
  return total / parts + (i < total % parts ? 1 : 0);
}

}  // namespace ecmpsim::workloads
