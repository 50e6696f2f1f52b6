#include "workloads/import/import_pcap.h"

#include <pcap/pcap.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "sim/base/text.h"

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
    case DLT_IPV4:
    case DLT_IPV6: return Link{0, ~std::size_t{0}};
    default: return std::nullopt;
  }
}

struct Packet {
  hashing::IpAddr src_ip, dst_ip;
  std::uint32_t dst_qp, flow_label;  // flow label: IPv6 only
  std::uint16_t sport;
  std::uint8_t opcode;  // BTH byte 0
};

// What one frame is: not RoCEv2, a packet to port 4791 whose capture ends
// before its BTH does (the snap length cut it), or a RoCEv2 packet.
struct Frame {
  enum Kind : std::uint8_t { Other, Truncated, Roce } kind = Other;
  Packet packet{};
};

// Where the UDP header starts in an IPv4 (version 4) or IPv6 (version 6)
// packet at `ip` that carries UDP, unfragmented or the first fragment; 0 when
// it does not. IPv6 extension headers are not walked: a RoCEv2 packet has none.
std::size_t udp_offset(const std::uint8_t* p, std::size_t n, std::size_t ip) noexcept {
  if (n < ip + 20) return 0;
  if (p[ip] >> 4 == 4) {
    const std::size_t ihl = static_cast<std::size_t>(p[ip] & 0x0F) * 4;
    const bool first_fragment = (be16(p + ip + 6) & 0x1FFF) == 0;
    return ihl < 20 || p[ip + 9] != kProtoUdp || !first_fragment ? 0 : ip + ihl;
  }
  if (p[ip] >> 4 == 6 && n >= ip + 40 && p[ip + 6] == kProtoUdp) return ip + 40;
  return 0;
}

// The RoCEv2 header fields of one frame.
Frame roce_of(const Link& link, const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t ip = link.header;
  if (link.proto_at != ~std::size_t{0}) {
    if (n < link.header) return {};
    std::uint16_t type = be16(p + link.proto_at);
    // VLAN tags (802.1Q, 802.1ad, the old QinQ 0x9100) push the EtherType 4 bytes on.
    while ((type == 0x8100 || type == 0x88a8 || type == 0x9100) && n >= ip + 4) {
      type = be16(p + ip + 2);
      ip += 4;
    }
    if (type != 0x0800 && type != 0x86DD) return {};
  }
  const std::size_t udp = udp_offset(p, n, ip);
  if (udp == 0 || n < udp + 4 || be16(p + udp + 2) != kRoceV2Port) return {};
  if (n < udp + 8 + kBthBytes) return {Frame::Truncated};
  const std::uint8_t* bth = p + udp + 8;
  Packet pkt{};
  if (p[ip] >> 4 == 4) {
    pkt.src_ip = be32(p + ip + 12);
    pkt.dst_ip = be32(p + ip + 16);
  } else {
    pkt.src_ip = hashing::IpAddr::v6(std::span<const std::uint8_t, 16>(p + ip + 8, 16));
    pkt.dst_ip = hashing::IpAddr::v6(std::span<const std::uint8_t, 16>(p + ip + 24, 16));
    pkt.flow_label = be32(p + ip) & 0xFFFFFu;
  }
  pkt.dst_qp = static_cast<std::uint32_t>(bth[5]) << 16 | static_cast<std::uint32_t>(bth[6]) << 8 | bth[7];
  pkt.sport = be16(p + udp);
  pkt.opcode = bth[0];
  return {Frame::Roce, pkt};
}

// BTH opcodes of packets that carry no data of their own (IBA vol. 1, 9.2;
// annex A17 for the CNP): the acknowledgements of the reliable transports
// (RC 0x00, RD 0x40, XRC 0xA0 prefixes) and the congestion notification.
enum class Control : std::uint8_t { Ack, AtomicAck, Cnp, None };
constexpr Control control_of(std::uint8_t opcode) noexcept {
  if (opcode == 0x81) return Control::Cnp;
  const std::uint8_t transport = opcode & 0xE0, op = opcode & 0x1F;
  if (transport != 0x00 && transport != 0x40 && transport != 0xA0) return Control::None;
  if (op == 0x11) return Control::Ack;
  if (op == 0x12) return Control::AtomicAck;
  return Control::None;
}

// What was not a flow, by kind.
struct Tally {
  std::uint64_t skipped = 0;    // not RoCEv2
  std::uint64_t truncated = 0;  // to port 4791, cut before the BTH's end
  // Their captured lengths: what the snap length left of them. pcapng's
  // interface block may state another snap length (editcap -s keeps 262144).
  std::uint32_t cut_min = ~std::uint32_t{0}, cut_max = 0;
  void cut(std::uint32_t caplen) noexcept {
    ++truncated;
    cut_min = std::min(cut_min, caplen);
    cut_max = std::max(cut_max, caplen);
  }
  std::string captured() const {
    return "captured length " + std::to_string(cut_min) +
           (cut_max == cut_min ? std::string() : " to " + std::to_string(cut_max));
  }
  std::array<std::uint64_t, 3> control{};  // by Control: ACK/NAK, atomic ACK, CNP
  std::uint64_t controls() const noexcept { return control[0] + control[1] + control[2]; }
};

