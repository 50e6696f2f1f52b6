#include "sim/config_sections.h"

#include "hashing/hasher.h"
#include "sim/seeds.h"

namespace ecmpsim::config {
namespace {

std::optional<RoutingKind> parse_routing(std::string_view s) {
  if (s == "ecmp") return RoutingKind::Ecmp;
  if (s == "static") return RoutingKind::Static;
  return std::nullopt;
}
std::string_view routing_name(RoutingKind r) { return r == RoutingKind::Ecmp ? "ecmp" : "static"; }
std::optional<StaticPolicy> parse_policy(std::string_view s) {
  if (s == "table") return StaticPolicy::Table;
  if (s == "dst-mod") return StaticPolicy::DstMod;
  return std::nullopt;
}
std::string_view policy_name(StaticPolicy p) { return p == StaticPolicy::Table ? "table" : "dst-mod"; }
}  // namespace

const std::vector<Knob<HashSpec>>& hash_knobs() {
  static const std::vector<Knob<HashSpec>> k{
      {"algo", "string", "Hash algorithm, by catalogue name (see `ecmpsim hash --list`).",
       [](const toml::node& n, HashSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v) throw InputError(at, "expected a string");
         if (!hashing::find(*v)) throw InputError(at, "unknown hash algorithm '" + *v + "'");
         s.algo = *v;
       },
       [](const HashSpec& s) { return "\"" + s.algo + "\""; }},
      {"fields", "array of strings",
       "Header fields hashed, in order: src-ip, dst-ip, proto, src-port, dst-port, flow-label, in-port, dst-qp.",
       [](const toml::node& n, HashSpec& s, const SourcePos& at) {
         const auto* arr = n.as_array();
         if (!arr || arr->empty()) throw InputError(at, "expected a non-empty array of field names");
         s.fields.clear();
         for (const auto& e : *arr) {
           const auto v = e.value<std::string>();
           const auto f = v ? hashing::parse_field(*v) : std::nullopt;
           if (!f) throw InputError(at, "unknown hash field '" + v.value_or("?") + "'");
           s.fields.push_back(*f);
         }
       },
       [](const HashSpec& s) {
         std::string r = "[";
         for (auto f : s.fields) r += (r.size() > 1 ? ", \"" : "\"") + std::string(hashing::field_name(f)) + "\"";
         return r + "]";
       }},
      uint_knob<HashSpec>("seed", "Hash seed (32-bit); 0 leaves the algorithm as published.", 0, 0xFFFFFFFFu,
                          [](auto& s) -> auto& { return s.seed; }),
      enum_knob<HashSpec, SeedMode>("seed_mode", "\"same\" | \"per-tier\" | \"per-switch\"",
                                    "Every switch uses `seed`, or each tier / switch a seed derived from it "
                                    "(SplitMix64; see README \"Sweeps\").",
                                    [](auto& s) -> auto& { return s.seed_mode; }, parse_seed_mode,
                                    seed_mode_name),
      uint_knob<HashSpec>("offset", "Rotate the hash right by this many bits before member selection.", 0, 63,
                          [](auto& s) -> auto& { return s.offset; }),
      enum_knob<HashSpec, hashing::Selection>("select", "\"modulo\" | \"threshold\" | \"resilient\"",
                                              "How the hash picks a member of the equal-cost set.",
                                              [](auto& s) -> auto& { return s.select; },
                                              hashing::parse_selection, hashing::selection_name),
      uint_knob<HashSpec>("buckets", "Bucket-table size for resilient selection.", 1, 1u << 20,
                          [](auto& s) -> auto& { return s.buckets; }),
  };
  return k;
}

const std::vector<Knob<StaticRoute>>& route_knobs() {
  auto str = [](std::string_view key, std::string_view doc, auto get) {
    return Knob<StaticRoute>{key, "string", doc,
                             [=](const toml::node& n, StaticRoute& s, const SourcePos& at) {
                               const auto v = n.value<std::string>();
                               if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a node name");
                               get(s) = *v;
                             },
                             nullptr};
  };
  static const std::vector<Knob<StaticRoute>> k{
      str("switch", "Switch the route is installed on.", [](StaticRoute& s) -> std::string& { return s.switch_name; }),
      {"dst", "string", "Destination host address or prefix (\"10.0.1.2\" or \"10.0.1.0/24\").",
       [](const toml::node& n, StaticRoute& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v) throw InputError(at, "expected an address or prefix string");
         const auto p = parse_prefix(*v);
         if (!p) throw InputError(at, "invalid prefix '" + *v + "'");
         s.prefix = p->first;
         s.prefix_len = p->second;
       },
       nullptr},
      str("via", "Next hop: the neighbouring node packets are sent to.",
          [](StaticRoute& s) -> std::string& { return s.next_hop; }),
  };
  return k;
}

const std::vector<Knob<ScenarioSpec>>& scenario_knobs() {
  static const std::vector<Knob<ScenarioSpec>> k{
      {"name", "string", "Scenario name, unique; shown in every output.",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a non-empty string");
         s.name = *v;
       },
       nullptr},
      enum_knob<ScenarioSpec, RoutingKind>("routing", "\"ecmp\" | \"static\"",
                                           "ECMP hashing, or static per-destination routes.",
                                           [](auto& s) -> auto& { return s.routing; }, parse_routing, routing_name),
      enum_knob<ScenarioSpec, StaticPolicy>(
          "policy", "\"table\" | \"dst-mod\"",
          "Static routing: only the listed routes, or generated dst-mod (endpoint i takes member i mod n).",
          [](auto& s) -> auto& { return s.policy; }, parse_policy, policy_name),
      {"hash", "table", "The ECMP hash of every switch: [scenario.hash] keys below.",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         config::read_section<HashSpec>(expect_table(n, at), hash_knobs(), s.hash, at.file, at.field);
       },
       nullptr},
      {"routes", "array of tables", "Static routes {switch, dst, via}; see [scenario.routes] below.",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         const auto* arr = n.as_array();
         if (!arr) throw InputError(at, "expected an array of tables");
         for (const auto& e : *arr) {
           const SourcePos row_at = config::pos_of(e, at.file, at.field);
           StaticRoute r;
           r.where = row_at;
           config::read_section<StaticRoute>(expect_table(e, row_at), route_knobs(), r, at.file, at.field);
           if (r.switch_name.empty() || r.next_hop.empty())
             throw InputError(row_at, "a route needs switch, dst and via");
           s.routes.push_back(std::move(r));
         }
       },
       nullptr},
  };
  return k;
}

}  // namespace ecmpsim::config
