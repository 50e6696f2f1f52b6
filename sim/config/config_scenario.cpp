#include "sim/config/config_sections.h"

#include "hashing/suggest.h"
#include "hashing/hasher.h"
#include "hashing/vocabulary.h"

namespace ecmpsim::config {
namespace {

std::uint32_t hash_key_bit(std::string_view key) { return parse_name(kHashKeys, key).value_or(HashKey{}); }

// The keys of a [scenario.hash] table (with its tier and switch sub-tables)
// or of an override, for suggestions.
std::vector<std::string_view> hash_key_names(bool with_overrides) {
  std::vector<std::string_view> names;
  for (const auto& k : hash_knobs()) names.push_back(k.key);
  if (with_overrides) {
    for (const auto& t : kTiers)
      if (t.value != Tier::Host) names.push_back(t.name);
    names.push_back("switch");
    names.push_back("lag");
    names.push_back("bond");
  }
  return names;
}

// A table that names its algorithm without saying where the seed enters
// takes the convention of the vocabulary the name is in (SAI's: prefix); an
// override that sets `algo` carries it with it (apply_override).
void vocabulary_seed_as(const toml::table& t, HashSpec& h) {
  const auto* algo = t.get("algo");
  if (algo == nullptr || t.contains("seed_as") || !algo->is_string()) return;
  h.seed_as = hashing::default_seed_as(algo->value<std::string>().value_or(""));
}

const Knob<HashSpec>* hash_knob(std::string_view key) {
  for (const auto& k : hash_knobs())
    if (k.key == key) return &k;
  return nullptr;
}

// One override table: hash keys (and `name` when `named`).
HashOverride read_override(const toml::table& t, HashSpec base, const SourcePos& at, const std::string& file,
                           const std::string& section, bool named) {
  HashOverride o;
  o.values = std::move(base);
  o.where = at;
  for (const auto& [k, node] : t) {
    const std::string key = section + "." + std::string(k.str());
    const SourcePos kat = pos_of(node, file, key);
    if (named && k.str() == "name") {
      const auto v = node.value<std::string>();
      if (!node.is_string() || !v || v->empty()) throw InputError(kat, "expected a switch name");
      o.switch_name = *v;
      continue;
    }
    const Knob<HashSpec>* knob = hash_knob(k.str());
    if (knob == nullptr) throw InputError(kat, "unknown key" + did_you_mean(k.str(), hash_key_names(false), 0));
    knob->read(node, o.values, kat);
    o.keys |= hash_key_bit(k.str());
  }
  vocabulary_seed_as(t, o.values);
  if (named && o.switch_name.empty()) throw InputError(at, "a per-switch hash needs name = \"SWITCH\"");
  return o;
}

// A knob that also records where it was set: errors the planner finds on
// the fabric (a range too small to spread) point there. sport_max wins over
// sport_min whatever their order in the file.
Knob<ScenarioSpec> at_sports(Knob<ScenarioSpec> k) {
  k.read = [read = std::move(k.read)](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
    read(n, s, at);
    if (at.field == "scenario.sports")
      s.sports_at = at;
    else if (at.field == "scenario.sport_max" || s.sport_range_at.field != "scenario.sport_max")
      s.sport_range_at = at;
  };
  return k;
}

}  // namespace

void check_scenario(const toml::table& table, const ScenarioSpec& s, const std::string& file) {
  const auto at = [&](std::string_view key) { return pos_of(*table.get(key), file, "scenario." + std::string(key)); };
  const std::string routing = "\"" + std::string(name_of(kRoutingKinds, s.routing)) + "\"";
  if (table.contains("adaptive") && !routing_mode(s.routing).load_aware)
    throw InputError(at("adaptive"), "applies only to routing = \"adaptive\" (this scenario's routing is " +
                                         routing + ")");
  if (s.sports == SportPlan::Planned && !routing_mode(s.routing).plans_ports) {
    const std::string why = "sports = \"planned\" needs routing = \"ecmp\" (this scenario's routing is " +
                            routing + ")";
    if (table.contains("sports")) throw InputError(at("sports"), why);
    throw InputError(at("routing"), why + "; base '" + s.base + "' plans its ports: set sports = \"workload\"");
  }
  for (const char* key : {"sport_min", "sport_max"})
    if (table.contains(key) && s.sports != SportPlan::Planned)
      throw InputError(at(key), "applies only with sports = \"planned\"");
  if (s.sport_min > s.sport_max)
    throw InputError(at(table.contains("sport_min") ? "sport_min" : "sport_max"),
                     "sport_min " + std::to_string(s.sport_min) + " exceeds sport_max " +
                         std::to_string(s.sport_max));
}

// A scenario refining its base's override of the same tier or switch changes
// that override: one entry per tier and switch, as outputs list them.
void add_override(std::vector<HashOverride>& list, HashOverride o) {
  for (HashOverride& had : list)
    if (had.tier == o.tier && had.switch_name == o.switch_name) {
      apply_override(had.values, o);
      had.keys |= o.keys;
      had.where = o.where;
      return;
    }
  list.push_back(std::move(o));
}

void read_hash(const toml::table& table, ScenarioSpec& s, const std::string& file, std::string_view section) {
  const std::string sec(section);
  for (const auto& [k, node] : table) {
    const std::string key = sec + "." + std::string(k.str());
    const SourcePos at = pos_of(node, file, key);
    const std::string_view name = k.str();
    if (const auto tier = parse_name(kTiers, name); tier && *tier != Tier::Host) {
      HashOverride o = read_override(expect_table(node, at), s.hash, at, file, key, false);
      o.tier = *tier;
      add_override(s.hash_tiers, std::move(o));
    } else if (name == "lag" || name == "bond") {
      // A refinement of the base scenario's keeps the keys the base set.
      HashOverride& to = name == "lag" ? s.lag_hash : s.bond_hash;
      HashOverride o = read_override(expect_table(node, at), name == "lag" ? s.hash : bond_hash_default(), at, file,
                                     key, false);
      if (to.keys != 0) {
        HashSpec merged = to.values;
        apply_override(merged, o);
        o.values = merged;
        o.keys |= to.keys;
      }
      to = std::move(o);
    } else if (name == "switch") {
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[" + key + "]] tables");
      for (const auto& e : *arr) {
        const SourcePos eat = pos_of(e, file, key);
        add_override(s.hash_switches, read_override(expect_table(e, eat), s.hash, eat, file, key, true));
      }
    } else if (const Knob<HashSpec>* knob = hash_knob(name)) {
      knob->read(node, s.hash, at);
    } else {
      throw InputError(at, "unknown key" + did_you_mean(name, hash_key_names(true), 0));
    }
  }
  vocabulary_seed_as(table, s.hash);
}

