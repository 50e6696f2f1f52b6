// The JSON LLDP forms: lldpd's -f json and -f json0 (tests/integration/
// test_lldpcli.py in lldpd/lldpd pins both shapes), Arista EOS's `| json` of
// `show lldp neighbors` (a list) and of `... detail` (per port), and NVUE's
// `nv show interface -o json` (per interface, `lldp.neighbor`).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/fabric/lldp/lldp_formats.h"

namespace ecmpsim::lldp {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& why) {
  throw InputError({file, 0, 0, path}, why);
}

json parse(std::string_view text, const std::string& file) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    const std::size_t at = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    const std::string_view before = text.substr(0, at);
    const auto line = static_cast<std::uint32_t>(1 + std::count(before.begin(), before.end(), '\n'));
    const std::size_t nl = before.rfind('\n');
    const auto column = static_cast<std::uint32_t>(nl == std::string_view::npos ? at + 1 : at - nl);
    std::string why = e.what();
    if (const auto c = why.find(": "); c != std::string::npos) why = why.substr(c + 2);
    throw InputError({file, line, column, {}}, "invalid JSON: " + why);
  } catch (const json::exception& e) {
    throw InputError({file, 0, 0, {}}, std::string("invalid JSON: ") + e.what());
  }
}

// The first non-blank byte after any pasted prompt line.
char first_byte(std::string_view text, std::string& body) {
  std::string device;
  body = detail::blank_prompts(text, device);
  const std::size_t at = body.find_first_not_of(" \t\r\n");
  return at == std::string::npos ? '\0' : body[at];
}

const json* member(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  const auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

std::string text_of(const json* v) {
  if (v == nullptr) return {};
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number_integer()) return std::to_string(v->get<std::int64_t>());
  return {};
}

// lldpd writes a tag seen once as an object and a repeated one as a list
// of them (src/client/json_writer.c): either way, each element.
template <class F>
void each(const json& v, F&& f) {
  if (v.is_array())
    for (const json& e : v) f(e);
  else
    f(v);
}

Capability capability_of(bool bridge, bool router, bool any) {
  if (bridge || router) return Capability::Switch;
  return any ? Capability::Station : Capability::Unknown;
}

// lldpd -f json: "capability": [{"type": "Bridge", "enabled": true}, ...].
Capability lldpd_capability(const json* caps) {
  if (caps == nullptr) return Capability::Unknown;
  bool bridge = false, router = false, any = false;
  each(*caps, [&](const json& c) {
    const std::string type = text_of(member(c, "type"));
    const json* on = member(c, "enabled");
    const bool enabled = on != nullptr && on->is_boolean() && on->get<bool>();
    any = true;
    bridge = bridge || (type == "Bridge" && enabled);
    router = router || (type == "Router" && enabled);
  });
  return capability_of(bridge, router, any);
}

// One interface's neighbour in lldpd's -f json shape.
void lldpd_neighbor(Table& t, const std::string& ifname, const json& v, const std::string& path,
                    const std::string& file) {
  const json* chassis = member(v, "chassis");
  const json* port = member(v, "port");
  if (chassis == nullptr || port == nullptr) fail(file, path, "expected its chassis and port");
  Neighbor n;
  n.local_port = ifname;
  n.path = path;
  // The chassis is keyed by its system name when it sent one.
  const json* c = chassis;
  if (chassis->is_object() && member(*chassis, "id") == nullptr && chassis->size() == 1) {
    n.device = chassis->begin().key();
    c = &chassis->begin().value();
  }
  if (n.device.empty())
    if (const json* cid = member(*c, "id")) n.device = text_of(member(*cid, "value"));
  n.capability = lldpd_capability(member(*c, "capability"));
  const json* id = member(*port, "id");
  const std::string type = id ? text_of(member(*id, "type")) : "";
  const std::string descr = text_of(member(*port, "descr"));
  n.port = type == "ifname" || descr.empty() ? (id ? text_of(member(*id, "value")) : "") : descr;
  if (const json* an = member(*port, "auto-negotiation")) n.speed_gbps = detail::speed_of(text_of(member(*an, "current")));
  if (n.device.empty()) fail(file, path, "the neighbour sent no system name or chassis id");
  if (n.port.empty()) fail(file, path, "the neighbour sent no port id");
  detail::add_neighbor(t, std::move(n), false);
}

// One interface's neighbour in lldpd's -f json0 shape: every value a list
// of objects, scalars as {"value": ...}.
const json* first(const json* list) {
  if (list == nullptr) return nullptr;
  if (list->is_array()) return list->empty() ? nullptr : &list->front();
  return list;
}
std::string value0(const json* list) {
  const json* v = first(list);
  return v == nullptr ? std::string() : text_of(member(*v, "value"));
}

