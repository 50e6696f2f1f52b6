// Builds the NetnsPlan: names, addresses, the `ip -batch` text per namespace
// and the sysctls, for an IPv4 or an IPv6 fabric (the fabric's family decides
// the link pool, prefix lengths, route syntax and which sysctls are set).
#include "sim/emulate/emulate_plan.h"

#include <cstdio>
#include <functional>

#include "sim/base/error.h"
#include "sim/base/text.h"

namespace ecmpsim {
namespace {

using hashing::Family;
using hashing::IpAddr;

// `a` with every bit past the family's first `len` cleared.
IpAddr masked(const IpAddr& a, unsigned len) {
  std::array<std::uint8_t, 16> b = a.bytes();
  unsigned keep = len + (a.is_v4() ? 96 : 0);
  for (std::uint8_t& byte : b) {
    const unsigned take = keep >= 8 ? 8 : keep;
    byte = static_cast<std::uint8_t>(byte & (0xFF00u >> take));
    keep -= take;
  }
  return IpAddr::v6(b);
}

bool overlaps_pool(const IpAddr& prefix, std::uint8_t len) {
  const std::uint8_t pool_len = link_pool_len(prefix.family());
  return prefix.in_prefix(link_pool(prefix.family()), len < pool_len ? len : pool_len);
}

// Locally administered, unicast: 02:e5 then the directed link id.
std::string mac_of(LinkId l) {
  char buf[18];
  std::snprintf(buf, sizeof buf, "02:e5:%02x:%02x:%02x:%02x", (l >> 24) & 0xFF, (l >> 16) & 0xFF, (l >> 8) & 0xFF,
                l & 0xFF);
  return buf;
}

std::string cidr(const IpAddr& ip, unsigned len) { return hashing::format_ip(ip) + "/" + std::to_string(len); }

using Prefixes = std::vector<std::vector<std::pair<IpAddr, std::uint8_t>>>;

// Switch s's legacy multipath route to every other ToR's prefixes.
std::string multipath_routes(const Fabric& fabric, const EqualCostSets& sets, std::span<const std::uint32_t> weight,
                             const NetnsPlan& p, const Prefixes& prefixes, std::uint32_t s) {
  std::string b;
  for (std::uint32_t t = 0; t < fabric.tors().size(); ++t) {
    const std::uint32_t g = sets.group(s, t);
    if (g == EqualCostSets::kNoGroup) continue;
    const auto members = sets.members(g);
    // Next hops in the order of the equal-cost set: hash-threshold gives
    // member i the i-th slice of the hash space, in the kernel as in ecmpsim.
    std::string via;
    for (LinkId m : members) {
      via += members.size() > 1 ? " nexthop" : "";
      via += " via " + hashing::format_ip(p.addr[m ^ 1u]) + " dev " + p.ifname[m];
      if (members.size() == 1) continue;
      if (weight[m] < 1 || weight[m] > kMaxKernelWeight)
        throw InputError({{}, 0, 0, "weights"},
                         "link " + fabric.link_name(m) + " has weight " + std::to_string(weight[m]) +
                             "; a Linux multipath route carries next-hop weights 1.." +
                             std::to_string(kMaxKernelWeight));
      via += " weight " + std::to_string(weight[m]);
    }
    for (const auto& [pfx, len] : prefixes[t]) b += "route add " + cidr(pfx, len) + via + "\n";
  }
  return b;
}

// Switch s's static table: one host route per endpoint it does not deliver itself.
std::string static_routes(const Fabric& fabric, const NetnsPlan& p, std::span<const LinkId> next, std::uint32_t s) {
  std::string b;
  const std::size_t endpoints = fabric.endpoints().size();
  for (std::uint32_t e = 0; e < endpoints; ++e) {
    const LinkId l = next[s * endpoints + e];
    if (l == kNone) continue;
    const IpAddr& ip = fabric.node(fabric.endpoint_node(e)).ip;
    b += "route add " + cidr(ip, ip.bits()) + " via " + hashing::format_ip(p.addr[l ^ 1u]) +
         " dev " + p.ifname[l] + "\n";
  }
  return b;
}

}  // namespace

std::vector<KernelHash> kernel_hashes(const Fabric& fabric, const Forwarding& fwd, const std::string& source) {
  std::vector<KernelHash> out;
  for (std::uint32_t s = 0; s < fabric.switches().size(); ++s) {
    const SwitchHash& h = fwd.hash_of(s);
    const std::string where = "switch '" + fabric.node(fabric.switches()[s]).name + "': ";
    const SourcePos at{source, 0, 0, "scenario.hash"};
    KernelHash k;
    const int policy = hashing::key_layout(h.algo->layout).linux_policy;
    if (policy < 0)
      throw InputError(at, where + "Linux routers hash with linux-l3 or linux-l4, not " + std::string(h.algo->name));
    k.policy = static_cast<std::uint8_t>(policy);
    if (h.select != hashing::Selection::Threshold)
      throw InputError(at, where + "Linux selects next hops by hash-threshold; set select = \"threshold\"");
    if (h.offset != 0) throw InputError(at, where + "the kernel has no hash offset; set offset = 0");
    if (h.seed == 0)
      throw InputError(at, where + "seed 0 makes the kernel pick a random per-boot key; choose a non-zero seed");
    k.seed = h.seed;
    out.push_back(k);
  }
  return out;
}

std::vector<LinkId> static_next_hops(const Fabric& fabric, const Forwarding& fwd) {
  const std::size_t endpoints = fabric.endpoints().size();
  std::vector<LinkId> out(fabric.switches().size() * endpoints, kNone);
  for (std::uint32_t s = 0; s < fabric.switches().size(); ++s)
    for (std::uint32_t e = 0; e < endpoints; ++e) {
      if (fabric.tor_of_switch(s) == fabric.tor_of(e)) continue;
      LinkId& next = out[s * endpoints + e];
      // The answer for every source this fabric has: one unless a route names a source.
      for (std::uint32_t from = 0; from < endpoints; ++from) {
        const LinkId l = fwd.static_next(s, e, fabric.node(fabric.endpoint_node(from)).ip);
        if (from == 0) next = l;
        if (l == next) continue;
        const auto origin = fwd.route_origin(s, e, fabric.node(fabric.endpoint_node(from)).ip);
        throw InputError(origin.value_or(SourcePos{fwd.source(), 0, 0, "routes"}),
                         "switch '" + fabric.node(fabric.switches()[s]).name + "' routes " +
                             fabric.node(fabric.endpoint_node(e)).name +
                             " by source; emulate installs destination routes only");
      }
    }
  return out;
}

IpAddr link_pool(Family family) {
  if (family == Family::V4) return kLinkPool;
  return IpAddr::v6(std::array<std::uint8_t, 16>{0xfd, 0xff, 0x00, 0xe5});  // fdff:e5::
}

std::uint8_t link_pool_len(Family family) { return family == Family::V4 ? kLinkPoolLen : kLinkPool6Len; }

std::vector<std::pair<IpAddr, std::uint8_t>> tor_prefixes(const Fabric& fabric, std::uint32_t tor) {
  std::vector<IpAddr> mine, others;
  for (std::uint32_t e = 0; e < fabric.endpoints().size(); ++e)
    (fabric.tor_of(e) == tor ? mine : others).push_back(fabric.node(fabric.endpoint_node(e)).ip);
  std::vector<std::pair<IpAddr, std::uint8_t>> out;
  if (mine.empty()) return out;
  const auto bits = static_cast<std::uint8_t>(mine.front().bits());
  // No prefix shorter than a /8 (IPv4) or a /16 (IPv6): a ToR owns a corner of the plan, not all of it.
  const std::uint8_t shortest = mine.front().is_v4() ? 8 : 16;
  std::uint8_t len = bits;
  for (const IpAddr& ip : mine)
    while (len > 0 && !ip.in_prefix(mine.front(), len)) --len;
  const IpAddr prefix = masked(mine.front(), len);
  bool clean = len >= shortest && !overlaps_pool(prefix, len);
  for (const IpAddr& ip : others) clean = clean && !ip.in_prefix(prefix, len);
  if (clean) return {{prefix, len}};
  for (const IpAddr& ip : mine) out.emplace_back(ip, bits);
  return out;
}

std::string namespace_prefix(long pid) { return "es" + std::to_string(pid) + "-"; }

long namespace_owner(const std::string& name) {
  if (name.size() < 4 || name.compare(0, 2, "es") != 0) return -1;
  std::size_t i = 2;
  long pid = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i < 12) pid = pid * 10 + (name[i++] - '0');
  if (i == 2 || i >= name.size() || name[i] != '-') return -1;
  return pid;
}

