#include "workloads/import/import_rdma.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "sim/base/csv_reader.h"
#include "sim/base/text.h"
#include "workloads/import/import_rdma_text.h"
#include "workloads/roce.h"

namespace ecmpsim::workloads {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(std::string file, std::uint32_t line, std::uint32_t column, std::uint32_t record,
                       std::string field, std::string message) {
  throw InputError({std::move(file), line, column, std::move(field), record}, message);
}

struct Qp {
  std::uint32_t dump = 0;
  std::uint32_t record = 0;  // 1-based position in its dump
  std::uint32_t line = 0;    // text dumps: the QP's line
  std::string ifname;
  std::uint32_t lqpn = 0;
  std::uint32_t rqpn = 0;
  bool has_rqpn = false;
  bool rc_rts = false;
  std::string type, state;  // as rdma prints them, for the note on skipped QPs
};

// Where a QP was read, for errors: its line in a text dump, its record in JSON.
[[noreturn]] void fail_at(const std::string& file, const Qp& q, std::string message) {
  fail(file, q.line, q.line ? 1 : 0, q.line ? 0 : q.record, {}, std::move(message));
}

std::string place(const std::string& file, const Qp& q) {
  return file + (q.line ? " line " + std::to_string(q.line) : " record " + std::to_string(q.record));
}

std::string describe(const Qp& q) {
  return "QP " + q.ifname + " lqpn " + std::to_string(q.lqpn) +
         (q.has_rqpn ? " rqpn " + std::to_string(q.rqpn) : std::string());
}

struct MapEntry {
  hashing::IpAddr ip;
  ImportPos where;
};

std::string_view file_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view stem(std::string_view path) {
  const std::string_view f = file_name(path);
  const auto dot = f.rfind('.');
  return dot == std::string_view::npos || dot == 0 ? f : f.substr(0, dot);
}

// (dump index, ifname) -> address, from the map file (file index `map_file`).
std::map<std::pair<std::uint32_t, std::string>, MapEntry> read_map(std::span<const ImportFile> dumps,
                                                                  std::string_view text, const std::string& name,
                                                                  std::uint32_t map_file) {
  static constexpr std::string_view kHeader[] = {"host", "ifname", "ip"};
  CsvReader reader(text);
  CsvLine line;
  if (!reader.next(line)) fail(name, 0, 0, 0, {}, "no header line (expected host,ifname,ip)");
  if (line.fields.size() != 3 || line.fields[0].text != kHeader[0] || line.fields[1].text != kHeader[1] ||
      line.fields[2].text != kHeader[2])
    fail(name, line.number, 1, 0, "header", "expected the columns host,ifname,ip");
  std::map<std::pair<std::uint32_t, std::string>, MapEntry> out;
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> seen_line;
  std::optional<hashing::Family> family;
  while (reader.next(line)) {
    if (line.fields.size() != 3)
      fail(name, line.number, line.fields.size() < 3 ? line.end_column : line.fields[3].column, 0, {},
           "expected 3 fields, found " + std::to_string(line.fields.size()));
    const CsvField &host = line.fields[0], &ifname = line.fields[1], &ip = line.fields[2];
    const auto addr = hashing::parse_ip(ip.text);
    if (!addr) fail(name, line.number, ip.column, 0, "ip", "invalid IP address '" + printable(ip.text) + "'");
    if (!family) family = addr->family();
    if (addr->family() != *family)
      fail(name, line.number, ip.column, 0, "ip",
           std::string(hashing::family_name(addr->family())) + " address '" + printable(ip.text) + "' among " +
               std::string(hashing::family_name(*family)) + " addresses (one address family per map)");
    if (ifname.text.empty()) fail(name, line.number, ifname.column, 0, "ifname", "empty device name");
    std::vector<std::uint32_t> matches;
    for (std::uint32_t d = 0; d < dumps.size(); ++d) {
      const std::string_view n = dumps[d].name;
      if (host.text == n || host.text == file_name(n) || host.text == stem(n)) matches.push_back(d);
    }
    if (matches.size() > 1)
      fail(name, line.number, host.column, 0, "host",
           "'" + printable(host.text) + "' matches both " + dumps[matches[0]].name + " and " + dumps[matches[1]].name);
    // Entries for hosts without a dump are allowed: one map can serve a whole cluster.
    if (matches.empty()) continue;
    const std::pair<std::uint32_t, std::string> key{matches[0], std::string(ifname.text)};
    if (const auto it = seen_line.find(key); it != seen_line.end())
      fail(name, line.number, ifname.column, 0, "ifname",
           "device " + printable(ifname.text) + " of " + printable(host.text) + " already mapped on line " +
               std::to_string(it->second));
    seen_line.emplace(key, line.number);
    out.emplace(key, MapEntry{*addr, {map_file, line.number, ip.column, 0}});
  }
  return out;
}

std::uint32_t uint_key(const json& o, const char* key, const std::string& file, std::uint32_t record,
                       std::uint32_t max) {
  const auto it = o.find(key);
  if (it == o.end()) fail(file, 0, 0, record, key, "missing key");
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() > max)
    fail(file, 0, 0, record, key, "expected an unsigned integer <= " + std::to_string(max));
  return static_cast<std::uint32_t>(it->get<std::uint64_t>());
}