void lldpd0_neighbor(Table& t, const json& v, const std::string& path, const std::string& file) {
  Neighbor n;
  n.local_port = text_of(member(v, "name"));
  n.path = path;
  const json* chassis = first(member(v, "chassis"));
  const json* port = first(member(v, "port"));
  if (n.local_port.empty() || chassis == nullptr || port == nullptr)
    fail(file, path, "expected the interface's name, chassis and port");
  n.device = value0(member(*chassis, "name"));
  if (n.device.empty()) n.device = value0(member(*chassis, "id"));
  n.capability = lldpd_capability(member(*chassis, "capability"));
  const json* id = first(member(*port, "id"));
  const std::string type = id ? text_of(member(*id, "type")) : "";
  const std::string descr = value0(member(*port, "descr"));
  n.port = type == "ifname" || descr.empty() ? (id ? text_of(member(*id, "value")) : "") : descr;
  if (const json* an = first(member(*port, "auto-negotiation"))) n.speed_gbps = detail::speed_of(value0(member(*an, "current")));
  if (n.device.empty()) fail(file, path, "the neighbour sent no system name or chassis id");
  if (n.port.empty()) fail(file, path, "the neighbour sent no port id");
  detail::add_neighbor(t, std::move(n), false);
}

// A JSON form's body over the parsed document.
template <class F>
ParseResult guarded(std::string_view text, const std::string& file, F&& f) {
  return detail::guarded(text, [&](std::string_view body, Table& t) { f(parse(body, file), t); });
}

// The first key of the document and what its value opens with ('{', '[').
std::pair<std::string_view, char> top_key(std::string_view text, std::string& body) {
  if (first_byte(text, body) != '{') return {{}, '\0'};
  const std::size_t q = body.find('"');
  const std::size_t e = q == std::string::npos ? q : body.find('"', q + 1);
  if (e == std::string::npos) return {{}, '\0'};
  const std::size_t v = body.find_first_not_of(" \t\r\n:", e + 1);
  return {std::string_view(body).substr(q + 1, e - q - 1), v == std::string::npos ? '\0' : body[v]};
}

}  // namespace

bool detect_lldpd_json(std::string_view text) {
  std::string body;
  const auto [key, opens] = top_key(text, body);
  return key == "lldp" && opens == '{';
}

bool detect_lldpd_json0(std::string_view text) {
  std::string body;
  const auto [key, opens] = top_key(text, body);
  return key == "lldp" && opens == '[';
}

// {"lldp": {"interface": {"eth0": {"chassis": {"NAME": {...}}, "port": {...}}}}},
// "interface" a list of such one-key objects when there are several.
ParseResult parse_lldpd_json(std::string_view text, const std::string& file) {
  return guarded(text, file, [&](const json& doc, Table& t) {
    const json* lldp = member(doc, "lldp");
    if (lldp == nullptr || !lldp->is_object()) fail(file, "lldp", "expected an object (lldpcli -f json show neighbors)");
    const json* ifs = member(*lldp, "interface");
    if (ifs == nullptr) return;  // no neighbour at all
    each(*ifs, [&](const json& o) {
      if (!o.is_object()) fail(file, "lldp.interface", "expected objects keyed by interface name");
      for (const auto& [ifname, v] : o.items()) lldpd_neighbor(t, ifname, v, "lldp.interface." + ifname, file);
    });
  });
}

// {"lldp": [{"interface": [{"name": "eth0", "chassis": [...], "port": [...]}]}]}.
ParseResult parse_lldpd_json0(std::string_view text, const std::string& file) {
  return guarded(text, file, [&](const json& doc, Table& t) {
    const json* lldp = first(member(doc, "lldp"));
    if (lldp == nullptr) fail(file, "lldp", "expected a list (lldpcli -f json0 show neighbors)");
    const json* ifs = member(*lldp, "interface");
    if (ifs == nullptr) return;
    std::size_t i = 0;
    each(*ifs, [&](const json& v) { lldpd0_neighbor(t, v, "lldp[0].interface[" + std::to_string(i++) + "]", file); });
  });
}

bool detect_eos_json(std::string_view text) {
  std::string body;
  return first_byte(text, body) == '{' && body.find("\"lldpNeighbors\"") != std::string::npos;
}

