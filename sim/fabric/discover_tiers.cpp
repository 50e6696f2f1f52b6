// `ecmpsim topology`, second half: each device's tier, the port-channels the
// cabling implies, each host's NICs, and the topology file. How a tier is
// decided, first rule that applies (docs/fabrics-and-routing.md#topology-from-lldp):
// --tier; what the device advertised (a station is a host); a device no
// table of its own lists (a host); its name (spine, leaf, tor, core,
// super-spine, SONiC's T0/T1/T2); an MLAG peer link (a leaf); a host below
// it (a leaf); then by neighbours (all leaves: a spine; all spines: a core,
// or a leaf when there is one), else a leaf, noted.
#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <tuple>

#include "sim/fabric/discover_graph.h"
#include "sim/config/topology_file.h"

namespace ecmpsim::discover {
namespace {

bool glob(std::string_view p, std::string_view s) {
  if (p.empty()) return s.empty();
  if (p[0] == '*') return glob(p.substr(1), s) || (!s.empty() && glob(p, s.substr(1)));
  return !s.empty() && (p[0] == '?' || p[0] == s[0]) && glob(p.substr(1), s.substr(1));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The tier a switch's name says, if it says one.
std::optional<Tier> tier_by_name(const std::string& name) {
  const std::string n = lower(name);
  if (n.find("superspine") != std::string::npos || n.find("super-spine") != std::string::npos ||
      n.find("core") != std::string::npos)
    return Tier::Core;
  if (n.find("spine") != std::string::npos) return Tier::Spine;
  if (n.find("leaf") != std::string::npos || n.find("tor") != std::string::npos) return Tier::Leaf;
  // SONiC's roles: T0 a ToR, T1 a leaf/spine above it, T2 the tier above.
  if (n.size() >= 2 && n[n.size() - 2] == 't' && n.back() >= '0' && n.back() <= '2')
    return n.back() == '0' ? Tier::Leaf : n.back() == '1' ? Tier::Spine : Tier::Core;
  return std::nullopt;
}

struct Decided {
  std::map<std::string, Tier> tier;
  std::map<std::string, std::string> why;
  void set(const std::string& d, Tier t, std::string reason) {
    if (tier.count(d)) return;
    tier[d] = t;
    why[d] = std::move(reason);
  }
  bool has(const std::string& d) const { return tier.count(d) != 0; }
};

// Devices at the other end of each of d's cables.
std::vector<std::string> neighbours(const Graph& g, const Device& d) {
  std::vector<std::string> out;
  for (std::size_t c : d.cables) {
    const Cable& cab = g.cables[c];
    out.push_back(cab.a.device == d.name ? cab.b.device : cab.a.device);
  }
  return out;
}

// Switch pairs joined by two cables or more: MLAG peer links.
std::set<std::pair<std::string, std::string>> peer_pairs(const Graph& g, const Decided& k) {
  std::map<std::pair<std::string, std::string>, int> n;
  for (const Cable& c : g.cables)
    if (c.a.device != c.b.device) ++n[std::minmax(c.a.device, c.b.device)];
  std::set<std::pair<std::string, std::string>> out;
  for (const auto& [pair, count] : n) {
    const bool hosts = (k.has(pair.first) && k.tier.at(pair.first) == Tier::Host) ||
                       (k.has(pair.second) && k.tier.at(pair.second) == Tier::Host);
    if (count >= 2 && !hosts) out.insert(pair);
  }
  return out;
}

void hosts_first(const Graph& g, const DiscoverOptions& o, Decided& k) {
  for (const auto& [name, d] : g.devices) {
    for (const TierRule& r : o.tiers)
      if (glob(r.pattern, name)) {
        k.set(name, r.tier, option_ref("tier") + " " + r.pattern);
        break;
      }
    if (d.station_votes > 0 && d.switch_votes == 0) k.set(name, Tier::Host, "advertises no bridge or router");
    if (d.switch_votes > 0) continue;
    if (d.file.empty()) k.set(name, Tier::Host, "no table of its own (a host's NIC)");
    const auto nbs = neighbours(g, d);
    const bool one = !nbs.empty() && std::all_of(nbs.begin(), nbs.end(), [&](const std::string& n) { return n == nbs[0]; });
    if (!d.switch_table && one) k.set(name, Tier::Host, "a host's lldpd table with one neighbour");
  }
}

void switches_by_rules(const Graph& g, Decided& k, std::vector<std::string>& notes) {
  for (const auto& [name, d] : g.devices)
    if (auto t = tier_by_name(name)) k.set(name, *t, "its name");
  for (const auto& [a, b] : peer_pairs(g, k)) {
    k.set(a, Tier::Leaf, "MLAG peer link to " + b);
    k.set(b, Tier::Leaf, "MLAG peer link to " + a);
  }
  for (const auto& [name, d] : g.devices)
    for (const std::string& nb : neighbours(g, d))
      if (k.has(nb) && k.tier[nb] == Tier::Host) k.set(name, Tier::Leaf, "a host below it (" + nb + ")");
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, d] : g.devices) {
      if (k.has(name)) continue;
      std::set<std::string> leaves, spines, open;
      for (const std::string& nb : neighbours(g, d)) {
        if (!k.has(nb)) open.insert(nb);
        else if (k.tier[nb] == Tier::Leaf) leaves.insert(nb);
        else if (k.tier[nb] == Tier::Spine) spines.insert(nb);
      }
      if (!leaves.empty() && spines.empty()) k.set(name, Tier::Spine, "only leaves below it");
      else if (spines.size() == 1 && leaves.empty() && open.empty()) k.set(name, Tier::Leaf, "one spine above it");
      else if (spines.size() >= 2 && leaves.empty() && open.empty()) k.set(name, Tier::Core, "only spines below it");
      changed = changed || k.has(name);
    }
  }
  for (const auto& [name, d] : g.devices)
    if (!k.has(name)) {
      k.set(name, Tier::Leaf, "guessed");
      notes.push_back(name + ": tier not told by name, hosts or neighbours; written as a leaf (" + option_ref("tier") +
                      " sets it)");
    }
}

