#include "sim/config.h"

#include <charconv>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "hashing/hasher.h"
#include "sim/knobs.h"
#include "sim/parse.h"

namespace ecmpsim {
namespace {

using config::Knob;

template <class S, class Get>
Knob<S> uint_knob(std::string_view key, std::string_view doc, std::uint64_t lo, std::uint64_t hi, Get get) {
  return {key, "integer", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<std::int64_t>();
            if (!n.is_integer() || !v) throw InputError(at, "expected an integer");
            if (*v < 0 || static_cast<std::uint64_t>(*v) < lo || static_cast<std::uint64_t>(*v) > hi)
              throw InputError(at, "value " + std::to_string(*v) + " out of range [" +
                                       std::to_string(lo) + ", " + std::to_string(hi) + "]");
            get(s) = static_cast<std::remove_reference_t<decltype(get(s))>>(*v);
          },
          [=](const S& s) { return std::to_string(get(s)); }};
}

template <class S, class Get>
Knob<S> gbps_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "number", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto v = n.value<double>();
            if (!(n.is_integer() || n.is_floating_point()) || !v) throw InputError(at, "expected a number");
            if (!(*v > 0) || *v > 1e6) throw InputError(at, "speed must be in (0, 1e6] Gb/s");
            get(s) = Gbps{*v};
          },
          [=](const S& s) { return format_number(get(s).value); }};
}

template <class S, class Get>
Knob<S> bytes_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "integer or size string", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            if (const auto v = n.value<std::int64_t>(); n.is_integer() && v) {
              if (*v <= 0) throw InputError(at, "size must be positive");
              get(s) = Bytes{static_cast<std::uint64_t>(*v)};
            } else if (const auto str = n.value<std::string>(); n.is_string() && str) {
              const auto b = parse_size(*str);
              if (!b || b->value == 0) throw InputError(at, "invalid size '" + *str + "' (e.g. 4096, \"256MiB\", \"1GB\")");
              get(s) = *b;
            } else {
              throw InputError(at, "expected a size (integer bytes or a string such as \"1GiB\")");
            }
          },
          [=](const S& s) { return std::to_string(get(s).value); }};
}

template <class S, class Get>
Knob<S> ip_knob(std::string_view key, std::string_view doc, Get get) {
  return {key, "IPv4 address", doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            if (!n.is_string() || !str) throw InputError(at, "expected an IPv4 address string");
            const auto ip = parse_ipv4(*str);
            if (!ip) throw InputError(at, "invalid IPv4 address '" + *str + "'");
            get(s) = *ip;
          },
          [=](const S& s) { return "\"" + format_ipv4(get(s)) + "\""; }};
}

template <class S, class T, class Get, class Parse, class Name>
Knob<S> enum_knob(std::string_view key, std::string_view choices, std::string_view doc, Get get, Parse parse,
                  Name name) {
  return {key, choices, doc,
          [=](const toml::node& n, S& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            if (!n.is_string() || !str) throw InputError(at, "expected a string, one of " + std::string(choices));
            const std::optional<T> v = parse(*str);
            if (!v) throw InputError(at, "unknown value '" + *str + "', expected one of " + std::string(choices));
            get(s) = *v;
          },
          [=](const S& s) { return "\"" + std::string(name(get(s))) + "\""; }};
}

std::optional<Collective> parse_collective(std::string_view s) {
  if (s == "ring-allreduce") return Collective::RingAllReduce;
  return std::nullopt;
}
std::string_view collective_name(Collective) { return "ring-allreduce"; }
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
std::optional<bool> parse_leaf_spine(std::string_view s) {
  if (s == "leaf-spine") return true;
  return std::nullopt;
}

const std::vector<Knob<FabricSpec>>& fabric_knobs() {
  static const std::vector<Knob<FabricSpec>> k{
      {"kind", "\"leaf-spine\"", "Topology generator: a two-tier leaf-spine (Clos).",
       [](const toml::node& n, FabricSpec&, const SourcePos& at) {
         const auto s = n.value<std::string>();
         if (!n.is_string() || !s || !parse_leaf_spine(*s))
           throw InputError(at, "unknown fabric kind, expected \"leaf-spine\"");
       },
       [](const FabricSpec&) { return std::string("\"leaf-spine\""); }},
      uint_knob<FabricSpec>("leaves", "Number of leaf (ToR) switches.", 1, 4096,
                            [](auto& s) -> auto& { return s.leaf_spine.leaves; }),
      uint_knob<FabricSpec>("spines", "Number of spine switches; every leaf connects to every spine.", 1, 4096,
                            [](auto& s) -> auto& { return s.leaf_spine.spines; }),
      uint_knob<FabricSpec>("hosts_per_leaf", "Endpoints (NICs) attached to each leaf.", 1, 254,
                            [](auto& s) -> auto& { return s.leaf_spine.hosts_per_leaf; }),
      uint_knob<FabricSpec>("links_per_pair",
                            "Parallel links between each leaf and each spine; each is its own ECMP member.", 1, 64,
                            [](auto& s) -> auto& { return s.leaf_spine.links_per_pair; }),
      gbps_knob<FabricSpec>("host_speed_gbps", "Speed of each NIC-to-leaf link.",
                            [](auto& s) -> auto& { return s.leaf_spine.host_speed; }),
      gbps_knob<FabricSpec>("fabric_speed_gbps", "Speed of each leaf-to-spine link.",
                            [](auto& s) -> auto& { return s.leaf_spine.fabric_speed; }),
      ip_knob<FabricSpec>("address_base",
                          "First address of the plan: leaf t's hosts get base + t*256 + 1, + 2, ...",
                          [](auto& s) -> auto& { return s.address_base; }),
  };
  return k;
}