// `show lldp neighbors | json`: {"lldpNeighbors": [{"port", "neighborDevice",
// "neighborPort", "ttl"}]}; `... detail | json`: {"lldpNeighbors": {"Ethernet4":
// {"lldpNeighborInfo": [{"systemName", "systemCapabilities", "neighborInterfaceInfo":
// {"interfaceId_v2", "operMauType"}}]}}}.
ParseResult parse_eos_json(std::string_view text, const std::string& file) {
  return guarded(text, file, [&](const json& doc, Table& t) {
    const json* list = member(doc, "lldpNeighbors");
    if (list == nullptr) fail(file, "lldpNeighbors", "missing");
    if (list->is_array()) {
      for (std::size_t i = 0; i < list->size(); ++i) {
        const json& e = (*list)[i];
        Neighbor n;
        n.path = "lldpNeighbors[" + std::to_string(i) + "]";
        n.local_port = text_of(member(e, "port"));
        n.device = text_of(member(e, "neighborDevice"));
        n.port = text_of(member(e, "neighborPort"));
        if (n.local_port.empty() || n.device.empty() || n.port.empty())
          fail(file, n.path, "expected port, neighborDevice and neighborPort");
        detail::add_neighbor(t, std::move(n), false);
      }
      return;
    }
    if (!list->is_object()) fail(file, "lldpNeighbors", "expected a list or an object keyed by port");
    for (const auto& [port, v] : list->items()) {
      const json* infos = member(v, "lldpNeighborInfo");
      if (infos == nullptr || !infos->is_array()) fail(file, "lldpNeighbors." + port, "expected lldpNeighborInfo");
      for (const json& info : *infos) {
        Neighbor n;
        n.path = "lldpNeighbors." + port;
        n.local_port = port;
        n.device = text_of(member(info, "systemName"));
        if (n.device.empty()) n.device = text_of(member(info, "chassisId"));
        const json* nif = member(info, "neighborInterfaceInfo");
        if (nif != nullptr) {
          n.port = text_of(member(*nif, "interfaceId_v2"));
          if (n.port.empty()) n.port = text_of(member(*nif, "interfaceId"));
          n.speed_gbps = detail::speed_of(text_of(member(*nif, "operMauType")));
        }
        if (const json* caps = member(info, "systemCapabilities"); caps != nullptr && caps->is_object()) {
          const json* b = member(*caps, "bridge");
          const json* r = member(*caps, "router");
          n.capability = capability_of(b && b->is_boolean() && b->get<bool>(), r && r->is_boolean() && r->get<bool>(), true);
        }
        if (n.device.empty() || n.port.empty()) fail(file, n.path, "expected systemName and neighborInterfaceInfo");
        detail::add_neighbor(t, std::move(n), false);
      }
    }
  });
}

bool detect_nvue_json(std::string_view text) {
  std::string body;
  const auto [key, opens] = top_key(text, body);
  return opens == '{' && key != "lldp" && body.find("\"lldpNeighbors\"") == std::string::npos &&
         body.find("\"lldp\"") != std::string::npos && body.find("\"neighbor\"") != std::string::npos;
}

// {"swp1": {"link": {"speed": "100G"}, "lldp": {"neighbor": {"spine01":
// {"chassis": {"system-name", "capability": {"is-bridge", "is-router"}},
// "port": {"name", "description"}}}}}, ...}: NVUE's operational interface tree.
ParseResult parse_nvue_json(std::string_view text, const std::string& file) {
  return guarded(text, file, [&](const json& doc, Table& t) {
    if (!doc.is_object()) fail(file, "", "expected an object keyed by interface (nv show interface -o json)");
    for (const auto& [ifname, v] : doc.items()) {
      const json* lldp = member(v, "lldp");
      const json* nbrs = lldp ? member(*lldp, "neighbor") : nullptr;
      if (nbrs == nullptr || !nbrs->is_object()) continue;
      const json* link = member(v, "link");
      const double speed = link ? detail::speed_of(text_of(member(*link, "speed"))) : 0;
      for (const auto& [id, nb] : nbrs->items()) {
        Neighbor n;
        n.path = ifname + ".lldp.neighbor." + id;
        n.local_port = ifname;
        n.speed_gbps = speed;
        const json* chassis = member(nb, "chassis");
        const json* port = member(nb, "port");
        n.device = chassis ? text_of(member(*chassis, "system-name")) : "";
        if (n.device.empty() && chassis) n.device = text_of(member(*chassis, "chassis-id"));
        if (n.device.empty()) n.device = id;
        if (port != nullptr) {
          const std::string type = text_of(member(*port, "type"));
          const std::string descr = text_of(member(*port, "description"));
          n.port = type == "ifname" || descr.empty() ? text_of(member(*port, "name")) : descr;
        }
        if (const json* caps = chassis ? member(*chassis, "capability") : nullptr; caps && caps->is_object()) {
          auto on = [&](const char* k) {
            const json* c = member(*caps, k);
            return c != nullptr && !(c->is_string() && c->get<std::string>() == "off");
          };
          n.capability = capability_of(on("is-bridge"), on("is-router"), true);
        }
        if (n.port.empty()) fail(file, n.path, "expected the neighbour's port name");
        detail::add_neighbor(t, std::move(n), true);
      }
    }
  });
}

}  // namespace ecmpsim::lldp
