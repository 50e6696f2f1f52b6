// The text LLDP forms: Arista EOS `show lldp neighbors`, SONiC `show lldp
// table` and lldpd's `-f keyvalue`. Each reads the table a terminal prints,
// a pasted prompt line allowed before it and after it.
#include <algorithm>
#include <array>
#include <map>

#include "sim/base/csv_reader.h"
#include "sim/base/text.h"
#include "sim/fabric/lldp/lldp_formats.h"

namespace ecmpsim::lldp {
namespace {

struct Word {
  std::string_view text;
  std::uint32_t column;  // 1-based
};

std::vector<Word> words_of(std::string_view line) {
  std::vector<Word> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back({line.substr(start, i - start), static_cast<std::uint32_t>(start + 1)});
  }
  return out;
}

// Blanks, and a CR that a Windows-saved dump leaves at each line's end.
std::string_view trim(std::string_view s) { return ecmpsim::trim(s, " \t\r"); }

bool dashes(std::string_view line) {
  const std::string_view t = trim(line);
  return !t.empty() && t.find_first_not_of("- ") == std::string_view::npos;
}

// Calls f(line, number) for each line of `text`.
template <class F>
void each_line(std::string_view text, F&& f) {
  std::uint32_t n = 0;
  while (!text.empty()) {
    const std::string_view line = take_line(text);
    f(line, ++n);
  }
}

[[noreturn]] void fail(const std::string& file, std::uint32_t line, std::uint32_t column, const std::string& why) {
  throw InputError({file, line, column, {}}, why);
}

}  // namespace

bool detect_eos_text(std::string_view text) {
  bool found = false;
  each_line(text, [&](std::string_view line, std::uint32_t) {
    found = found || (line.find("Neighbor Device ID") != std::string_view::npos &&
                      line.find("Neighbor Port ID") != std::string_view::npos);
  });
  return found;
}

// "Port  Neighbor Device ID  Neighbor Port ID  TTL", dashes, then one row per
// neighbour; a device ID may hold spaces, the other columns do not.
ParseResult parse_eos_text(std::string_view text, const std::string& file) {
  return detail::guarded(text, [&](std::string_view body, Table& t) {
    bool header = false, rows = false;
    each_line(body, [&](std::string_view line, std::uint32_t n) {
      if (!header) {
        header = line.find("Neighbor Device ID") != std::string_view::npos;
        return;
      }
      if (!rows) {
        rows = dashes(line);
        if (!rows && !trim(line).empty()) fail(file, n, 1, "expected the dashes under the header");
        return;
      }
      const auto w = words_of(line);
      if (w.empty()) return;
      if (w.size() < 4)
        fail(file, n, w.back().column, "expected PORT NEIGHBOR-DEVICE NEIGHBOR-PORT TTL, found " +
                                           std::to_string(w.size()) + " columns");
      const std::string_view ttl = w.back().text;
      if (ttl.find_first_not_of("0123456789") != std::string_view::npos)
        fail(file, n, w.back().column, "expected the TTL in seconds, found '" + printable(ttl) + "'");
      Neighbor nb;
      nb.local_port = std::string(w[0].text);
      const Word& port = w[w.size() - 2];
      nb.device = std::string(trim(line.substr(w[1].column - 1, port.column - w[1].column)));
      nb.port = std::string(port.text);
      nb.line = n;
      detail::add_neighbor(t, std::move(nb), false);
    });
    if (!header) fail(file, 0, 0, "no 'Port  Neighbor Device ID  Neighbor Port ID  TTL' header (show lldp neighbors)");
  });
}

bool detect_sonic_text(std::string_view text) {
  bool found = false;
  each_line(text, [&](std::string_view line, std::uint32_t) {
    const std::string_view l = trim(line);
    found = found || (l.starts_with("LocalPort") && l.find("RemoteDevice") != std::string_view::npos);
  });
  return found;
}

// tabulate's "simple" table under "Capability codes: ...": the header, a
// dashes line whose runs give the columns, rows, a closing dashes line and
// "Total entries displayed: N" (sonic-utilities scripts/lldpshow).
ParseResult parse_sonic_text(std::string_view text, const std::string& file) {
  return detail::guarded(text, [&](std::string_view body, Table& t) {
    std::vector<std::pair<std::size_t, std::size_t>> cols;  // [begin, end) of each column's dashes
    bool header = false, done = false;
    each_line(body, [&](std::string_view line, std::uint32_t n) {
      if (done) return;
      if (!header) {
        header = trim(line).starts_with("LocalPort");
        return;
      }
      if (cols.empty()) {
        if (!dashes(line)) fail(file, n, 1, "expected the dashes under the LocalPort header");
        for (std::size_t i = 0; i < line.size();) {
          if (line[i] != '-') {
            ++i;
            continue;
          }
          const std::size_t b = i;
          while (i < line.size() && line[i] == '-') ++i;
          cols.emplace_back(b, i);
        }
        if (cols.size() < 3) fail(file, n, 1, "expected at least 3 columns LocalPort RemoteDevice RemotePortID");
        return;
      }
      if (trim(line).empty()) return;
      if (dashes(line) || trim(line).starts_with("Total entries")) {
        done = true;
        return;
      }
      auto cell = [&](std::size_t k) {
        const std::size_t b = cols[k].first;
        const std::size_t e = k + 1 < cols.size() ? cols[k + 1].first : line.size();
        return b >= line.size() ? std::string_view{} : trim(line.substr(b, e - b));
      };
      Neighbor nb;
      nb.local_port = std::string(cell(0));
      nb.device = std::string(cell(1));
      nb.port = std::string(cell(2));
      nb.line = n;
      if (nb.local_port.empty()) fail(file, n, 1, "empty LocalPort");
      if (nb.port.empty()) fail(file, n, static_cast<std::uint32_t>(cols[2].first + 1), "empty RemotePortID");
      if (cols.size() > 3) {
        const std::string_view caps = cell(3);
        if (caps.find_first_of("RB") != std::string_view::npos) nb.capability = Capability::Switch;
        else if (!caps.empty()) nb.capability = Capability::Station;
      }
      detail::add_neighbor(t, std::move(nb), true);
    });
    if (!header) fail(file, 0, 0, "no 'LocalPort  RemoteDevice  RemotePortID' header (show lldp table)");
  });
}

