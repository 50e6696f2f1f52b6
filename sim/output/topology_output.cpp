#include "sim/output/topology_output.h"

#include <map>
#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {
namespace {

std::string end_text(const CableEnd& e) { return e.port.empty() ? e.device : e.device + " " + e.port; }
std::string cable_text(const Cable& c) { return end_text(c.a) + " -- " + end_text(c.b); }

Json end_json(const CableEnd& e) {
  Json j{{"device", e.device}};
  if (!e.port.empty()) j["port"] = e.port;
  return j;
}

Json cable_json(const Cable& c) {
  Json j{{"a", end_json(c.a)}, {"b", end_json(c.b)}};
  if (c.speed_gbps > 0) j["speed_gbps"] = c.speed_gbps;
  if (!c.lag.empty()) j["lag"] = c.lag;
  if (!c.where.empty()) j["where"] = c.where;
  return j;
}

std::string summary(const TopologyReport& r) {
  std::map<Tier, std::size_t> tiers;
  for (const DiscoveredNode& n : r.nodes) ++tiers[n.tier];
  std::string nodes;
  for (const auto& row : kTiers)
    if (tiers[row.value] > 0)
      nodes += (nodes.empty() ? "" : ", ") + std::to_string(tiers[row.value]) + " " + std::string(row.name);
  std::size_t both = 0, lagged = 0;
  for (const Cable& c : r.cables) {
    both += c.both_sides;
    lagged += !c.lag.empty();
  }
  std::string out = "tables   " + std::to_string(r.files.size()) + "\n";
  out += "nodes    " + std::to_string(r.nodes.size()) + " (" + nodes + ")\n";
  out += "cables   " + std::to_string(r.cables.size()) + " (" + std::to_string(both) + " listed by both ends, " +
         std::to_string(lagged) + " in port-channels)\n";
  return out;
}

std::string diff_text(const TopologyOutput& t) {
  const CablingDiff& d = *t.against;
  std::string out = "\nagainst " + t.against_name + ": " + std::to_string(d.matched) + " of " +
                    std::to_string(d.intended) + " intended cables found; " + std::to_string(d.missing.size()) +
                    " missing, " + std::to_string(d.extra.size()) + " extra, " + std::to_string(d.miswired.size()) +
                    " miswired\n";
  for (const Cable& c : d.missing) out += "  missing   " + cable_text(c) + "\n";
  for (const Cable& c : d.extra) out += "  extra     " + cable_text(c) + "\n";
  for (const auto& [found, intended] : d.miswired)
    out += "  miswired  " + cable_text(found) + " (intended " + cable_text(intended) + ")\n";
  return out;
}

std::string text(const TopologyOutput& t) {
  const TopologyReport& r = *t.report;
  std::string out = summary(r);
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  out += "\n" + pad_right("node", 28) + pad_right("tier", 7) + "why\n";
  for (const DiscoveredNode& n : r.nodes) out += pad_right(n.name, 28) + pad_right(std::string(name_of(kTiers, n.tier)), 7) + n.why + "\n";
  out += "\ncables\n";
  for (const Cable& c : r.cables)
    out += "  " + cable_text(c) + "  " + format_number(c.speed_gbps) + "G" + (c.lag.empty() ? "" : "  " + c.lag) +
           (c.both_sides ? "" : "  (one end's table)") + "\n";
  if (t.against != nullptr) out += diff_text(t);
  if (!t.out.empty()) out += "\ntopology written to " + t.out + "\n";
  return out;
}

Json topology_json(const TopologyOutput& t) {
  const TopologyReport& r = *t.report;
  Json files = Json::array(), nodes = Json::array(), cables = Json::array();
  for (const DiscoveredFile& f : r.files)
    files.push_back({{"file", f.name}, {"format", f.format}, {"device", f.device}, {"neighbours", f.neighbours},
                     {"management_rows", f.management}});
  for (const DiscoveredNode& n : r.nodes) {
    Json j{{"name", n.name}, {"tier", name_of(kTiers, n.tier)}, {"why", n.why}};
    if (!n.server.empty()) j["server"] = n.server;
    nodes.push_back(std::move(j));
  }
  for (const Cable& c : r.cables) cables.push_back(cable_json(c));
  Json doc{{"files", files}, {"nodes", nodes}, {"cables", cables}, {"notes", r.notes}};
  if (t.against != nullptr) {
    const CablingDiff& d = *t.against;
    Json missing = Json::array(), extra = Json::array(), miswired = Json::array();
    for (const Cable& c : d.missing) missing.push_back(cable_json(c));
    for (const Cable& c : d.extra) extra.push_back(cable_json(c));
    for (const auto& [found, intended] : d.miswired)
      miswired.push_back({{"found", cable_json(found)}, {"intended", cable_json(intended)}});
    doc["against"] = {{"config", t.against_name}, {"intended", d.intended}, {"found", d.found},
                      {"matched", d.matched},     {"missing", missing},    {"extra", extra},
                      {"miswired", miswired}};
  }
  if (!t.out.empty()) doc["out"] = t.out;
  return doc;
}

}  // namespace

Result topology_result(const TopologyOutput& t) {
  Result r;
  r.text = [t] { return text(t); };
  r.json = [t](JsonWriter& w) { w.value(topology_json(t)); };
  return r;
}

}  // namespace ecmpsim
