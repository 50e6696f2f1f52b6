#include "workloads/ring.h"

namespace ecmpsim::workloads {

void ring_allreduce(const RingAllReduce& p, std::span<const std::uint32_t> ring,
                    std::span<const std::uint32_t> ips, QpnAllocator& qpns, Flows& out) {
  const std::size_t n = ring.size();
  if (n < 2) return;
  const unsigned __int128 per_rank =
      static_cast<unsigned __int128>(p.message_bytes) * 2 * (n - 1) / n;
  const std::uint64_t conns = std::uint64_t{p.channels} * p.qps_per_connection;
  const auto base = static_cast<std::uint64_t>(per_rank / conns);
  const auto extra = static_cast<std::uint64_t>(per_rank % conns);
  out.reserve(out.size() + n * conns);
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q) {
      const std::uint64_t conn = std::uint64_t{c} * p.qps_per_connection + q;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t s = ring[i];
        const std::uint32_t d = ring[(i + 1) % n];
        FlowRecord f;
        f.src = s;
        f.dst = d;
        f.src_ip = ips[s];
        f.dst_ip = ips[d];
        f.lqpn = qpns.allocate(s);
        f.rqpn = qpns.allocate(d);
        f.sport = linux_roce_sport(f.lqpn, f.rqpn);
        f.bytes = base + (conn < extra ? 1 : 0);
        f.job = p.job;
        f.channel = static_cast<std::uint16_t>(c);
        out.push_back(f);
      }
    }
  }
}

}  // namespace ecmpsim::workloads