// The port-channels cabling implies: an MLAG peer link (two switches of one
// tier joined by two cables or more); a switch below an MLAG pair cabled to
// both (its port-channel to the pair); a host's cables all to one switch (a
// bond). Parallel cables between tiers stay ECMP members (routed fabrics).
void infer_lags(Graph& g, const Decided& k) {
  const auto pairs = peer_pairs(g, k);
  auto tier = [&](const std::string& d) { return k.tier.at(d); };
  auto own = [&](Cable& c, const std::string& owner, const std::string& lag) {
    if (c.a.device != owner) std::swap(c.a, c.b);
    c.lag = lag;
  };
  for (const auto& [p1, p2] : pairs) {
    if (tier(p1) != tier(p2) || tier(p1) == Tier::Host) continue;
    for (Cable& c : g.cables)
      if (std::minmax(c.a.device, c.b.device) == std::minmax(p1, p2)) own(c, p1, "peer-link");
    for (const auto& [x, d] : g.devices) {
      if (x == p1 || x == p2 || tier(x) == Tier::Host || tier(x) > tier(p1)) continue;
      const auto nbs = neighbours(g, d);
      if (std::count(nbs.begin(), nbs.end(), p1) == 0 || std::count(nbs.begin(), nbs.end(), p2) == 0) continue;
      for (std::size_t c : d.cables) {
        Cable& cab = g.cables[c];
        const std::string& other = cab.a.device == x ? cab.b.device : cab.a.device;
        if (other == p1 || other == p2) own(cab, x, "mlag-" + p1);
      }
      g.notes.push_back(x + " is cabled to MLAG pair " + p1 + " and " + p2 + ": one port-channel (mlag-" + p1 + ")");
    }
  }
  for (const auto& [x, d] : g.devices) {
    if (tier(x) != Tier::Host || d.cables.size() < 2) continue;
    const auto nbs = neighbours(g, d);
    if (std::all_of(nbs.begin(), nbs.end(), [&](const std::string& n) { return n == nbs[0]; }))
      for (std::size_t c : d.cables) own(g.cables[c], x, "bond");
  }
}

// A host's NICs: the host itself when it has one cable or one bond, else
// HOST.PORT per cable (nic_host: NIC -> host), grouped as servers (server_of)
// when every such host has as many.
void name_nics(Graph& g, const Decided& k, std::map<std::string, std::string>& nic_host,
               std::map<std::string, std::string>& server_of) {
  std::map<std::string, std::size_t> count;
  for (const auto& [x, d] : g.devices) {
    if (k.tier.at(x) != Tier::Host || d.cables.size() < 2 || g.cables[d.cables[0]].lag == "bond") continue;
    count[x] = d.cables.size();
    for (std::size_t c : d.cables) {
      Cable& cab = g.cables[c];
      CableEnd& end = cab.a.device == x ? cab.a : cab.b;
      const std::string nic = x + "." + (end.port.empty() ? std::to_string(c) : end.port);
      nic_host[nic] = x;
      end.device = nic;
    }
  }
  std::set<std::size_t> sizes;
  for (const auto& [x, d] : g.devices)
    if (k.tier.at(x) == Tier::Host) sizes.insert(count.count(x) ? count[x] : 1);
  if (sizes.size() > 1)
    g.notes.push_back("hosts have different NIC counts (" + std::to_string(*sizes.begin()) + " to " +
                      std::to_string(*sizes.rbegin()) + "): each NIC written as a node of its own (no server column)");
  else
    server_of = nic_host;
}

