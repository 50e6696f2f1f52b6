// Files a config points at: explicit topologies (TOML or CSV) and static
// route tables (CSV). Paths are relative to the config file's directory.
#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "sim/config/config_sections.h"
#include "sim/config/toml_text.h"
#include "hashing/suggest.h"
#include "sim/base/input_file.h"

namespace ecmpsim::config {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A CSV line split at commas, each field with its 1-based column.
struct Cell {
  std::string_view text;
  std::uint32_t column;
};
std::vector<Cell> split_csv(std::string_view line) {
  std::vector<Cell> out;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    std::string_view f = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    std::uint32_t col = static_cast<std::uint32_t>(start) + 1;
    while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) {
      f.remove_prefix(1);
      ++col;
    }
    while (!f.empty() && (f.back() == ' ' || f.back() == '\t' || f.back() == '\r')) f.remove_suffix(1);
    out.push_back({f, col});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

template <class Fn>
void for_each_line(const std::string& text, Fn fn) {
  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    ++line_no;
    std::string_view trimmed = line;
    while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
    if (trimmed.empty() || trimmed.front() == '#' || trimmed == "\r") continue;
    fn(line, line_no);
  }
}

// Other names topology files use for the tiers, beside kTiers' own.
constexpr std::array<Named<Tier>, 7> kTierAliases{{{Tier::Host, "endpoint"},
                                                    {Tier::Host, "nic"},
                                                    {Tier::Leaf, "tor"},
                                                    {Tier::Leaf, "edge"},
                                                    {Tier::Spine, "agg"},
                                                    {Tier::Spine, "aggregation"},
                                                    {Tier::Core, "super-spine"}}};
std::optional<Tier> parse_tier(std::string_view s) {
  const auto tier = parse_name(kTiers, s);
  return tier ? tier : parse_name(kTierAliases, s);
}
constexpr std::string_view kTierChoices = "host, leaf (tor, edge), spine (agg), core (super-spine)";

std::uint32_t positive(std::string_view v, std::uint64_t max, const SourcePos& at, std::string_view what) {
  const auto n = parse_uint(v, max);
  if (!n || *n == 0) throw InputError(at, std::string(what) + " must be an integer in [1, " + std::to_string(max) + "], got '" + std::string(v) + "'");
  return static_cast<std::uint32_t>(*n);
}

// A NIC's index in its server: NCCL's NET/IB/N, so 0 .. 253 (nics_per_node is at most 254).
std::uint32_t topology_nic_index(std::string_view v, const TopologyNode& node, const SourcePos& at) {
  if (node.tier != Tier::Host) throw InputError(at, "nic applies to endpoints only, not the " + std::string(name_of(kTiers, node.tier)) + " '" + node.name + "'");
  const auto n = parse_uint(v, 253);
  if (!n) throw InputError(at, "nic must be an integer in [0, 253], got '" + std::string(v) + "'");
  return static_cast<std::uint32_t>(*n);
}

// An endpoint's own address (the address column or key): one IPv4 or IPv6
// address; the family and uniqueness are checked on the fabric.
void topology_address(std::string_view v, TopologyNode& node, const SourcePos& at) {
  if (node.tier != Tier::Host)
    throw InputError(at, "address applies to endpoints only, not the " + std::string(name_of(kTiers, node.tier)) + " '" +
                             node.name + "'");
  const auto ip = hashing::parse_ip(v);
  if (!ip) throw InputError(at, "invalid address '" + std::string(v) + "' (IPv4 10.0.1.5 or IPv6 fd00::1:5)");
  node.address = *ip;
  node.address_at = at;
}

std::string topology_line(const SourcePos& at) { return "line " + std::to_string(at.line); }