bool detect_lldpd_keyvalue(std::string_view text) {
  std::string device;
  const std::string body = detail::blank_prompts(text, device);
  std::string_view rest = body;
  while (!rest.empty()) {
    const std::string_view line = trim(take_line(rest));
    if (line.empty()) continue;
    return line.starts_with("lldp.") && line.find('=') != std::string_view::npos;
  }
  return false;
}

namespace {

// The interface a keyvalue key names: "lldp.<ifname>.<what>" where an
// interface name may hold dots, so it ends before the first key lldpd writes
// under an interface (src/client/display.c).
std::size_t interface_end(std::string_view key) {
  static constexpr std::array<std::string_view, 10> kAfter{".via",  ".rid",  ".age",  ".chassis.", ".port.",
                                                         ".vlan", ".ppvid", ".pi",  ".lldp-med", ".unknown-tlvs"};
  std::size_t end = std::string_view::npos;
  for (std::string_view a : kAfter) {
    const std::size_t at = key.find(a, 5);
    if (at != std::string_view::npos) end = std::min(end, at);
  }
  return end;
}

// The id subtypes lldpd writes as a chassis or port id's key (the "type"
// attribute replaces the tag in keyvalue: src/client/kv_writer.c).
bool id_type(std::string_view s) {
  static constexpr std::array<std::string_view, 6> kTypes{"ifname", "mac", "local", "ifalias", "ip", "unknown"};
  return std::find(kTypes.begin(), kTypes.end(), s) != kTypes.end();
}

struct KvNeighbor {
  Neighbor n;
  std::string chassis_id, port_id, port_descr;
  bool port_is_ifname = false, named = false;
  int bridge = -1, router = -1, station = -1;
};

void finish(Table& t, KvNeighbor& k, const std::string& file) {
  Neighbor& n = k.n;
  if (n.device.empty()) n.device = k.chassis_id;
  n.port = k.port_is_ifname || k.port_descr.empty() ? k.port_id : k.port_descr;
  if (n.device.empty()) fail(file, n.line, 1, "neighbour of " + n.local_port + " has no chassis name or id");
  if (n.port.empty()) fail(file, n.line, 1, "neighbour of " + n.local_port + " has no port id");
  if (k.bridge == 1 || k.router == 1) n.capability = Capability::Switch;
  else if (k.bridge == 0 || k.router == 0 || k.station == 1) n.capability = Capability::Station;
  detail::add_neighbor(t, std::move(n), false);
}

}  // namespace

// "lldp.eth0.chassis.name=spine01", "lldp.eth0.port.ifname=swp1", ...: each
// key once per neighbour; a repeated key starts the interface's next one.
ParseResult parse_lldpd_keyvalue(std::string_view text, const std::string& file) {
  return detail::guarded(text, [&](std::string_view body, Table& t) {
    std::map<std::string, KvNeighbor> open;
    std::vector<std::string> order;
    each_line(body, [&](std::string_view raw, std::uint32_t n) {
      const std::string_view line = trim(raw);
      if (line.empty()) return;
      const std::size_t eq = line.find('=');
      if (!line.starts_with("lldp.") || eq == std::string_view::npos)
        fail(file, n, 1, "expected lldp.INTERFACE.KEY=VALUE (lldpcli -f keyvalue), found '" + printable(line) + "'");
      const std::string_view key = line.substr(0, eq), value = line.substr(eq + 1);
      const std::size_t end = interface_end(key);
      if (end == std::string_view::npos) return;  // a key lldpd may add later: not one this reads
      const std::string ifname(key.substr(5, end - 5));
      const std::string_view what = key.substr(end + 1);
      auto [it, fresh] = open.try_emplace(ifname);
      KvNeighbor& k = it->second;
      const bool name_again = what == "chassis.name" && k.named;
      if (name_again) {
        finish(t, k, file);
        k = KvNeighbor{};
      }
      if (fresh) order.push_back(ifname);
      if (k.n.line == 0) {
        k.n.line = n;
        k.n.local_port = ifname;
      }
      if (what == "chassis.name") {
        k.n.device = std::string(value);
        k.named = true;
      } else if (what.starts_with("chassis.") && what.ends_with(".enabled")) {
        const std::string_view cap = what.substr(8, what.size() - 8 - 8);
        const int on = value == "on" ? 1 : 0;
        if (cap == "Bridge") k.bridge = on;
        if (cap == "Router") k.router = on;
        if (cap == "Station") k.station = on;
      } else if (what.starts_with("chassis.") && id_type(what.substr(8))) {
        k.chassis_id = std::string(value);
      } else if (what == "port.descr") {
        k.port_descr = std::string(value);
      } else if (what == "port.auto-negotiation.current") {
        k.n.speed_gbps = detail::speed_of(value);
      } else if (what.starts_with("port.") && id_type(what.substr(5))) {
        k.port_id = std::string(value);
        k.port_is_ifname = what == "port.ifname";
      }
    });
    for (const std::string& ifname : order) finish(t, open[ifname], file);
  });
}

}  // namespace ecmpsim::lldp
