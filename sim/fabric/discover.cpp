// `ecmpsim topology`, first half: every LLDP table read (its form detected or
// given), each file's device named (its prompt, --device, or its file name),
// and the rows of all of them merged into cables, one per pair of ends, with
// the names a device's own table gives winning over what a neighbour heard.
#include "sim/fabric/discover.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "sim/fabric/discover_graph.h"

namespace ecmpsim {
namespace discover {
namespace {

// One row: what `dev` hears on `port`.
struct Half {
  std::string dev, port, nb, nb_port;
  double speed = 0;
  lldp::Capability cap = lldp::Capability::Unknown;
  std::string where;
};

std::string where_of(const std::string& file, const lldp::Neighbor& n) {
  return n.line != 0 ? file + ":" + std::to_string(n.line) : file + ": " + n.path;
}

std::string stem_of(const std::string& path) {
  return std::filesystem::path(path).stem().string();
}

using End = std::pair<std::string, std::string>;  // device, port

std::string end_text(const End& e) { return e.first + " " + e.second; }

// The form of one file, given or detected.
const lldp::FormatRow& form_of(const LldpFile& f, const DiscoverOptions& o) {
  if (!o.format.empty()) {
    const lldp::FormatRow* r = lldp::find_format(o.format);
    if (r == nullptr) {
      std::string names;
      for (const auto& row : lldp::formats()) names += (names.empty() ? "" : ", ") + std::string(row.name);
      throw InputError(option_at("lldp_format"), "unknown form '" + o.format + "' (" + names + ")");
    }
    return *r;
  }
  const lldp::FormatRow* r = lldp::detect_format(f.text);
  if (r == nullptr) {
    std::string names;
    for (const auto& row : lldp::formats()) names += (names.empty() ? "" : "; ") + std::string(row.doc);
    throw InputError({f.name, 0, 0, {}}, "not an LLDP neighbour table ecmpsim reads (" + names + ")");
  }
  return *r;
}

// Reads every file into rows, each file's device named.
std::vector<Half> read_rows(std::span<const LldpFile> files, const DiscoverOptions& o, Graph& g) {
  if (!o.device.empty() && files.size() != 1)
    throw InputError(option_at("device"), "names the device of one file; " + std::to_string(files.size()) +
                                             " files were given (name each file after its device)");
  std::vector<Half> rows;
  for (const LldpFile& f : files) {
    const lldp::FormatRow& form = form_of(f, o);
    lldp::ParseResult parsed = form.parse(f.text, f.name);
    if (auto* e = std::get_if<InputError>(&parsed)) throw std::move(*e);
    lldp::Table& t = std::get<lldp::Table>(parsed);
    const std::string device = !t.device.empty() ? t.device : !o.device.empty() ? o.device : stem_of(f.name);
    if (device.empty()) throw InputError({f.name, 0, 0, {}}, "cannot tell its device: give " + option_ref("device") + " NAME");
    Device& d = g.devices[device];
    if (!d.file.empty())
      throw InputError({f.name, 0, 0, {}}, "device '" + device + "' is also " + d.file + "'s: one table per device");
    d.name = device;
    d.file = f.name;
    d.switch_table = form.from_switch;
    g.files.push_back({f.name, std::string(form.name), device, t.neighbors.size(), t.management_rows});
    for (lldp::Neighbor& n : t.neighbors)
      rows.push_back({device, n.local_port, n.device, n.port, n.speed_gbps, n.capability, where_of(f.name, n)});
  }
  return rows;
}

// A port that hears several neighbours (a hub, a hypervisor's bridge) is no
// one cable: its rows are left out, with a note.
void drop_shared_ports(std::vector<Half>& rows, Graph& g) {
  std::map<End, int> count;
  for (const Half& h : rows) ++count[{h.dev, h.port}];
  std::vector<Half> kept;
  for (Half& h : rows) {
    const int n = count[{h.dev, h.port}];
    if (n == 1) {
      kept.push_back(std::move(h));
    } else if (n > 1) {
      g.notes.push_back(h.dev + " " + h.port + " hears " + std::to_string(n) +
                        " neighbours (a shared segment, not one cable): left out");
      count[{h.dev, h.port}] = 0;
    }
  }
  rows = std::move(kept);
}

// What a device's own table calls its ends wins over what a neighbour heard:
// a neighbour heard under a name no table has ("localhost" before the host
// was named) is the device whose own table says that port is cabled back
// here; a port heard by its port id (a host's MAC, lldpd's default) is the
// port the device's own table names.
void resolve_aliases(std::vector<Half>& rows, Graph& g) {
  std::map<End, const Half*> claims;  // (device, port) -> the row of a table that says it is cabled there
  for (const Half& h : rows) claims.emplace(End{h.nb, h.nb_port}, &h);
  for (Half& h : rows) {
    const auto it = claims.find({h.dev, h.port});
    if (it == claims.end()) continue;
    const Half& other = *it->second;  // other.dev's table says other.port is cabled to h.dev h.port
    if (other.dev == h.nb && other.port == h.nb_port) continue;
    const bool named = g.devices.count(h.nb) && !g.devices[h.nb].file.empty();
    if (other.dev != h.nb && named) continue;  // two tables disagree: merging says which
    g.notes.push_back(h.dev + " " + h.port + " hears '" + h.nb + "' " + h.nb_port + "; " + other.dev +
                      "'s own table (" + other.where + ") names that end " + other.dev + " " + other.port +
                      ": read as that");
    h.nb = other.dev;
    h.nb_port = other.port;
  }
}

}  // namespace

Graph read_tables(std::span<const LldpFile> files, const DiscoverOptions& o) {
  Graph g;
  std::vector<Half> rows = read_rows(files, o, g);
  drop_shared_ports(rows, g);
  resolve_aliases(rows, g);
  // One cable per pair of ends; an end claimed by two cables is two tables disagreeing.
  std::map<std::pair<End, End>, std::size_t> cable_of;
  std::map<End, std::pair<End, std::string>> end_owner;  // end -> its other end, where read
  std::size_t one_sided = 0, defaulted = 0;
  for (const Half& h : rows) {
    const End here{h.dev, h.port}, there{h.nb, h.nb_port};
    for (const auto& [mine, other] : {std::pair{here, there}, std::pair{there, here}}) {
      const auto [it, fresh] = end_owner.try_emplace(mine, other, h.where);
      if (!fresh && it->second.first != other)
        throw InputError({h.where, 0, 0, {}}, end_text(here) + " is cabled to " + end_text(there) + ", but " +
                                                  it->second.second + " says " + end_text(mine) + " is cabled to " +
                                                  end_text(it->second.first));
    }
    const auto key = here < there ? std::pair{here, there} : std::pair{there, here};
    Device& nb = g.devices[h.nb];
    nb.name = h.nb;
    if (h.cap == lldp::Capability::Switch) ++nb.switch_votes;
    if (h.cap == lldp::Capability::Station) ++nb.station_votes;
    const auto [it, fresh] = cable_of.try_emplace(key, g.cables.size());
    if (fresh) {
      Cable c{{key.first.first, key.first.second}, {key.second.first, key.second.second}, h.speed, h.speed > 0,
              false, {}, h.where};
      g.cables.push_back(std::move(c));
      g.devices[key.first.first].cables.push_back(it->second);
      if (key.first.first != key.second.first) g.devices[key.second.first].cables.push_back(it->second);
    } else {
      Cable& c = g.cables[it->second];
      c.both_sides = true;
      if (h.speed > c.speed_gbps) c.speed_gbps = h.speed, c.speed_from_table = true;
    }
  }
  for (Cable& c : g.cables) {
    if (!c.both_sides) ++one_sided;
    if (!c.speed_from_table) {
      c.speed_gbps = o.speed_gbps;
      ++defaulted;
    }
  }
  if (one_sided > 0)
    g.notes.push_back(std::to_string(one_sided) + " of " + std::to_string(g.cables.size()) +
                      " cables are listed by one end's table only (the other end's table is missing or does not list it)");
  if (defaulted > 0)
    g.notes.push_back(std::to_string(defaulted) + " cables have no speed in the tables: " +
                      std::to_string(static_cast<long long>(o.speed_gbps)) + " Gb/s (" + option_ref("speed") + ")");
  return g;
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      const std::string_view x = std::string_view(a).substr(i, ie - i), y = std::string_view(b).substr(j, je - j);
      const std::string_view xs = x.substr(std::min(x.size() - 1, x.find_first_not_of('0')));
      const std::string_view ys = y.substr(std::min(y.size() - 1, y.find_first_not_of('0')));
      if (xs.size() != ys.size()) return xs.size() < ys.size();
      if (xs != ys) return xs < ys;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

}  // namespace discover

TopologyReport discover_topology(std::span<const LldpFile> files, const DiscoverOptions& o) {
  return discover::decide(discover::read_tables(files, o), o);
}

}  // namespace ecmpsim
