#include "sim/emulate/emulate_plan.h"

#include <cstdio>

#include "sim/base/error.h"
#include "sim/base/text.h"

namespace ecmpsim {
namespace {

constexpr std::uint32_t mask_of(std::uint8_t len) { return len == 0 ? 0 : ~0u << (32 - len); }

bool in_prefix(std::uint32_t ip, std::uint32_t prefix, std::uint8_t len) {
  return (ip & mask_of(len)) == (prefix & mask_of(len));
}

bool overlaps_pool(std::uint32_t prefix, std::uint8_t len) {
  const std::uint8_t shorter = len < kLinkPoolLen ? len : kLinkPoolLen;
  return in_prefix(prefix, kLinkPool, shorter);
}

// Locally administered, unicast: 02:e5 then the directed link id.
std::string mac_of(LinkId l) {
  char buf[18];
  std::snprintf(buf, sizeof buf, "02:e5:%02x:%02x:%02x:%02x", (l >> 24) & 0xFF, (l >> 16) & 0xFF, (l >> 8) & 0xFF,
                l & 0xFF);
  return buf;
}

std::string cidr(std::uint32_t ip, std::uint8_t len) { return hashing::format_ip(ip) + "/" + std::to_string(len); }

using Prefixes = std::vector<std::vector<std::pair<std::uint32_t, std::uint8_t>>>;

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

// Switch s's static table: one /32 per endpoint it does not deliver itself.
std::string static_routes(const Fabric& fabric, const NetnsPlan& p, std::span<const LinkId> next, std::uint32_t s) {
  std::string b;
  const std::size_t endpoints = fabric.endpoints().size();
  for (std::uint32_t e = 0; e < endpoints; ++e) {
    const LinkId l = next[s * endpoints + e];
    if (l == kNone) continue;
    b += "route add " + cidr(fabric.node(fabric.endpoint_node(e)).ip.v4(), 32) + " via " + hashing::format_ip(p.addr[l ^ 1u]) +
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
    if (h.algo->layout == hashing::KeyLayout::LinuxL4)
      k.policy = 1;
    else if (h.algo->layout == hashing::KeyLayout::LinuxL3)
      k.policy = 0;
    else
      throw InputError(at, where + "Linux routers hash with linux-l3 or linux-l4, not " + std::string(h.algo->name));
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

std::vector<std::pair<std::uint32_t, std::uint8_t>> tor_prefixes(const Fabric& fabric, std::uint32_t tor) {
  std::vector<std::uint32_t> mine, others;
  for (std::uint32_t e = 0; e < fabric.endpoints().size(); ++e)
    (fabric.tor_of(e) == tor ? mine : others).push_back(fabric.node(fabric.endpoint_node(e)).ip.v4());
  std::vector<std::pair<std::uint32_t, std::uint8_t>> out;
  if (mine.empty()) return out;
  std::uint8_t len = 32;
  for (std::uint32_t ip : mine)
    while (len > 0 && !in_prefix(ip, mine.front(), len)) --len;
  const std::uint32_t prefix = mine.front() & mask_of(len);
  bool clean = len >= 8 && !overlaps_pool(prefix, len);
  for (std::uint32_t ip : others) clean = clean && !in_prefix(ip, prefix, len);
  if (clean) return {{prefix, len}};
  for (std::uint32_t ip : mine) out.emplace_back(ip, 32);
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

NetnsPlan plan_netns(const Fabric& fabric, const EqualCostSets& sets, std::span<const std::uint32_t> weight,
                     std::span<const KernelHash> kernel, const std::string& prefix,
                     std::span<const LinkId> static_next) {
  const auto nodes = fabric.nodes();
  const auto links = fabric.links();
  if (fabric.family() != hashing::Family::V4)
    throw InputError({{}, 0, 0, "fabric.address_base"},
                     "emulate builds IPv4 fabrics only; this address plan is IPv6 (hashes of IPv6 flows are checked "
                     "against the kernel by tests/kernel/linux_multipath6.sh)");
  if (links.size() >= (1u << (32 - kLinkPoolLen)))
    throw InputError({{}, 0, 0, "fabric"}, "too many links to address from 100.64.0.0/10");
  for (NodeId e : fabric.endpoints())
    if (overlaps_pool(fabric.node(e).ip.v4(), 32))
      throw InputError({{}, 0, 0, "fabric.address_base"},
                       "host " + fabric.node(e).name + " is inside 100.64.0.0/10, which emulate uses for links");

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
    p.addr[l] = from_host ? nodes[links[l].from].ip.v4() : kLinkPool + l;
  }

  // Cables that are down are not built: the equal-cost sets do not use them,
  // and a missing interface carries nothing.
  const auto working = [&](LinkId l) {
    return !sets.is_down(l) && !sets.is_down(l ^ 1u);
  };
  for (LinkId l = 0; l < links.size(); l += 2) {
    if (!working(l)) continue;
    p.links_batch += "link add " + p.ifname[l] + " netns " + p.ns[links[l].from] + " address " + mac_of(l) +
                     " type veth peer name " + p.ifname[l + 1] + " netns " + p.ns[links[l].to] + " address " +
                     mac_of(l + 1) + "\n";
  }

  std::vector<std::vector<std::pair<std::uint32_t, std::uint8_t>>> prefixes;
  for (std::uint32_t t = 0; t < fabric.tors().size(); ++t) prefixes.push_back(tor_prefixes(fabric, t));
  for (NodeId n = 0; n < nodes.size(); ++n) {
    auto& sys = p.sysctls[n];
    sys = {{"net.ipv6.conf.all.disable_ipv6", "1"},
           {"net.ipv6.conf.default.disable_ipv6", "1"},
           {"net.ipv4.conf.all.rp_filter", "0"},
           {"net.ipv4.conf.default.rp_filter", "0"}};
    std::string& b = p.node_batch[n];
    b += "link set lo up\n";
    const bool sw = fabric.is_switch(n);
    for (LinkId l : fabric.out_links(n)) {
      if (!working(l)) continue;
      const std::string& dev = p.ifname[l];
      const LinkId back = l ^ 1u;
      const bool peer_switch = fabric.is_switch(links[l].to);
      b += "link set " + dev + " up\n";
      b += "addr add " + cidr(p.addr[l], sw && peer_switch ? 31 : 32) + " dev " + dev + "\n";
      // Permanent neighbours: no ARP ever crosses a link, so link counters see only test packets.
      b += "neigh replace " + hashing::format_ip(p.addr[back]) + " lladdr " + mac_of(back) + " dev " + dev +
           " nud permanent\n";
      if (!sw)
        b += "route add default via " + hashing::format_ip(p.addr[back]) + " dev " + dev + " onlink\n";
      else if (!peer_switch)
        b += "route add " + cidr(p.addr[back], 32) + " dev " + dev + "\n";
    }
    if (!sw) continue;
    const std::uint32_t s = fabric.switch_index(n);
    sys.insert(sys.end(), {{"net.ipv4.ip_forward", "1"},
                           {"net.ipv4.fib_multipath_use_neigh", "0"},
                           {"net.ipv4.fib_multipath_hash_policy", std::to_string(kernel[s].policy)},
                           {"net.ipv4.fib_multipath_hash_seed", std::to_string(kernel[s].seed)}});
    if (static_next.empty())
      b += multipath_routes(fabric, sets, weight, p, prefixes, s);
    else
      b += static_routes(fabric, p, static_next, s);
  }
  return p;
}

}  // namespace ecmpsim
