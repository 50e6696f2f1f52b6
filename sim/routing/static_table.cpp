#include "sim/routing/static_table.h"

#include <algorithm>

#include "sim/routing/balanced.h"

namespace ecmpsim {

namespace {

// A prefix of length 0 matches every address (an unset source, either family).
bool matches(const hashing::IpAddr& ip, const hashing::IpAddr& prefix, std::uint8_t len) {
  return len == 0 || ip.in_prefix(prefix, len);
}

// The last address a prefix covers: its bits past `len` all set.
hashing::IpAddr last_of(const hashing::IpAddr& prefix, std::uint8_t len) {
  auto bytes = prefix.bytes();
  for (unsigned bit = (prefix.is_v4() ? 96u : 0u) + len; bit < 128; ++bit)
    bytes[bit / 8] |= static_cast<std::uint8_t>(0x80u >> (bit % 8));
  return hashing::IpAddr::v6(bytes);
}

// One address family per fabric: a route of the other family is an error at its row.
void check_family(const Fabric& fabric, const hashing::IpAddr& a, const SourcePos& where, const char* what) {
  if (a.family() == fabric.family()) return;
  throw InputError(where, std::string("static route ") + what + " " + hashing::format_ip(a) + " is " +
                              std::string(hashing::family_name(a.family())) + " but the fabric's address plan is " +
                              std::string(hashing::family_name(fabric.family())) + " (one family per fabric)");
}

}  // namespace

StaticTable::StaticTable(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                         const workloads::Flows* flows) {
  const auto nsw = static_cast<std::uint32_t>(fabric.switches().size());
  const auto ne = static_cast<std::uint32_t>(fabric.endpoints().size());
  tors_ = static_cast<std::uint32_t>(fabric.tors().size());
  tor_of_.assign(fabric.tor_of_endpoints().begin(), fabric.tor_of_endpoints().end());
  tor_pos_.resize(ne);
  endpoint_ip_.resize(ne);
  for (std::uint32_t e = 0; e < ne; ++e) {
    tor_pos_[e] = fabric.tor_position(e);
    endpoint_ip_[e] = fabric.node(fabric.endpoint_node(e)).ip;
  }
  code_.assign(std::size_t{nsw} * tors_, kNone);
  if (scenario.policy != StaticPolicy::Table) generate(sets, nsw);
  if (scenario.policy == StaticPolicy::Balanced && flows != nullptr) balance(fabric, sets, *flows);
  Rows rows = resolve(fabric, sets, scenario);
  if (rows.empty()) return;
  index(std::move(rows), nsw);
  compile(fabric, nsw);
}

// The dst-mod policy: a destination leaves by member (endpoint mod n) of its
// equal-cost group; a group of one is just its link.
void StaticTable::generate(const EqualCostSets& sets, std::uint32_t switches) {
  std::vector<std::uint32_t> at_of_group(sets.groups(), kNone);
  for (std::uint32_t s = 0; s < switches; ++s)
    for (std::uint32_t t = 0; t < tors_; ++t) {
      const std::uint32_t g = sets.group(s, t);
      if (g == EqualCostSets::kNoGroup) continue;
      const auto m = sets.members(g);
      if (m.size() == 1) {
        code(s, t) = m[0];
        continue;
      }
      if (at_of_group[g] == kNone) {
        at_of_group[g] = static_cast<std::uint32_t>(modulo_.size());
        modulo_.push_back(static_cast<std::uint32_t>(m.size()));
        modulo_.insert(modulo_.end(), m.begin(), m.end());
      }
      code(s, t) = kModulo | at_of_group[g];
    }
}

// The balanced policy overrides dst-mod per endpoint, in blocks per (switch, ToR).
void StaticTable::balance(const Fabric& fabric, const EqualCostSets& sets, const workloads::Flows& flows) {
  std::uint32_t open_s = kNone, open_t = kNone, at = 0;
  for (const BalancedEntry& b : balanced_routes(fabric, sets, flows)) {
    const std::uint32_t t = fabric.tor_of(b.endpoint);
    if (b.switch_index != open_s || t != open_t) {
      open_s = b.switch_index;
      open_t = t;
      at = open_block(fabric, open_s, open_t);
    }
    per_endpoint_[at + fabric.tor_position(b.endpoint)] = b.link;
  }
}

// Turns a (switch, ToR) code into a per-endpoint block holding what the code
// decided for each endpoint; returns the block's start.
std::uint32_t StaticTable::open_block(const Fabric& fabric, std::uint32_t s, std::uint32_t t) {
  std::uint32_t& c = code(s, t);
  const auto at = static_cast<std::uint32_t>(per_endpoint_.size());
  for (std::uint32_t e : fabric.tor_endpoints(t)) per_endpoint_.push_back(decode(c, e));
  c = kPerEndpoint | at;
  return at;
}

// Explicit routes, TOML rows then CSV rows, checked and resolved to links.
StaticTable::Rows StaticTable::resolve(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario) {
  Rows rows;
  auto add = [&](const StaticRoute& r, const std::string* file) {
    SourcePos where = r.where;
    if (file) where.file = *file;
    const NodeId sw = fabric.find(r.switch_name);
    if (sw == kNone || !fabric.is_switch(sw))
      throw InputError(where, "static route on unknown switch '" + r.switch_name + "'");
    const NodeId nh = fabric.find(r.next_hop);
    if (nh == kNone) throw InputError(where, "static route via unknown node '" + r.next_hop + "'");
    // A destination's own leaf delivers to it without a table, so a host as
    // next hop could only carry flows into a host that is not theirs.
    if (!fabric.is_switch(nh))
      throw InputError(where, "static route on '" + r.switch_name + "' via host '" + r.next_hop +
                                  "': a next hop is a switch");
    hashing::IpAddr prefix = r.prefix;
    std::uint8_t prefix_len = r.prefix_len;
    if (!r.dst_host.empty()) {
      const NodeId d = fabric.find(r.dst_host);
      if (d == kNone || fabric.is_switch(d))
        throw InputError(where, "static route to unknown host '" + r.dst_host + "' (a destination is an " +
                                    "endpoint name, an address or a prefix)");
      prefix = fabric.node(d).ip;
      prefix_len = static_cast<std::uint8_t>(prefix.bits());
    }
    check_family(fabric, prefix, where, "destination");
    if (r.src_len > 0) check_family(fabric, r.src, where, "source");
    const auto out = fabric.out_links(sw);
    const auto l = std::find_if(out.begin(), out.end(),
                                [&](LinkId x) { return fabric.link(x).to == nh && !sets.is_down(x); });
    if (l == out.end())
      throw InputError(where, "static route on '" + r.switch_name + "' via '" + r.next_hop +
                                  "': no working link between them");
    where.field.clear();
    rows.push_back({fabric.switch_index(sw), Route{prefix, r.src, prefix_len, r.src_len, *l, where}});
  };
  for (const StaticRoute& r : scenario.routes) add(r, nullptr);
  if (scenario.routes_file)
    for (const StaticRoute& r : scenario.routes_file->rows) add(r, &scenario.routes_file->path);
  return rows;
}

void StaticTable::index(Rows rows, std::uint32_t switches) {
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  routes_begin_.assign(switches + 1, 0);
  for (auto& [s, r] : rows) {
    ++routes_begin_[s + 1];
    if (r.src_len > 0) {
      if (has_src_routes_.empty()) has_src_routes_.assign(switches, 0);
      has_src_routes_[s] = 1;
    }
    routes_.push_back(std::move(r));
  }
  for (std::uint32_t s = 0; s < switches; ++s) routes_begin_[s + 1] += routes_begin_[s];
}

// Per switch and ToR: the longest route covering every endpoint of the ToR
// decides for the whole ToR; routes covering only some force a per-endpoint
// block. Source-qualified routes are looked up per packet instead.
void StaticTable::compile(const Fabric& fabric, std::uint32_t switches) {
  // Each ToR's lowest and highest endpoint address: the plan's block, or with
  // a topology file's own addresses whatever they span (then ranges of two
  // ToRs may interleave, and every ToR is checked against every route).
  std::vector<hashing::IpAddr> lo(tors_), hi(tors_);
  for (std::uint32_t t = 0; t < tors_; ++t) {
    const auto members = fabric.tor_endpoints(t);
    lo[t] = hi[t] = endpoint_ip_[members[0]];
    for (const std::uint32_t e : members) {
      lo[t] = std::min(lo[t], endpoint_ip_[e]);
      hi[t] = std::max(hi[t], endpoint_ip_[e]);
    }
  }
  const bool planned = !fabric.has_explicit_addresses();
  std::vector<const Route*> full(tors_);
  std::vector<std::vector<const Route*>> partial(tors_);
  std::vector<std::uint32_t> touched;
  for (std::uint32_t s = 0; s < switches; ++s) {
    for (std::uint32_t i = routes_begin_[s]; i < routes_begin_[s + 1]; ++i) {
      const Route& r = routes_[i];
      if (r.src_len > 0) continue;
      const hashing::IpAddr& first = r.dst;
      const hashing::IpAddr last = last_of(r.dst, r.dst_len);
      auto t = planned ? static_cast<std::uint32_t>(std::lower_bound(hi.begin(), hi.end(), first) - hi.begin()) : 0;
      for (; t < tors_ && (!planned || lo[t] <= last); ++t) {
        if (!planned && (lo[t] > last || hi[t] < first)) continue;
        if (full[t] == nullptr && partial[t].empty()) touched.push_back(t);
        if (lo[t] >= first && hi[t] <= last) {
          if (full[t] == nullptr || r.dst_len > full[t]->dst_len) full[t] = &r;
        } else {
          partial[t].push_back(&r);
        }
      }
    }
    for (std::uint32_t t : touched) {
      const std::uint8_t full_len = full[t] ? full[t]->dst_len : 0;
      const bool finer = std::any_of(partial[t].begin(), partial[t].end(),
                                     [&](const Route* r) { return full[t] == nullptr || r->dst_len > full_len; });
      if (!finer) {
        code(s, t) = full[t]->link;
      } else {
        const std::uint32_t c = code(s, t);
        const std::uint32_t at =
            (c != kNone && (c & kKindMask) == kPerEndpoint) ? (c & ~kKindMask) : open_block(fabric, s, t);
        for (std::uint32_t i = 0; i < fabric.tor_endpoints(t).size(); ++i) {
          const Route* best = full[t];
          for (const Route* r : partial[t])
            if (matches(endpoint_ip_[fabric.tor_endpoints(t)[i]], r->dst, r->dst_len) &&
                (best == nullptr || r->dst_len > best->dst_len))
              best = r;
          if (best) per_endpoint_[at + i] = best->link;
        }
      }
      full[t] = nullptr;
      partial[t].clear();
    }
    touched.clear();
  }
}

const StaticTable::Route* StaticTable::best_route(std::uint32_t s, const hashing::IpAddr& dst_ip,
                                                  const hashing::IpAddr& src_ip) const {
  if (routes_begin_.empty()) return nullptr;
  const Route* best = nullptr;
  for (std::uint32_t i = routes_begin_[s]; i < routes_begin_[s + 1]; ++i) {
    const Route& r = routes_[i];
    if (!matches(dst_ip, r.dst, r.dst_len) || !matches(src_ip, r.src, r.src_len)) continue;
    if (best == nullptr || r.dst_len > best->dst_len || (r.dst_len == best->dst_len && r.src_len > best->src_len))
      best = &r;
  }
  return best;
}

std::optional<SourcePos> StaticTable::route_origin(std::uint32_t s, std::uint32_t endpoint,
                                                   const hashing::IpAddr& src_ip) const {
  if (endpoint_ip_.empty()) return std::nullopt;
  const Route* r = best_route(s, endpoint_ip_[endpoint], src_ip);
  if (r == nullptr) return std::nullopt;
  return r->where;
}

}  // namespace ecmpsim