// One server's NICs in NIC order: by their `nic` indices (all or none of them
// given; 0..n-1, each once) or as listed.
void order_server_nics(const TopologySpec& t, TopologyServer& s) {
  const auto& nodes = t.nodes;
  const TopologyNode& first = nodes[s.nics[0]];
  std::vector<std::uint32_t> ordered(s.nics.size(), kNicUnset);
  for (const std::uint32_t i : s.nics) {
    const TopologyNode& n = nodes[i];
    if ((n.nic == kNicUnset) != (first.nic == kNicUnset)) {
      const TopologyNode& with = n.nic == kNicUnset ? first : n;
      const TopologyNode& without = n.nic == kNicUnset ? n : first;
      throw InputError(without.where, "NIC '" + without.name + "' of server '" + s.name + "' has no nic while '" +
                                          with.name + "' (" + topology_line(with.where) +
                                          ") has one: give every NIC of a server its nic, or none");
    }
    if (n.nic == kNicUnset) return;  // as listed
    if (n.nic >= s.nics.size())
      throw InputError(n.nic_at, "nic " + std::to_string(n.nic) + " of server '" + s.name + "' leaves a gap: " +
                                     (s.nics.size() == 1 ? std::string("its only NIC is nic 0")
                                                         : "its " + std::to_string(s.nics.size()) + " NICs are nic 0.." +
                                                               std::to_string(s.nics.size() - 1)));
    if (ordered[n.nic] != kNicUnset)
      throw InputError(n.nic_at, "nic " + std::to_string(n.nic) + " of server '" + s.name + "' is also '" +
                                     nodes[ordered[n.nic]].name + "' (" + topology_line(nodes[ordered[n.nic]].where) + ")");
    ordered[n.nic] = i;
  }
  s.nics = std::move(ordered);
}

// Groups the endpoints into servers (an endpoint without a server is its own)
// and checks that every server has as many NICs as the first: a node of the
// config has nics_per_node NICs, one count for the whole fabric.
void group_topology_servers(TopologySpec& t) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::uint32_t i = 0; i < t.nodes.size(); ++i) {
    const TopologyNode& n = t.nodes[i];
    if (n.tier != Tier::Host) {
      if (!n.server.empty()) throw InputError(n.where, "server applies to endpoints only, not the " + std::string(name_of(kTiers, n.tier)) + " '" + n.name + "'");
      continue;
    }
    const std::string& server = n.server.empty() ? n.name : n.server;
    const auto [it, fresh] = index.try_emplace(server, t.servers.size());
    if (fresh) t.servers.push_back({server, {}});
    t.servers[it->second].nics.push_back(i);
  }
  for (TopologyServer& s : t.servers) order_server_nics(t, s);
  if (t.servers.empty()) return;
  const TopologyServer& first = t.servers[0];
  t.nics_per_server = static_cast<std::uint32_t>(first.nics.size());
  for (const TopologyServer& s : t.servers)
    if (s.nics.size() != first.nics.size()) {
      auto count = [](const TopologyServer& x) {
        return std::to_string(x.nics.size()) + (x.nics.size() == 1 ? " NIC" : " NICs");
      };
      throw InputError(t.nodes[*std::min_element(s.nics.begin(), s.nics.end())].where,
                       "server '" + s.name + "' has " + count(s) + " but server '" + first.name + "' (" +
                           topology_line(t.nodes[*std::min_element(first.nics.begin(), first.nics.end())].where) +
                           ") has " + count(first) + ": every server needs the same number of NICs (nics_per_node)");
    }
}

