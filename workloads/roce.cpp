#include "workloads/roce.h"

#include "workloads/seeded.h"

namespace ecmpsim::workloads {

QpnAllocator::QpnAllocator(std::size_t nics, const RoceParams& p) : QpnAllocator(nics, p.qpn_base, p.qpn_stride) {
  if (p.qpn == QpnModel::Random) {
    random_ = true;
    seed_ = p.seed;
    next_.assign(nics, 0);
    used_.resize(nics);
  }
}

std::uint32_t QpnAllocator::allocate(std::uint32_t nic) {
  if (random_) {
    // Redraw on a reserved or already used number; 2^24 - 2 numbers per NIC.
    for (;;) {
      const auto q = static_cast<std::uint32_t>(seeded(seed_, Purpose::Qpn, nic, next_[nic]++) & 0xFFFFFF);
      if (q >= 2 && used_[nic].insert(q).second) return q;
    }
  }
  std::uint32_t q = next_[nic];
  while (q < 2) q = (q + stride_) & 0xFFFFFF;
  next_[nic] = (q + stride_) & 0xFFFFFF;
  return q;
}

std::uint16_t roce_sport(const RoceParams& p, std::uint32_t src_nic, std::uint32_t lqpn, std::uint32_t rqpn,
                         std::uint64_t index) noexcept {
  switch (p.sport) {
    case SportModel::Linux: return linux_roce_sport(lqpn, rqpn);
    case SportModel::Mlx4: return mlx4_roce_sport(lqpn, rqpn);
    case SportModel::Fixed: return static_cast<std::uint16_t>(p.sport_base);
    case SportModel::Range: return static_cast<std::uint16_t>(p.sport_base + index % p.sport_range);
    case SportModel::Random:
      return static_cast<std::uint16_t>(p.sport_base + seeded(p.seed, Purpose::Sport, src_nic, lqpn) % p.sport_range);
  }
  return 0;
}

void FlowMaker::add(Flows& out, std::uint32_t src, std::uint32_t dst, std::uint32_t channel, std::uint64_t bytes) {
  if (out.size() >= max_flows_) throw FlowLimitExceeded();
  FlowRecord f;
  f.src = src;
  f.dst = dst;
  f.src_ip = ips_[src];
  f.dst_ip = ips_[dst];
  f.lqpn = qpns_.allocate(src);
  f.rqpn = qpns_.allocate(dst);
  f.sport = roce_sport(p_, src, f.lqpn, f.rqpn, index_++);
  // IPv6: the GRH flow label the QP pair's packets carry (an IPv4 header has none).
  if (!f.src_ip.is_v4()) f.flow_label = rdma_flow_label(f.lqpn, f.rqpn);
  f.bytes = bytes;
  f.job = job_;
  f.channel = static_cast<std::uint16_t>(channel);
  f.collective = static_cast<std::uint8_t>(collective_);
  out.push_back(f);
}

}  // namespace ecmpsim::workloads