const std::vector<Knob<HashSpec>>& hash_knobs() {
  static const std::vector<Knob<HashSpec>> k{
      {"algo", "string",
       "Hash algorithm, by catalogue name or its SAI/SONiC name (CRC_CCITT or SAI_HASH_ALGORITHM_CRC_CCITT, "
       "CRC_32LO, CRC_32HI; see "
       "`ecmpsim hash --list` and docs/hash-catalogue.md).",
       [](const toml::node& n, HashSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v) throw InputError(at, "expected a string");
         const hashing::Algorithm* a = hashing::find(*v);
         if (!a) throw InputError(at, unknown_algorithm(*v));
         s.algo = std::string(a->name);
       },
       [](const HashSpec& s) { return "\"" + s.algo + "\""; }},
      {"fields", "array of strings",
       "Header fields hashed, in order: src-ip, dst-ip, proto, src-port, dst-port, flow-label, in-port, dst-qp, "
       "src-mac, dst-mac, ethertype, vlan-id, or their SONiC ECMP_HASH names (SRC_IP, L4_SRC_PORT, IN_PORT, ..., "
       "also as SAI_NATIVE_HASH_FIELD_SRC_IP, or in lower case as SONiC's APP_DB: src_ip), Cumulus NVUE names "
       "(source-ip, ingress-interface, ...) or Arista EOS load-balance keywords (next-header, ...; "
       "docs/hash-catalogue.md). Tunnel fields (INNER_*, inner-*) are accepted and add nothing: non-tunnelled "
       "RoCEv2 has no inner header. The MACs are those of the hop (docs/hash-models.md).",
       [](const toml::node& n, HashSpec& s, const SourcePos& at) {
         const auto* arr = n.as_array();
         if (!arr || arr->empty()) throw InputError(at, "expected a non-empty array of field names");
         std::vector<std::string> names;
         for (const auto& e : *arr) names.push_back(e.value<std::string>().value_or("?"));
         if (const auto why = parse_field_list(names, s.fields)) throw InputError(at, *why);
       },
       [](const HashSpec& s) {
         std::string r = "[";
         for (auto f : s.fields) r += (r.size() > 1 ? ", \"" : "\"") + std::string(hashing::field_name(f)) + "\"";
         return r + "]";
       }},
      uint_knob<HashSpec>("seed", "Hash seed (32-bit); 0 leaves the algorithm as published.", 0, 0xFFFFFFFFu,
                          [](auto& s) -> auto& { return s.seed; }),
      enum_knob<HashSpec>("seed_mode",
                          "Every switch uses `seed`, or each tier / switch a seed derived from it "
                          "(SplitMix64; see docs/sweeps.md).",
                          kSeedModes, [](auto& s) -> auto& { return s.seed_mode; }),
      enum_knob<HashSpec>("seed_as",
                          "Where the seed enters: the algorithm's own register (each family's rule), prepended "
                          "to the key as 4 bytes (SONiC's SAI-P4 program), or XORed into the result. Default: "
                          "the convention of the vocabulary `algo` is named in (\"prefix\" for a SAI name such "
                          "as CRC_32LO, else \"register\"; docs/hash-models.md#seeds).",
                          hashing::kSeedAs, [](auto& s) -> auto& { return s.seed_as; }),
      uint_knob<HashSpec>("offset", "Rotate the hash right by this many bits before member selection.", 0, 63,
                          [](auto& s) -> auto& { return s.offset; }),
      enum_knob<HashSpec>("select", "How the hash picks a member of the equal-cost set.", hashing::kSelections,
                          [](auto& s) -> auto& { return s.select; }),
      uint_knob<HashSpec>("buckets", "Bucket-table size for resilient selection.", 1, 1u << 20,
                          [](auto& s) -> auto& { return s.buckets; }),
      rss_key_knob<HashSpec>("rss_key",
                             "toeplitz: the 40-byte Toeplitz key, as 80 hex digits (':' between bytes allowed, as "
                             "`ethtool -x` prints it); default the standard RSS key. The seed is still XORed into "
                             "every key word.",
                             [](auto& s) -> auto& { return s.rss_key; }),
  };
  return k;
}