std::string string_key(const json& o, const char* key, const std::string& file, std::uint32_t record) {
  const auto it = o.find(key);
  if (it == o.end()) fail(file, 0, 0, record, key, "missing key");
  if (!it->is_string()) fail(file, 0, 0, record, key, "expected a string");
  return it->get<std::string>();
}

// Line and column of the byte at `offset` (0-based) in `text`.
std::pair<std::uint32_t, std::uint32_t> line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const auto before = text.substr(0, offset);
  const auto nl = before.rfind('\n');
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const auto column = nl == std::string_view::npos ? offset + 1 : offset - nl;
  return {static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column)};
}

// nlohmann's DOM builder, keeping the byte position of the first error: number overflows
// (out_of_range) carry no position in the exception itself.
struct PositionedDom : nlohmann::detail::json_sax_dom_parser<json> {
  using json_sax_dom_parser::json_sax_dom_parser;
  std::size_t offset = 0;  // 0-based, of the offending character or number
  std::string cause;
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    // `position` counts the characters read; a syntax error is the last of them,
    // an out-of-range number is the whole token just read.
    const std::size_t back = std::is_same_v<Exception, nlohmann::detail::out_of_range> ? token.size() : 1;
    offset = position < back ? 0 : position - back;
    // Messages start "[json.exception.KIND.N] " and parse errors go on with
    // "parse error at line L, column C: "; keep the cause only.
    cause = e.what();
    if (const auto bracket = cause.find("] "); bracket != std::string::npos) cause = cause.substr(bracket + 2);
    if (cause.starts_with("parse error"))
      if (const auto colon = cause.find(": "); colon != std::string::npos) cause = cause.substr(colon + 2);
    return false;
  }
};

bool is_json(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '[' || text[first] == '{');
}