std::string speed_text(double gbps) {
  std::string s = std::to_string(gbps);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

// The topology file: nodes in report order, then one row per cable group
// (same ends, speed and port-channel), then read back as `[fabric] file`
// reads it, so what is written is what a config would load.
void write_file(TopologyReport& r) {
  std::string csv = "# ecmpsim topology from " + std::to_string(r.files.size()) + " LLDP table" +
                    (r.files.size() == 1 ? "" : "s") + "\n";
  csv += "# node,NAME,TIER[,SERVER[,NIC]] and link,A,B,SPEED_GBPS[,LAG][,COUNT] (docs/fabrics-and-routing.md)\n";
  std::map<std::string, std::uint32_t> nic_of;
  std::map<std::string, std::vector<std::string>> nics;
  for (const DiscoveredNode& n : r.nodes)
    if (!n.server.empty()) nics[n.server].push_back(n.name);
  for (auto& [server, list] : nics) {
    std::sort(list.begin(), list.end(), natural_less);
    for (std::uint32_t i = 0; i < list.size(); ++i) nic_of[list[i]] = i;
  }
  for (const DiscoveredNode& n : r.nodes) {
    csv += "node," + n.name + "," + std::string(name_of(kTiers, n.tier));
    if (!n.server.empty()) csv += "," + n.server + "," + std::to_string(nic_of[n.name]);
    csv += "\n";
  }
  std::map<std::string, std::size_t> rank;
  for (std::size_t i = 0; i < r.nodes.size(); ++i) rank[r.nodes[i].name] = i;
  std::sort(r.cables.begin(), r.cables.end(), [&](const Cable& x, const Cable& y) {
    const auto kx = std::tuple(std::min(rank[x.a.device], rank[x.b.device]), std::max(rank[x.a.device], rank[x.b.device]),
                               x.a.port);
    const auto ky = std::tuple(std::min(rank[y.a.device], rank[y.b.device]), std::max(rank[y.a.device], rank[y.b.device]),
                               y.a.port);
    return kx < ky;
  });
  for (std::size_t i = 0; i < r.cables.size();) {
    const Cable& c = r.cables[i];
    std::size_t j = i + 1;
    while (j < r.cables.size() && r.cables[j].a.device == c.a.device && r.cables[j].b.device == c.b.device &&
           r.cables[j].speed_gbps == c.speed_gbps && r.cables[j].lag == c.lag)
      ++j;
    csv += "link," + c.a.device + "," + c.b.device + "," + speed_text(c.speed_gbps);
    if (!c.lag.empty()) csv += "," + c.lag;
    if (j - i > 1) csv += "," + std::to_string(j - i);
    csv += "\n";
    i = j;
  }
  r.csv = std::move(csv);
  r.topology = config::parse_topology("<topology>.csv", r.csv);
}

}  // namespace

TopologyReport decide(Graph g, const DiscoverOptions& o) {
  Decided k;
  hosts_first(g, o, k);
  switches_by_rules(g, k, g.notes);
  if (o.lags) infer_lags(g, k);
  std::map<std::string, std::string> nic_host, server_of;
  name_nics(g, k, nic_host, server_of);
  TopologyReport r;
  r.files = std::move(g.files);
  r.notes = std::move(g.notes);
  // Nodes: switches from the top, then each leaf's endpoints in leaf order
  // (ToRs are numbered in the order of their first endpoint).
  std::vector<std::string> switches;
  std::map<std::string, std::vector<std::string>> hosts_of;  // ToR -> its endpoints
  for (const auto& [x, d] : g.devices)
    if (k.tier.at(x) != Tier::Host) switches.push_back(x);
  for (const Cable& c : g.cables)
    for (const auto& [end, other] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      const std::string host = nic_host.count(end.device) ? nic_host[end.device] : end.device;
      if (k.tier.count(host) && k.tier.at(host) == Tier::Host) hosts_of[other.device].push_back(end.device);
    }
  std::sort(switches.begin(), switches.end(), [&](const std::string& a, const std::string& b) {
    const Tier ta = k.tier.at(a), tb = k.tier.at(b);
    return ta != tb ? ta > tb : natural_less(a, b);
  });
  for (const std::string& s : switches) r.nodes.push_back({s, k.tier.at(s), k.why.at(s), {}, g.devices[s].file});
  for (const std::string& s : switches) {
    auto& hs = hosts_of[s];
    std::sort(hs.begin(), hs.end(), natural_less);
    hs.erase(std::unique(hs.begin(), hs.end()), hs.end());
    for (const std::string& h : hs) {
      const bool seen = std::any_of(r.nodes.begin(), r.nodes.end(), [&](const DiscoveredNode& n) { return n.name == h; });
      if (seen) continue;
      const std::string host = nic_host.count(h) ? nic_host[h] : h;
      r.nodes.push_back({h, Tier::Host, k.why.at(host), server_of.count(h) ? host : "", g.devices[host].file});
    }
  }
  r.cables = std::move(g.cables);
  write_file(r);
  return r;
}

}  // namespace ecmpsim::discover