namespace {

using Sysctls = std::vector<std::pair<std::string, std::string>>;

// A namespace's sysctls before its interfaces exist. IPv4: IPv6 off, so no
// IPv6 packet ever crosses a link. IPv6: no duplicate address detection (an
// address is usable at once), no link-local address, router solicitation or
// autoconfiguration (nothing on a link but test packets and the MLD reports
// of the build, repeated after 1 ms instead of up to 1 s, which settle before
// measuring), and no automatic flow labels (a packet carries the label its
// sender set, 0 included).
Sysctls node_sysctls(Family family) {
  if (family == Family::V4)
    return {{"net.ipv6.conf.all.disable_ipv6", "1"},
            {"net.ipv6.conf.default.disable_ipv6", "1"},
            {"net.ipv4.conf.all.rp_filter", "0"},
            {"net.ipv4.conf.default.rp_filter", "0"}};
  Sysctls sys;
  for (const char* conf : {"all", "default"}) {
    const std::string c = std::string("net.ipv6.conf.") + conf + ".";
    sys.insert(sys.end(), {{c + "disable_ipv6", "0"},
                           {c + "accept_dad", "0"},
                           {c + "addr_gen_mode", "1"},
                           {c + "accept_ra", "0"},
                           {c + "autoconf", "0"},
                           {c + "router_solicitations", "0"},
                           {c + "mldv2_unsolicited_report_interval", "1"}});
  }
  sys.insert(sys.end(), {{"net.ipv6.auto_flowlabels", "0"},
                         {"net.ipv6.flowlabel_state_ranges", "0"}});
  return sys;
}

// A switch's forwarding and hash settings; the seed last (the builder reads it back).
void switch_sysctls(Family family, const KernelHash& k, Sysctls& sys) {
  if (family == Family::V4)
    sys.insert(sys.end(), {{"net.ipv4.ip_forward", "1"},
                           {"net.ipv4.fib_multipath_use_neigh", "0"},
                           {"net.ipv4.fib_multipath_hash_policy", std::to_string(k.policy)}});
  else
    sys.insert(sys.end(), {{"net.ipv6.conf.all.forwarding", "1"},
                           {"net.ipv6.conf.default.forwarding", "1"},
                           {"net.ipv6.fib_multipath_hash_policy", std::to_string(k.policy)}});
  sys.emplace_back("net.ipv4.fib_multipath_hash_seed", std::to_string(k.seed));
}

void check_addressable(const Fabric& fabric) {
  const Family family = fabric.family();
  const std::string pool = cidr(link_pool(family), link_pool_len(family));
  const std::uint8_t free_bits = family == Family::V4 ? 32 - kLinkPoolLen : 31;
  if (fabric.links().size() >= (std::size_t{1} << free_bits))
    throw InputError({{}, 0, 0, "fabric"}, "too many links to address from " + pool);
  for (NodeId e : fabric.endpoints())
    if (overlaps_pool(fabric.node(e).ip, static_cast<std::uint8_t>(fabric.node(e).ip.bits())))
      throw InputError({{}, 0, 0, "fabric.address_base"},
                       "host " + fabric.node(e).name + " is inside " + pool + ", which emulate uses for links");
}

// Node n's interfaces: addresses, permanent neighbours, host and access routes.
std::string interface_lines(const Fabric& fabric, const NetnsPlan& p, NodeId n,
                            const std::function<bool(LinkId)>& working) {
  const auto links = fabric.links();
  const bool v4 = fabric.family() == Family::V4;
  const unsigned host_len = v4 ? 32 : 128;
  const std::string dad = v4 ? "" : " nodad";
  const bool sw = fabric.is_switch(n);
  std::string b;
  for (LinkId l : fabric.out_links(n)) {
    if (!working(l)) continue;
    const std::string& dev = p.ifname[l];
    const LinkId back = l ^ 1u;
    const bool peer_switch = fabric.is_switch(links[l].to);
    b += "link set " + dev + " up\n";
    b += "addr add " + cidr(p.addr[l], sw && peer_switch ? host_len - 1 : host_len) + " dev " + dev + dad + "\n";
    // Permanent neighbours: no ARP or neighbour discovery ever crosses a
    // link, so link counters see only test packets.
    b += "neigh replace " + hashing::format_ip(p.addr[back]) + " lladdr " + mac_of(back) + " dev " + dev +
         " nud permanent\n";
    if (!sw)
      b += std::string("route add ") + (v4 ? "default" : "::/0") + " via " + hashing::format_ip(p.addr[back]) +
           " dev " + dev + " onlink\n";
    else if (!peer_switch)
      b += "route add " + cidr(p.addr[back], host_len) + " dev " + dev + "\n";
  }
  return b;
}

}  // namespace