// The keys of the first JSON object of a dump, when it sits inside arrays
// only (rdma -j prints an array of QP objects, some versions one array per
// device). A SAX handler: it stops at that object's end, and a head cut
// short of it still yields the keys read so far.
struct FirstQpKeys {
  bool ifname = false, lqpn = false;
  std::size_t open = 0;          // containers open
  std::size_t object_level = 0;  // `open` inside the first object; 0 before it

  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_array(std::size_t) { return ++open > 0; }
  bool end_array() { return --open, true; }
  bool start_object(std::size_t) {
    if (object_level == 0) {
      if (open == 0) return false;  // a top-level object: no dump of QPs
      object_level = open + 1;
    }
    return ++open > 0;
  }
  bool key(json::string_t& k) {
    if (open == object_level) {
      ifname = ifname || k == "ifname";
      lqpn = lqpn || k == "lqpn";
    }
    return true;
  }
  bool end_object() { return open-- != object_level; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

void read_text_dump(const ImportFile& dump, std::uint32_t index, std::vector<Qp>& out) {
  auto parsed = parse_rdma_text(dump.text, dump.name);
  if (auto* e = std::get_if<InputError>(&parsed)) throw std::move(*e);
  for (RdmaQp& r : std::get<std::vector<RdmaQp>>(parsed)) {
    const bool rc_rts = r.type == "RC" && r.state == "RTS";
    Qp q{index, r.record, r.line, std::move(r.ifname), r.lqpn, r.rqpn, r.has_rqpn, rc_rts, std::move(r.type),
         std::move(r.state)};
    if (q.rc_rts && !q.has_rqpn) fail_at(dump.name, q, describe(q) + ": RC QP in RTS state without rqpn");
    out.push_back(std::move(q));
  }
}

// The dump with each line that is a prompt running rdma ("$ rdma -j res show
// qp", pasted above the JSON) or the bare prompt after it blanked: spaces keep
// every error's line and column.
std::string blank_prompts(std::string_view text) {
  std::string out(text);
  for (std::string_view rest = text; !rest.empty();) {
    const auto start = static_cast<std::size_t>(rest.data() - text.data());
    const std::string_view line = take_line(rest);
    if (rdma_prompt(line) || bare_prompt(line)) std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(start), line.size(), ' ');
  }
  return out;
}

void read_dump(const ImportFile& dump, std::uint32_t index, std::vector<Qp>& out) {
  const std::string text = blank_prompts(dump.text);
  if (!is_json(text)) return read_text_dump(dump, index, out);
  json doc;
  PositionedDom dom(doc, false);
  if (!json::sax_parse(text, &dom)) {
    const auto [line, column] = line_column(text, dom.offset);
    // iproute2 5.5 to 6.6 close each QP's object before -dd's driver fields
    // (newline_indent() called newline(), which closed it): never valid JSON.
    if (text.find("\"drv_") != std::string_view::npos)
      fail(dump.name, line, column, 0, {},
           "invalid JSON from rdma -dd (iproute2 before 6.7 prints the driver fields outside each QP's "
           "object): drop -dd and run rdma -j resource show qp again");
    fail(dump.name, line, column, 0, {}, "invalid JSON: " + dom.cause);
  }
  if (!doc.is_array()) fail(dump.name, 0, 0, 0, {}, "expected a JSON array of QPs (rdma resource show qp -j)");
  // Some iproute2 versions print one array per device: accept arrays of arrays.
  std::vector<const json*> qps;
  for (const json& e : doc) {
    if (e.is_array())
      for (const json& q : e) qps.push_back(&q);
    else
      qps.push_back(&e);
  }
  for (std::uint32_t r = 1; r <= qps.size(); ++r) {
    const json& o = *qps[r - 1];
    if (!o.is_object()) fail(dump.name, 0, 0, r, {}, "expected a JSON object describing one QP");
    Qp q;
    q.dump = index;
    q.record = r;
    q.ifname = string_key(o, "ifname", dump.name, r);
    q.lqpn = uint_key(o, "lqpn", dump.name, r, 0xFFFFFF);
    q.has_rqpn = o.contains("rqpn");
    if (q.has_rqpn) q.rqpn = uint_key(o, "rqpn", dump.name, r, 0xFFFFFF);
    q.type = string_key(o, "type", dump.name, r);
    q.state = string_key(o, "state", dump.name, r);
    q.rc_rts = q.type == "RC" && q.state == "RTS";
    if (q.rc_rts && !q.has_rqpn) fail(dump.name, 0, 0, r, {}, describe(q) + ": RC QP in RTS state without rqpn");
    out.push_back(std::move(q));
  }
}

using PairIndex = std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::size_t>>;

// The index of QP i's partner: the QP whose (lqpn, rqpn) is i's reversed.
// None (when allowed) or several are errors naming the QP.
std::optional<std::size_t> find_partner(std::span<const ImportFile> dumps, const std::vector<Qp>& qps,
                                        const PairIndex& by_pair, std::size_t i, bool allow_unpaired) {
  const Qp& q = qps[i];
  std::vector<std::size_t> partners;
  if (const auto it = by_pair.find({q.rqpn, q.lqpn}); it != by_pair.end())
    for (std::size_t p : it->second)
      if (p != i) partners.push_back(p);
  if (partners.empty()) {
    if (allow_unpaired) return std::nullopt;
    fail_at(dumps[q.dump].name, q,
            describe(q) + " has no partner (no QP with lqpn " + std::to_string(q.rqpn) + " and rqpn " +
                std::to_string(q.lqpn) + " in the dumps)");
  }
  if (partners.size() > 1) {
    const Qp &a = qps[partners[0]], &b = qps[partners[1]];
    fail_at(dumps[q.dump].name, q,
            describe(q) + " has several partners: " + place(dumps[a.dump].name, a) + " and " +
                place(dumps[b.dump].name, b));
  }
  return partners[0];
}

// Connected QP types other than RC that send data once in RTS (IBA vol. 1:
// the unreliable connected transport; an XRC initiator, which sends to XRC
// target QPs): their traffic is real but makes no flow here, so they are
// named apart from QPs that carry none of a job's data (GSI, UD, RC not in RTS).
constexpr std::array<std::string_view, 2> kDataNotImported{"UC", "XRC_INI"};

// The notes on one dump's QPs that are not RC in RTS, counted by type and
// state: "1 GSI in RTS, 1 RC in INIT, 1 UD in RTS".
void note_skipped(const std::string& dump, const std::vector<const Qp*>& skipped, std::vector<std::string>& notes) {
  std::map<std::pair<std::string, std::string>, std::uint64_t> plain, data;
  for (const Qp* q : skipped) {
    const bool sends = q->state == "RTS" && std::find(kDataNotImported.begin(), kDataNotImported.end(), q->type) !=
                                                kDataNotImported.end();
    ++(sends ? data : plain)[{q->type, q->state}];
  }
  auto kinds = [](const auto& counts) {
    std::string s;
    for (const auto& [kind, n] : counts)
      s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + kind.first + " in " + kind.second;
    return s;
  };
  auto total = [](const auto& counts) {
    std::uint64_t n = 0;
    for (const auto& c : counts) n += c.second;
    return n;
  };
  if (!data.empty()) {
    const std::uint64_t n = total(data);
    notes.push_back(dump + ": " + plural(n, "QP") + (n == 1 ? " carries" : " carry") +
                    " data but no flow is made of it (only RC QPs in RTS state are imported): " + kinds(data));
  }
  if (!plain.empty())
    notes.push_back(dump + ": skipped " + plural(total(plain), "QP") + " not RC in RTS state: " + kinds(plain));
}

ImportedFlows parse(std::span<const ImportFile> dumps, const ImportOptions& opt) {
  const std::string& map_name = opt.map.name;
  ImportedFlows out;
  out.format = "rdma";
  for (const auto& d : dumps) out.files.push_back(d.name);
  out.files.push_back(map_name);
  out.map = map_name;
  out.src_field = out.dst_field = "ip";
  const auto map = read_map(dumps, opt.map.text, map_name, static_cast<std::uint32_t>(dumps.size()));

  std::vector<Qp> qps;
  for (std::uint32_t d = 0; d < dumps.size(); ++d) read_dump(dumps[d], d, qps);
  // (lqpn, rqpn) -> QPs, to find each QP's partner: the one whose pair is reversed.
  PairIndex by_pair;
  for (std::size_t i = 0; i < qps.size(); ++i)
    if (qps[i].has_rqpn) by_pair[{qps[i].lqpn, qps[i].rqpn}].push_back(i);

  std::vector<std::vector<const Qp*>> other(dumps.size());
  std::uint64_t unpaired = 0, loopback = 0;
  auto where = [&](const Qp& q) -> const MapEntry& {
    const auto it = map.find({q.dump, q.ifname});
    if (it == map.end())
      fail_at(dumps[q.dump].name, q,
              describe(q) + ": " + map_name + " maps no address to device " + q.ifname + " of this host");
    return it->second;
  };
  for (std::size_t i = 0; i < qps.size(); ++i) {
    const Qp& q = qps[i];
    if (!q.rc_rts) {
      other[q.dump].push_back(&q);
      continue;
    }
    const auto partner = find_partner(dumps, qps, by_pair, i, opt.allow_unpaired);
    if (!partner) {
      ++unpaired;
      continue;
    }
    const Qp& p = qps[*partner];
    if (p.dump == q.dump && p.ifname == q.ifname) {
      ++loopback;
      continue;
    }
    const MapEntry &src = where(q), &dst = where(p);
    FlowRecord r;
    r.src_ip = src.ip;
    r.dst_ip = dst.ip;
    r.sport = linux_roce_sport(q.lqpn, q.rqpn);
    if (!r.src_ip.is_v4()) r.flow_label = rdma_flow_label(q.lqpn, q.rqpn);
    r.lqpn = q.lqpn;
    r.rqpn = q.rqpn;
    // The pair's traffic counted once: its two directions share flow_bytes,
    // the QP read first taking the odd byte (each direction at least one).
    r.bytes = std::max<std::uint64_t>(1, share(opt.flow_bytes, 2, i < *partner ? 0 : 1));
    out.flows.push_back(r);
    out.src_where.push_back(src.where);
    out.dst_where.push_back(dst.where);
  }
  for (std::size_t d = 0; d < dumps.size(); ++d)
    note_skipped(dumps[d].name, other[d], out.notes);
  if (unpaired > 0) out.notes.push_back("rdma: skipped " + plural(unpaired, "QP") + " without a partner in the dumps");
  if (loopback > 0)
    out.notes.push_back("rdma: skipped " + plural(loopback, "QP") + " connected to a QP of the same device");
  if (out.flows.size() == 0)
    fail(dumps.empty() ? map_name : dumps[0].name, 0, 0, 0, {},
         "no flows: none of the " + plural(qps.size(), "QP") + " in " + plural(dumps.size(), "dump") +
             " is an RC QP in RTS state with a partner on another device");
  return out;
}

}  // namespace

bool is_rdma_dump(std::string_view head) noexcept {
  if (rdma_text_head(head)) return true;
  if (!is_json(head)) return false;
  FirstQpKeys keys;
  // strict = false: the head is cut anywhere; the handler stops the parse.
  json::sax_parse(head.begin(), head.end(), &keys, nlohmann::json::input_format_t::json, false);
  return keys.ifname && keys.lqpn;
}

ImportResult parse_rdma(std::span<const ImportFile> dumps, const ImportOptions& options) {
  try {
    return parse(dumps, options);
  } catch (InputError& e) {
    return std::move(e);
  }
}

}  // namespace ecmpsim::workloads
