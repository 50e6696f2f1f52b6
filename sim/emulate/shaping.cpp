// The tc and ip batches of shaping.h, as text: one HTB tree per directed
// link, one steering table per switch port used and one rule per flow and
// switch on its path.
#include "sim/emulate/shaping.h"

#include <cmath>
#include <cstdio>

#include "sim/base/text.h"

namespace ecmpsim {
namespace {

std::string hex(std::uint32_t v) {
  char buf[12];
  std::snprintf(buf, sizeof buf, "%x", v);
  return buf;
}

std::string bits(std::uint64_t bps) { return std::to_string(bps) + "bit"; }

// The u32 match of flow i's TCP segments: its addresses, protocol 6 and
// ports; on IPv6 also its flow label, so that a segment sent without the
// label falls outside the flow's class and the class counters after the run
// (tcp_paths_agree) miss its bytes. IPv6's `ip6 sport/dport` read the ports
// right after the fixed header, which holds here: the TCP flows carry no
// extension headers.
std::string tcp_match(const workloads::Flows& flows, std::size_t i) {
  const bool v4 = flows.src_ip[i].is_v4();
  const std::string m = v4 ? " match ip " : " match ip6 ";
  const std::string host = v4 ? "/32" : "/128";
  std::string b = std::string("protocol ") + (v4 ? "ip" : "ipv6") + " prio 1 u32" + m + "src " +
                  hashing::format_ip(flows.src_ip[i]) + host + m + "dst " + hashing::format_ip(flows.dst_ip[i]) + host;
  if (!v4) b += m + "flowlabel 0x" + hex(flows.flow_label[i]) + " 0xfffff";
  return b + m + "protocol 6 0xff" + m + "sport " + std::to_string(flows.sport[i]) + " 0xffff" + m + "dport " +
         std::to_string(flows.dport[i]) + " 0xffff";
}

// The link's HTB tree: root class 1:1 at the shaped rate. Fair: one class
// per flow, each guaranteed an equal part and allowed the whole link,
// served round robin a frame at a time (quantum), each with its own
// drop-tail queue; packets no filter claims (the ACKs of the flows running
// the other way) take HTB's direct queue, unshaped and first, so that one
// flow's ACKs never queue behind another flow's data. FIFO: one class, one
// queue, ACKs in it.
std::string link_tc(const std::string& dev, std::uint64_t rate, const workloads::Flows& flows,
                    std::span<const std::uint32_t> on_link, QueueMode queue) {
  const std::string ceil = " ceil " + bits(rate) + " quantum " + std::to_string(kFrameBytes);
  const bool fifo = queue == QueueMode::Fifo;
  std::string b = "qdisc add dev " + dev + " root handle 1: htb default " + (fifo ? "2" : "0") + "\n";
  b += "class add dev " + dev + " parent 1: classid 1:1 htb rate " + bits(rate) + ceil + "\n";
  if (fifo) {
    b += "class add dev " + dev + " parent 1:1 classid 1:2 htb rate " + bits(rate) + ceil + "\n";
    b += "qdisc add dev " + dev + " parent 1:2 pfifo limit " + std::to_string(kFifoQueuePackets) + "\n";
    return b;
  }
  if (on_link.empty()) return b;
  const std::uint64_t share = std::max<std::uint64_t>(1, rate / on_link.size());
  for (std::size_t k = 0; k < on_link.size(); ++k) {
    const std::uint32_t i = on_link[k];
    const std::string cls = "1:" + hex(kFirstFlowClass + static_cast<std::uint32_t>(k));
    b += "class add dev " + dev + " parent 1:1 classid " + cls + " htb rate " + bits(share) + ceil + "\n";
    b += "qdisc add dev " + dev + " parent " + cls + " pfifo limit " + std::to_string(kFlowQueuePackets) + "\n";
    b += "filter add dev " + dev + " parent 1: " + tcp_match(flows, i) + " flowid " + cls + "\n";
  }
  return b;
}

// Port k of a node: its position among the node's out links.
std::uint32_t port_of(const Fabric& fabric, LinkId l) {
  const auto out = fabric.out_links(fabric.link(l).from);
  for (std::uint32_t k = 0; k < out.size(); ++k)
    if (out[k] == l) return k;
  return kNone;
}

// The steering rules: per switch, a table per port used (a default route
// out of it) and per flow leaving by that port a rule matching its TCP
// five-tuple. The rules sit ahead of the main table (preference 1000);
// UDP, and the ACKs coming back, still follow the multipath routes.
void plan_rules(const Fabric& fabric, const NetnsPlan& net, const workloads::Flows& flows, const Trace& paths,
                ShapingPlan& p) {
  std::vector<std::vector<std::uint8_t>> table_made(fabric.nodes().size());
  for (std::size_t i = 0; i < flows.size(); ++i)
    for (LinkId l : paths.path(i)) {
      const NodeId at = fabric.link(l).from;
      if (!fabric.is_switch(at)) continue;
      const std::uint32_t port = port_of(fabric, l);
      auto& made = table_made[at];
      if (made.size() <= port) made.resize(port + 1, 0);
      const std::string table = std::to_string(kSteerTable + port);
      if (!made[port]) {
        made[port] = 1;
        p.rules[at] += std::string("route add ") + (p.ipv6 ? "::/0" : "default") + " via " +
                       hashing::format_ip(net.addr[l ^ 1u]) + " dev " + net.ifname[l] +
                       " onlink table " + table + "\n";
      }
      p.rules[at] += "rule add pref 1000 from " + hashing::format_ip(flows.src_ip[i]) + " to " +
                     hashing::format_ip(flows.dst_ip[i]) + " ipproto 6 sport " + std::to_string(flows.sport[i]) +
                     " dport " + std::to_string(flows.dport[i]) + " lookup " + table + "\n";
    }
}

}  // namespace

std::uint64_t shaped_rate(Gbps speed, double scale, hashing::Family family) {
  const double bps = speed.value * 1e9 * scale * kFrameBytes / payload_bytes(family);
  return std::max<std::uint64_t>(8, static_cast<std::uint64_t>(std::llround(bps)));
}

ShapingPlan plan_shaping(const Fabric& fabric, const NetnsPlan& net, std::span<const std::uint8_t> built,
                         const workloads::Flows& flows, const Trace& paths, const ShapingOptions& opt) {
  const auto links = fabric.links();
  ShapingPlan p;
  p.tc.resize(fabric.nodes().size());
  p.rules.resize(fabric.nodes().size());
  p.rate_bps.assign(links.size(), 0);
  p.link_flows.resize(links.size());
  p.ipv6 = fabric.family() == hashing::Family::V6;
  if (opt.queue == QueueMode::Fair)
    for (std::uint32_t i = 0; i < flows.size(); ++i)
      for (LinkId l : paths.path(i)) p.link_flows[l].push_back(i);
  for (LinkId l = 0; l < links.size(); ++l) {
    if (!built[l]) continue;
    p.rate_bps[l] = shaped_rate(links[l].speed, opt.scale, fabric.family());
    p.tc[links[l].from] += link_tc(net.ifname[l], p.rate_bps[l], flows, p.link_flows[l], opt.queue);
    // One segment per packet: a host's TCP would otherwise hand the veth
    // 64 KB GSO packets, which the routers forward whole and HTB charges whole.
    if (!fabric.is_switch(links[l].from)) p.rules[links[l].from] += "link set dev " + net.ifname[l] + " gso_max_segs 1\n";
  }
  plan_rules(fabric, net, flows, paths, p);
  return p;
}

}  // namespace ecmpsim