NetnsPlan plan_netns(const Fabric& fabric, const EqualCostSets& sets, std::span<const std::uint32_t> weight,
                     std::span<const KernelHash> kernel, const std::string& prefix,
                     std::span<const LinkId> static_next) {
  const auto nodes = fabric.nodes();
  const auto links = fabric.links();
  const Family family = fabric.family();
  check_addressable(fabric);

  NetnsPlan p;
  p.prefix = prefix;
  p.ns.resize(nodes.size());
  p.ifname.resize(links.size());
  p.addr.resize(links.size());
  p.node_batch.resize(nodes.size());
  p.sysctls.resize(nodes.size());
  for (NodeId n = 0; n < nodes.size(); ++n) {
    p.ns[n] = prefix + nodes[n].name;
    const auto out = fabric.out_links(n);
    for (std::size_t i = 0; i < out.size(); ++i) p.ifname[out[i]] = "p" + std::to_string(i);
  }
  for (LinkId l = 0; l < links.size(); ++l) {
    if (links[l].reverse != (l ^ 1u))
      throw InputError({{}, 0, 0, "fabric"}, "emulate needs each cable's two directions numbered 2c, 2c+1");
    const bool from_host = !fabric.is_switch(links[l].from);
    p.addr[l] = from_host ? nodes[links[l].from].ip : *link_pool(family).plus(l);
  }

  // Cables that are down are not built: the equal-cost sets do not use them,
  // and a missing interface carries nothing.
  const std::function<bool(LinkId)> working = [&](LinkId l) { return !sets.is_down(l) && !sets.is_down(l ^ 1u); };
  for (LinkId l = 0; l < links.size(); l += 2) {
    if (!working(l)) continue;
    p.links_batch += "link add " + p.ifname[l] + " netns " + p.ns[links[l].from] + " address " + mac_of(l) +
                     " type veth peer name " + p.ifname[l + 1] + " netns " + p.ns[links[l].to] + " address " +
                     mac_of(l + 1) + "\n";
  }

  Prefixes prefixes;
  for (std::uint32_t t = 0; t < fabric.tors().size(); ++t) prefixes.push_back(tor_prefixes(fabric, t));
  for (NodeId n = 0; n < nodes.size(); ++n) {
    p.sysctls[n] = node_sysctls(family);
    std::string& b = p.node_batch[n];
    b += "link set lo up\n";
    b += interface_lines(fabric, p, n, working);
    if (!fabric.is_switch(n)) continue;
    const std::uint32_t s = fabric.switch_index(n);
    switch_sysctls(family, kernel[s], p.sysctls[n]);
    if (static_next.empty())
      b += multipath_routes(fabric, sets, weight, p, prefixes, s);
    else
      b += static_routes(fabric, p, static_next, s);
  }
  return p;
}

}  // namespace ecmpsim