TopologySpec topology_csv(const std::string& path, const std::string& text) {
  TopologySpec t;
  t.source = path;
  for_each_line(text, [&](std::string_view line, std::uint32_t n) {
    const auto cells = split_csv(line);
    auto at = [&](std::size_t i) { return SourcePos{path, n, cells[std::min(i, cells.size() - 1)].column, {}}; };
    const std::string_view kind = cells[0].text;
    if (kind == "node") {
      if (cells.size() < 3 || cells.size() > 6)
        throw InputError(at(0), "expected node,NAME,TIER[,SERVER[,NIC[,ADDRESS]]]");
      const auto tier = parse_tier(cells[2].text);
      if (cells[1].text.empty()) throw InputError(at(1), "empty node name");
      if (!tier) throw InputError(at(2), "unknown tier '" + std::string(cells[2].text) + "', expected " + std::string(kTierChoices));
      TopologyNode node{std::string(cells[1].text), *tier, cells.size() >= 4 ? std::string(cells[3].text) : "",
                        kNicUnset, at(1), at(4), std::nullopt, {}};
      // An empty NIC cell leaves it unset, so an address can follow it alone.
      if (cells.size() >= 5 && !(cells.size() == 6 && cells[4].text.empty()))
        node.nic = topology_nic_index(cells[4].text, node, at(4));
      if (cells.size() == 6) topology_address(cells[5].text, node, at(5));
      t.nodes.push_back(std::move(node));
    } else if (kind == "link") {
      // A fifth cell that is no number names A's port-channel; COUNT and WEIGHT follow it.
      const bool lag = cells.size() >= 5 && !cells[4].text.empty() &&
                       cells[4].text.find_first_not_of("0123456789") != std::string_view::npos;
      const std::size_t k = lag ? 5 : 4;
      if (cells.size() < 4 || cells.size() > k + 2)
        throw InputError(at(0), "expected link,A,B,SPEED_GBPS[,LAG][,COUNT[,WEIGHT]]");
      TopologyLink l{std::string(cells[1].text), std::string(cells[2].text), Gbps{0}, 1, 1, at(0), {}};
      char* end = nullptr;
      const std::string speed(cells[3].text);
      const double v = std::strtod(speed.c_str(), &end);
      if (speed.empty() || *end != '\0' || !(v > 0) || v > 1e6) throw InputError(at(3), "speed must be in (0, 1e6] Gb/s, got '" + speed + "'");
      l.speed = Gbps{v};
      if (lag) l.lag = std::string(cells[4].text);
      if (cells.size() > k) l.count = positive(cells[k].text, 1024, at(k), "count");
      if (cells.size() > k + 1) l.weight = positive(cells[k + 1].text, 65535, at(k + 1), "weight");
      t.links.push_back(std::move(l));
    } else {
      throw InputError(at(0), "expected a 'node' or 'link' row, got '" + std::string(kind) + "'");
    }
  });
  return t;
}

TopologySpec topology_toml(const std::string& path, const std::string& text) {
  const toml::table root = parse_toml(text, path);
  TopologySpec t;
  t.source = path;
  auto str = [&](const toml::table& row, const char* key, const SourcePos& row_at) {
    const auto* n = row.get(key);
    if (!n) throw InputError(row_at, std::string("missing key '") + key + "'");
    return expect_name(*n, pos_of(*n, path, key));
  };
  auto uint = [&](const toml::table& row, const char* key, std::uint64_t max, std::uint32_t dflt) {
    const auto* n = row.get(key);
    if (!n) return dflt;
    const auto v = n->value<std::int64_t>();
    if (!n->is_integer() || !v || *v < 1 || static_cast<std::uint64_t>(*v) > max)
      throw InputError(pos_of(*n, path, key), "expected an integer in [1, " + std::to_string(max) + "]");
    return static_cast<std::uint32_t>(*v);
  };
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    const auto* arr = node.as_array();
    if ((key != "node" && key != "link") || !arr)
      throw InputError(pos_of(node, path, key), "expected [[node]] or [[link]] tables");
    for (const auto& e : *arr) {
      const SourcePos row_at = pos_of(e, path, key);
      const auto& row = expect_table(e, row_at);
      for (const auto& [rk, rv] : row) {
        static const std::vector<std::string_view> node_keys{"name", "tier", "server", "nic", "address"};
        static const std::vector<std::string_view> link_keys{"a", "b", "speed_gbps", "count", "weight", "lag"};
        const auto& allowed = key == "node" ? node_keys : link_keys;
        if (std::find(allowed.begin(), allowed.end(), rk.str()) == allowed.end())
          throw InputError(pos_of(rv, path, key + "." + std::string(rk.str())),
                           "unknown key" + did_you_mean(rk.str(), allowed));
      }
      if (key == "node") {
        const std::string tier_text = str(row, "tier", row_at);
        const auto tier = parse_tier(tier_text);
        if (!tier) throw InputError(pos_of(*row.get("tier"), path, "node.tier"), "unknown tier '" + tier_text + "', expected " + std::string(kTierChoices));
        TopologyNode n{str(row, "name", row_at), *tier, row.contains("server") ? str(row, "server", row_at) : "",
                       kNicUnset, row_at, row_at, std::nullopt, {}};
        if (const auto* nic = row.get("nic")) {
          n.nic_at = pos_of(*nic, path, "node.nic");
          const auto v = nic->value<std::int64_t>();
          if (!nic->is_integer() || !v || *v < 0) throw InputError(n.nic_at, "nic must be an integer in [0, 253]");
          n.nic = topology_nic_index(std::to_string(*v), n, n.nic_at);
        }
        if (const auto* addr = row.get("address")) {
          const SourcePos aat = pos_of(*addr, path, "node.address");
          const auto v = addr->value<std::string>();
          if (!addr->is_string() || !v) throw InputError(aat, "expected an address string");
          topology_address(*v, n, aat);
        }
        t.nodes.push_back(std::move(n));
      } else {
        TopologyLink l{str(row, "a", row_at), str(row, "b", row_at), Gbps{0}, 1, 1, row_at, {}};
        const auto* sp = row.get("speed_gbps");
        if (!sp) throw InputError(row_at, "missing key 'speed_gbps'");
        const auto v = sp->value<double>();
        if (!(sp->is_integer() || sp->is_floating_point()) || !v || !(*v > 0) || *v > 1e6)
          throw InputError(pos_of(*sp, path, "link.speed_gbps"), "speed must be in (0, 1e6] Gb/s");
        l.speed = Gbps{*v};
        l.count = uint(row, "count", 1024, 1);
        l.weight = uint(row, "weight", 65535, 1);
        if (row.contains("lag")) l.lag = str(row, "lag", row_at);
        t.links.push_back(std::move(l));
      }
    }
  }
  return t;
}

}  // namespace

