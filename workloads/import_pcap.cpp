#include "workloads/import_pcap.h"

#include <pcap/pcap.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

namespace ecmpsim::workloads {

namespace {

constexpr std::size_t kEthernetHeader = 14;
constexpr std::size_t kBthBytes = 12;

std::uint16_t be16(const std::uint8_t* p) noexcept { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint32_t be32(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

struct Link {
  std::size_t header = 0;      // bytes before the network layer (or its EtherType for Ethernet)
  std::size_t proto_at = 0;    // offset of the 2-byte protocol field; ~0 for raw IP
};

std::optional<Link> link_of(int dlt) noexcept {
  switch (dlt) {
    case DLT_EN10MB: return Link{kEthernetHeader, 12};
    case DLT_LINUX_SLL: return Link{16, 14};
    case DLT_LINUX_SLL2: return Link{20, 0};
    case DLT_RAW:
    case DLT_IPV4: return Link{0, ~std::size_t{0}};
    default: return std::nullopt;
  }
}

struct Packet {
  std::uint32_t src_ip, dst_ip, dst_qp;
  std::uint16_t sport;
};

// The RoCEv2 header fields of one frame, or nullopt when it is not RoCEv2.
std::optional<Packet> roce_of(const Link& link, const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t ip = link.header;
  if (link.proto_at != ~std::size_t{0}) {
    if (n < link.header) return std::nullopt;
    std::uint16_t type = be16(p + link.proto_at);
    // VLAN tags (802.1Q, 802.1ad, the old QinQ 0x9100) push the EtherType 4 bytes on.
    while ((type == 0x8100 || type == 0x88a8 || type == 0x9100) && n >= ip + 4) {
      type = be16(p + ip + 2);
      ip += 4;
    }
    if (type != 0x0800) return std::nullopt;
  }
  if (n < ip + 20 || p[ip] >> 4 != 4) return std::nullopt;
  const std::size_t ihl = static_cast<std::size_t>(p[ip] & 0x0F) * 4;
  const bool first_fragment = (be16(p + ip + 6) & 0x1FFF) == 0;
  if (ihl < 20 || p[ip + 9] != kProtoUdp || !first_fragment) return std::nullopt;
  const std::size_t udp = ip + ihl;
  if (n < udp + 8 + kBthBytes || be16(p + udp + 2) != kRoceV2Port) return std::nullopt;
  const std::uint8_t* bth = p + udp + 8;
  return Packet{be32(p + ip + 12), be32(p + ip + 16),
                static_cast<std::uint32_t>(bth[5]) << 16 | static_cast<std::uint32_t>(bth[6]) << 8 | bth[7],
                be16(p + udp)};
}

std::string plural(std::uint64_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

struct PcapCloser {
  void operator()(pcap_t* p) const noexcept { pcap_close(p); }
};

}  // namespace

ImportResult parse_pcap(std::string_view bytes, const std::string& name) {
  auto error = [&](std::uint32_t record, std::string message) {
    return ImportError{name, 0, 0, record, {}, std::move(message)};
  };
  if (bytes.empty()) return error(0, "empty file: not a pcap or pcapng capture");
  // fmemopen only reads through the pointer in "rb" mode.
  std::FILE* file = ::fmemopen(const_cast<char*>(bytes.data()), bytes.size(), "rb");
  if (!file) return error(0, "cannot read the capture from memory");
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  std::unique_ptr<pcap_t, PcapCloser> pcap(
      pcap_fopen_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf));
  if (!pcap) {
    std::fclose(file);
    return error(0, std::string("not a readable pcap or pcapng capture (libpcap: ") + errbuf + ")");
  }
  const int dlt = pcap_datalink(pcap.get());
  const auto link = link_of(dlt);
  if (!link) {
    const char* dlt_name = pcap_datalink_val_to_name(dlt);
    return error(0, "link type " + std::to_string(dlt) + (dlt_name ? std::string(" (") + dlt_name + ")" : "") +
                        " is not supported (Ethernet, Linux cooked SLL/SLL2 or raw IPv4)");
  }

  ImportedFlows out;
  out.format = "pcap";
  out.files.push_back(name);
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint16_t>, std::size_t> index;
  std::vector<bool> several_qps;
  std::uint64_t skipped = 0;
  std::uint32_t record = 0;
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  int rc;
  while ((rc = pcap_next_ex(pcap.get(), &header, &data)) == 1) {
    ++record;
    const auto pkt = roce_of(*link, data, header->caplen);
    if (!pkt) {
      ++skipped;
      continue;
    }
    // The wire length, with a cooked or raw capture's pseudo-header counted
    // as the Ethernet header it stands for.
    const std::uint64_t wire = std::uint64_t{header->len} - std::min<std::uint64_t>(header->len, link->header) +
                               (dlt == DLT_EN10MB ? link->header : kEthernetHeader);
    const auto [it, fresh] = index.try_emplace({pkt->src_ip, pkt->dst_ip, pkt->sport}, out.flows.size());
    if (fresh) {
      FlowRecord r;
      r.src_ip = pkt->src_ip;
      r.dst_ip = pkt->dst_ip;
      r.sport = pkt->sport;
      r.rqpn = pkt->dst_qp;
      r.bytes = wire;
      out.flows.push_back(r);
      out.src_where.push_back({0, 0, 0, record});
      out.dst_where.push_back({0, 0, 0, record});
      several_qps.push_back(false);
    } else {
      out.flows.bytes[it->second] += wire;
      if (out.flows.rqpn[it->second] != pkt->dst_qp) several_qps[it->second] = true;
    }
  }
  if (rc == PCAP_ERROR)
    return error(record + 1, std::string("damaged or truncated capture (libpcap: ") + pcap_geterr(pcap.get()) + ")");
  if (out.flows.size() == 0)
    return error(0, "no RoCEv2 packets (IPv4, UDP to port 4791) among its " + plural(record, "record"));
  if (skipped > 0) out.notes.push_back(name + ": skipped " + plural(skipped, "non-RoCE packet"));
  std::uint64_t mixed = 0;
  for (bool b : several_qps) mixed += b;
  if (mixed > 0)
    out.notes.push_back(name + ": " + plural(mixed, "flow") + " carried more than one destination QP; kept the first");
  return out;
}

}  // namespace ecmpsim::workloads