const std::vector<Knob<WorkloadSpec>>& workload_knobs() {
  static const std::vector<Knob<WorkloadSpec>> k{
      enum_knob<WorkloadSpec, Collective>("collective", "\"ring-allreduce\"",
                                          "The NCCL collective the job runs.",
                                          [](auto& s) -> auto& { return s.collective; }, parse_collective,
                                          collective_name),
      uint_knob<WorkloadSpec>("nodes", "Nodes (one NIC each) in the job; 0 = every endpoint of the fabric.", 0,
                              1u << 24, [](auto& s) -> auto& { return s.nodes; }),
      enum_knob<WorkloadSpec, workloads::Placement>(
          "placement", "\"contiguous\" | \"strided\"",
          "Rank order over endpoints: fill each leaf in turn, or round-robin across leaves.",
          [](auto& s) -> auto& { return s.placement; }, workloads::parse_placement, workloads::placement_name),
      bytes_knob<WorkloadSpec>("message_bytes", "All-reduce buffer size S (bytes, or \"256MiB\", \"1GiB\").",
                               [](auto& s) -> auto& { return s.message; }),
      uint_knob<WorkloadSpec>("channels", "NCCL channels (rings); each has its own connections.", 1, 1024,
                              [](auto& s) -> auto& { return s.channels; }),
      uint_knob<WorkloadSpec>("qps_per_connection", "NCCL_IB_QPS_PER_CONNECTION: RC QPs per connection.", 1,
                              128, [](auto& s) -> auto& { return s.qps_per_connection; }),
      uint_knob<WorkloadSpec>("qpn_base", "First QP number each NIC allocates (24-bit).", 0, 0xFFFFFF,
                              [](auto& s) -> auto& { return s.qpn_base; }),
      uint_knob<WorkloadSpec>("qpn_stride", "Step between QP numbers allocated on one NIC.", 1, 0xFFFFFF,
                              [](auto& s) -> auto& { return s.qpn_stride; }),
  };
  return k;
}

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

const toml::table& expect_table(const toml::node& n, const SourcePos& at) {
  const auto* t = n.as_table();
  if (!t) throw InputError(at, "expected a table");
  return *t;
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

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0, {}}, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError({path, 0, 0, {}}, "cannot read file");
  return ss.str();
}

}  // namespace

namespace config {
SourcePos pos_of(const toml::node& n, const std::string& file, std::string_view key) {
  const auto& src = n.source();
  return {file, src.begin.line, src.begin.column, std::string(key)};
}
}  // namespace config

Spec load_config(const std::string& path) { return parse_config(read_file(path), path); }

Spec parse_config(std::string_view text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError({path, b.line, b.column, {}}, std::string(e.description()));
  }
  Spec spec;
  spec.source = path;
  const SourcePos file_pos{path, 0, 0, {}};
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    const SourcePos at = config::pos_of(node, path, key);
    if (key == "fabric") {
      config::read_section<FabricSpec>(expect_table(node, at), fabric_knobs(), spec.fabric, path, key);
    } else if (key == "workload") {
      config::read_section<WorkloadSpec>(expect_table(node, at), workload_knobs(), spec.workload, path, key);
    } else if (key == "scenario") {
      const auto* arr = node.as_array();
      if (!arr) throw InputError(at, "expected [[scenario]] tables");
      for (const auto& e : *arr) {
        const SourcePos sat = config::pos_of(e, path, key);
        ScenarioSpec s;
        config::read_section<ScenarioSpec>(expect_table(e, sat), scenario_knobs(), s, path, key);
        if (s.name.empty()) throw InputError(sat, "scenario needs a name");
        for (const auto& other : spec.scenarios)
          if (other.name == s.name) throw InputError(sat, "duplicate scenario name '" + s.name + "'");
        if (s.routing == RoutingKind::Static && s.policy == StaticPolicy::Table && s.routes.empty())
          throw InputError(sat, "static scenario '" + s.name + "' has no routes and no generated policy");
        spec.scenarios.push_back(std::move(s));
      }
    } else {
      throw InputError(at, "unknown section");
    }
  }
  if (spec.scenarios.empty()) {
    ScenarioSpec s;
    s.name = "ecmp";
    spec.scenarios.push_back(s);
  }
  const auto& ls = spec.fabric.leaf_spine;
  const std::uint64_t endpoints = std::uint64_t{ls.leaves} * ls.hosts_per_leaf;
  if (spec.workload.nodes > endpoints) {
    const auto* n = root.at_path("workload.nodes").node();
    throw InputError(n ? config::pos_of(*n, path, "workload.nodes") : SourcePos{path, 0, 0, "workload.nodes"},
                     "job has " + std::to_string(spec.workload.nodes) + " nodes but the fabric has only " +
                         std::to_string(endpoints) + " endpoints");
  }
  if (std::uint64_t{spec.fabric.address_base} + std::uint64_t{ls.leaves} * 256 > 0xFFFFFFFFull)
    throw InputError({path, 0, 0, "fabric.address_base"}, "address plan overflows the IPv4 space");
  return spec;
}

std::string config_reference() {
  std::string out;
  config::append_reference<FabricSpec>(out, "fabric", fabric_knobs());
  config::append_reference<WorkloadSpec>(out, "workload", workload_knobs());
  config::append_reference<ScenarioSpec>(out, "[scenario]]", scenario_knobs());
  config::append_reference<HashSpec>(out, "scenario.hash", hash_knobs());
  config::append_reference<StaticRoute>(out, "[scenario.routes]]", route_knobs());
  return out;
}

}  // namespace ecmpsim
