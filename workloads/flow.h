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
  hashing::IpAddr src_ip;  // IPv4 or IPv6 (one family per fabric)
  hashing::IpAddr dst_ip;
  std::uint8_t proto = kProtoUdp;
  std::uint16_t sport = 0;
  std::uint16_t dport = kRoceV2Port;
  std::uint32_t lqpn = 0;
  std::uint32_t rqpn = 0;
  std::uint64_t bytes = 0;
  std::uint16_t job = 0;      // index of the job in the spec
  std::uint16_t channel = 0;
  std::uint8_t collective = 0;  // workloads::Collective of the job
  std::uint32_t flow_label = 0;  // IPv6 flow label (20 bits); 0 for IPv4
};

struct Flows {
  std::vector<std::uint32_t> src, dst, lqpn, rqpn, flow_label;
  std::vector<hashing::IpAddr> src_ip, dst_ip;
  std::vector<std::uint8_t> proto, collective;
  std::vector<std::uint16_t> sport, dport, job, channel;
  std::vector<std::uint64_t> bytes;

  std::size_t size() const noexcept { return src.size(); }

  void reserve(std::size_t n) {
    for (auto* v : {&src, &dst, &lqpn, &rqpn, &flow_label}) v->reserve(n);
    src_ip.reserve(n);
    dst_ip.reserve(n);
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
    flow_label.push_back(f.flow_label);
  }

  FlowRecord operator[](std::size_t i) const {
    return {src[i], dst[i], src_ip[i], dst_ip[i], proto[i], sport[i], dport[i],
            lqpn[i], rqpn[i], bytes[i], job[i], channel[i], collective[i], flow_label[i]};
  }

  // The header fields a switch can hash for flow i: the five-tuple, the IPv6
  // flow label, the BTH destination QP (the receiver's QP, rqpn) and the
  // ethertype of the address family (untagged); the in-port and MACs are set
  // per hop (sim/routing/next_link.h).
  hashing::Tuple tuple(std::size_t i) const noexcept {
    return {src_ip[i], dst_ip[i], proto[i], sport[i], dport[i], flow_label[i], rqpn[i], 0, 0, 0,
            src_ip[i].is_v4() ? hashing::kEtherTypeIpv4 : hashing::kEtherTypeIpv6, 0};
  }
};

}  // namespace ecmpsim::workloads