bool read_route_dst(std::string_view text, StaticRoute& r) {
  if (const auto p = hashing::parse_ip_prefix(text)) {
    r.prefix = p->addr;
    r.prefix_len = p->len;
    return true;
  }
  // Digits and dots, or a colon, is a malformed address, not a host name.
  if (text.find_first_not_of("0123456789./") == std::string_view::npos || text.find(':') != std::string_view::npos)
    return false;
  r.dst_host = std::string(text);
  r.prefix_len = 0;  // the host's full address, resolved on the fabric
  return true;
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
      {"dst", "string",
       "Destination: a host (\"host5\", \"node3.nic1\"), its address (\"10.0.1.2\", \"fd00::1:2\") or a prefix "
       "(\"10.0.1.0/24\", \"fd00::1:0/112\").",
       [](const toml::node& n, StaticRoute& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a host name, address or prefix string");
         if (!read_route_dst(*v, s)) throw InputError(at, "invalid prefix '" + *v + "'");
       },
       nullptr},
      {"src", "string", "Optional source prefix: the route applies only to packets from it (most specific "
       "destination first, then most specific source).",
       [](const toml::node& n, StaticRoute& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v) throw InputError(at, "expected an address or prefix string");
         const auto p = hashing::parse_ip_prefix(*v);
         if (!p) throw InputError(at, "invalid prefix '" + *v + "'");
         s.src = p->addr;
         s.src_len = p->len;
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
         s.name = expect_name(n, at);
       },
       nullptr},
      {"base", "string",
       "Start from an earlier scenario's settings; this scenario's keys then replace them (a what-if).",
       // Read (and checked) in config.cpp before the other keys, whose defaults it sets.
       [](const toml::node&, ScenarioSpec&, const SourcePos&) {},
       nullptr},
      enum_knob<ScenarioSpec>("routing",
                              "ECMP hashing, static per-destination routes, adaptive placement by load, or "
                              "per-packet spraying over every member (see docs/fabrics-and-routing.md).",
                              kRoutingKinds, [](auto& s) -> auto& { return s.routing; }),
      enum_knob<ScenarioSpec>("adaptive",
                              "Adaptive routing: each switch picks the least-loaded member (local) or the member "
                              "with the least-loaded best remaining path (global); ties to the lowest member.",
                              kAdaptiveModes, [](auto& s) -> auto& { return s.adaptive; }),
      at_sports(enum_knob<ScenarioSpec>(
          "sports",
          "ECMP: source ports from the jobs' model (workload) or planned per flow so the switches' own hashes "
          "spread the flows (planned; docs/planned-ports.md).",
          kSportPlans, [](auto& s) -> auto& { return s.sports; })),
      at_sports(uint_knob<ScenarioSpec>(
          "sport_min", "Planned ports: lowest source port (0xC000 or above: ports a flow label can give).", 49152,
          65535, [](auto& s) -> auto& { return s.sport_min; })),
      at_sports(uint_knob<ScenarioSpec>("sport_max", "Planned ports: highest source port.", 49152, 65535,
                                        [](auto& s) -> auto& { return s.sport_max; })),
      enum_knob<ScenarioSpec>(
          "policy",
          "Static routing: only the listed routes, generated dst-mod (endpoint i takes member i mod n), or "
          "balanced (computed for the workload, greedy min of the most-loaded link); routes win over the policy.",
          kStaticPolicies, [](auto& s) -> auto& { return s.policy; }),
      {"hash", "table",
       "The ECMP hash of every switch: [scenario.hash] keys below; [scenario.hash.leaf], .spine, .core and "
       "[[scenario.hash.switch]] (with name) override some keys per tier / per switch; [scenario.hash.lag] the "
       "keys a switch's port-channel member choice changes from its own hash (none by default), "
       "[scenario.hash.bond] a host bond's hash (default linux-bond-l34).",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         read_hash(expect_table(n, at), s, at.file, at.field);
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
      {"routes_file", "string", "Static routes from a CSV file: columns switch,dst,src,via (src may be empty).",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         if (!n.is_string() || !v || v->empty()) throw InputError(at, "expected a file path");
         auto file = std::make_shared<RouteFile>();  // read by parse_config, within --max-config-bytes
         file->path = relative_to(at.file, *v);
         s.routes_file = std::move(file);
       },
       nullptr},
      {"down", "array of strings",
       "Failed cables (\"leaf0-spine1\", the n-th parallel one \"leaf1-spine0#2\") and switches (\"spine2\").",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         auto refs = read_link_refs(n, at);
         s.down.insert(s.down.end(), refs.begin(), refs.end());
       },
       nullptr},
      {"weights", "table", "WCMP weights per cable for this scenario, over the fabric's: { \"leaf0-spine1\" = 3 }.",
       [](const toml::node& n, ScenarioSpec& s, const SourcePos& at) {
         auto w = read_weights(n, at);
         s.weights.insert(s.weights.end(), w.begin(), w.end());
       },
       nullptr, "each in [1, 65535]"},
  };
  return k;
}

}  // namespace ecmpsim::config
