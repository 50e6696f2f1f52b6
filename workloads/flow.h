// Flows as a structure of arrays: the hot path reads one column at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hashing/key.h"

namespace ecmpsim::workloads {

inline constexpr std::uint16_t kRoceV2Port = 4791;  // ROCE_V2_UDP_DPORT
inline constexpr std::uint8_t kProtoUdp = 17;

struct FlowRecord {
  std::uint32_t src = 0;  // endpoint (NIC) index in the fabric
  std::uint32_t dst = 0;
  std::uint32_t src_ip = 0;  // host byte order
  std::uint32_t dst_ip = 0;
  std::uint8_t proto = kProtoUdp;
  std::uint16_t sport = 0;
  std::uint16_t dport = kRoceV2Port;
  std::uint32_t lqpn = 0;
  std::uint32_t rqpn = 0;
  std::uint64_t bytes = 0;
  std::uint16_t job = 0;      // index of the job in the spec
  std::uint16_t channel = 0;
  std::uint8_t collective = 0;  // workloads::Collective of the job
};

struct Flows {
  std::vector<std::uint32_t> src, dst, src_ip, dst_ip, lqpn, rqpn;
  std::vector<std::uint8_t> proto, collective;
  std::vector<std::uint16_t> sport, dport, job, channel;
  std::vector<std::uint64_t> bytes;

  std::size_t size() const noexcept { return src.size(); }

  void reserve(std::size_t n) {
    for (auto* v : {&src, &dst, &src_ip, &dst_ip, &lqpn, &rqpn}) v->reserve(n);
    proto.reserve(n);
    collective.reserve(n);
    for (auto* v : {&sport, &dport, &job, &channel}) v->reserve(n);
    bytes.reserve(n);
  }

  void push_back(const FlowRecord& f) {
    src.push_back(f.src);
    dst.push_back(f.dst);
    src_ip.push_back(f.src_ip);
    dst_ip.push_back(f.dst_ip);
    proto.push_back(f.proto);
    sport.push_back(f.sport);
    dport.push_back(f.dport);
    lqpn.push_back(f.lqpn);
    rqpn.push_back(f.rqpn);
    bytes.push_back(f.bytes);
    job.push_back(f.job);
    channel.push_back(f.channel);
    collective.push_back(f.collective);
  }

  FlowRecord operator[](std::size_t i) const {
    return {src[i], dst[i], src_ip[i], dst_ip[i], proto[i], sport[i], dport[i],
            lqpn[i], rqpn[i], bytes[i], job[i], channel[i], collective[i]};
  }

  // The header fields a switch can hash for flow i: the five-tuple and the
  // BTH destination QP (the receiver's QP, rqpn), and the ethertype (IPv4,
  // untagged); the in-port and MACs are set per hop (sim/routing/next_link.h).
  hashing::Tuple tuple(std::size_t i) const noexcept {
    return {src_ip[i], dst_ip[i], proto[i], sport[i], dport[i], 0, rqpn[i], 0, 0, 0, hashing::kEtherTypeIpv4, 0};
  }
};

}  // namespace ecmpsim::workloads