// "4 RoCEv2 packets carry no data and make no flow: 2 ACK/NAKs (BTH opcode
// 0x11), 1 atomic ACK (0x12), 1 CNP (0x81)", naming only the kinds present.
std::string control_text(const Tally& t) {
  static constexpr std::array<const char*, 3> kWhat{"ACK/NAK", "atomic ACK", "CNP"};
  static constexpr std::array<const char*, 3> kOpcode{"0x11", "0x12", "0x81"};
  std::string s = std::to_string(t.controls()) + " RoCEv2 packet" + (t.controls() == 1 ? "" : "s") +
                  (t.controls() == 1 ? " carries" : " carry") + " no data and make" + (t.controls() == 1 ? "s" : "") +
                  " no flow: ";
  bool first = true;
  for (std::size_t k = 0; k < kWhat.size(); ++k) {
    if (t.control[k] == 0) continue;
    s += (first ? "" : ", ") + plural(t.control[k], kWhat[k]) + " (" + (first ? "BTH opcode " : "") + kOpcode[k] + ")";
    first = false;
  }
  return s;
}

struct PcapCloser {
  void operator()(pcap_t* p) const noexcept { pcap_close(p); }
};

}  // namespace

bool is_capture(std::string_view head) noexcept {
  if (head.size() < 4) return false;
  // pcapng's block type is a palindrome: one entry serves both byte orders.
  static constexpr std::array<std::array<unsigned char, 4>, 5> kMagics{{{0xa1, 0xb2, 0xc3, 0xd4},
                                                                        {0xd4, 0xc3, 0xb2, 0xa1},
                                                                        {0xa1, 0xb2, 0x3c, 0x4d},
                                                                        {0x4d, 0x3c, 0xb2, 0xa1},
                                                                        {0x0a, 0x0d, 0x0d, 0x0a}}};
  for (const auto& m : kMagics)
    if (std::memcmp(head.data(), m.data(), 4) == 0) return true;
  return false;
}

ImportResult parse_pcap(std::string_view bytes, const std::string& name) {
  auto error = [&](std::uint32_t record, std::string message) {
    return InputError({name, 0, 0, {}, record}, message);
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
                        " is not supported (Ethernet, Linux cooked SLL/SLL2 or raw IPv4/IPv6)");
  }

  ImportedFlows out;
  out.format = "pcap";
  out.files.push_back(name);
  std::map<std::tuple<hashing::IpAddr, hashing::IpAddr, std::uint16_t>, std::size_t> index;
  std::vector<bool> several_qps;
  Tally tally;
  std::uint32_t record = 0;
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  int rc;
  while ((rc = pcap_next_ex(pcap.get(), &header, &data)) == 1) {
    ++record;
    const Frame frame = roce_of(*link, data, header->caplen);
    if (frame.kind == Frame::Truncated) {
      tally.cut(header->caplen);
      continue;
    }
    if (frame.kind != Frame::Roce) {
      ++tally.skipped;
      continue;
    }
    const Packet& pkt = frame.packet;
    if (const Control c = control_of(pkt.opcode); c != Control::None) {
      ++tally.control[static_cast<std::size_t>(c)];
      continue;
    }
    // The wire length, with a cooked or raw capture's pseudo-header counted
    // as the Ethernet header it stands for.
    const std::uint64_t wire = std::uint64_t{header->len} - std::min<std::uint64_t>(header->len, link->header) +
                               (dlt == DLT_EN10MB ? link->header : kEthernetHeader);
    const auto [it, fresh] = index.try_emplace({pkt.src_ip, pkt.dst_ip, pkt.sport}, out.flows.size());
    if (fresh) {
      FlowRecord r;
      r.src_ip = pkt.src_ip;
      r.dst_ip = pkt.dst_ip;
      r.sport = pkt.sport;
      r.flow_label = pkt.flow_label;
      r.rqpn = pkt.dst_qp;
      r.bytes = wire;
      out.flows.push_back(r);
      out.src_where.push_back({0, 0, 0, record});
      out.dst_where.push_back({0, 0, 0, record});
      several_qps.push_back(false);
    } else {
      out.flows.bytes[it->second] += wire;
      if (out.flows.rqpn[it->second] != pkt.dst_qp) several_qps[it->second] = true;
    }
  }
  if (rc == PCAP_ERROR)
    return error(record + 1, std::string("damaged or truncated capture (libpcap: ") + pcap_geterr(pcap.get()) + ")");
  const std::string truncated = plural(tally.truncated, "packet") +
                                " to port 4791 truncated before the BTH (" + tally.captured() + ")";
  if (out.flows.size() == 0) {
    if (tally.truncated > 0) return error(0, truncated);
    if (tally.controls() > 0) return error(0, "no RoCEv2 data packets: " + control_text(tally));
    return error(0, "no RoCEv2 packets (IPv4 or IPv6, UDP to port 4791) among its " + plural(record, "record"));
  }
  if (tally.skipped > 0) out.notes.push_back(name + ": skipped " + plural(tally.skipped, "non-RoCE packet"));
  if (tally.truncated > 0) out.notes.push_back(name + ": skipped " + truncated);
  if (tally.controls() > 0) out.notes.push_back(name + ": " + control_text(tally));
  std::uint64_t mixed = 0;
  for (bool b : several_qps) mixed += b;
  if (mixed > 0)
    out.notes.push_back(name + ": " + plural(mixed, "flow") + " carried more than one destination QP; kept the first");
  return out;
}

}  // namespace ecmpsim::workloads