std::string relative_to(const std::string& config_path, const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.is_absolute()) return path;
  const fs::path dir = fs::path(config_path).parent_path();
  return (dir / p).lexically_normal().string();
}

void check_topology_name(const std::string& path, const SourcePos& key_at) {
  if (!ends_with(path, ".csv") && !ends_with(path, ".toml"))
    throw InputError(key_at, "topology file '" + path + "' must end in .toml or .csv");
}

TopologySpec load_topology(const std::string& path, const SourcePos& key_at, std::uint64_t max_bytes) {
  check_topology_name(path, key_at);
  return parse_topology(path, read_input_file(path, key_at, "file '" + path + "'", {max_bytes, "max_config_bytes"}));
}

TopologySpec parse_topology(const std::string& path, const std::string& text) {
  TopologySpec t = ends_with(path, ".csv") ? topology_csv(path, text) : topology_toml(path, text);
  group_topology_servers(t);
  return t;
}

std::shared_ptr<const RouteFile> load_routes_csv(const std::string& path, const SourcePos& key_at,
                                                 std::uint64_t max_bytes) {
  return parse_routes_csv(path, read_input_file(path, key_at, "file '" + path + "'", {max_bytes, "max_config_bytes"}));
}

std::shared_ptr<const RouteFile> parse_routes_csv(const std::string& path, const std::string& text) {
  auto file = std::make_shared<RouteFile>();
  file->path = path;
  bool first = true;
  for_each_line(text, [&](std::string_view line, std::uint32_t n) {
    const auto cells = split_csv(line);
    auto at = [&](std::size_t i) { return SourcePos{path, n, cells[std::min(i, cells.size() - 1)].column, {}}; };
    const bool header = first && cells.size() == 4 && cells[0].text == "switch";
    first = false;
    if (header) return;
    if (cells.size() != 4) throw InputError(at(0), "expected 4 columns switch,dst,src,via, got " + std::to_string(cells.size()));
    StaticRoute r;
    r.where = {{}, n, cells[0].column, {}};
    r.switch_name = std::string(cells[0].text);
    r.next_hop = std::string(cells[3].text);
    if (r.switch_name.empty()) throw InputError(at(0), "empty switch name");
    if (r.next_hop.empty()) throw InputError(at(3), "empty next hop");
    if (cells[1].text.empty()) throw InputError(at(1), "empty destination");
    if (!read_route_dst(cells[1].text, r)) throw InputError(at(1), "invalid prefix '" + std::string(cells[1].text) + "'");
    if (!cells[2].text.empty()) {
      const auto src = hashing::parse_ip_prefix(cells[2].text);
      if (!src) throw InputError(at(2), "invalid source prefix '" + std::string(cells[2].text) + "'");
      r.src = src->addr;
      r.src_len = src->len;
    }
    file->rows.push_back(std::move(r));
  });
  return file;
}

}  // namespace ecmpsim::config
