#include "sim/fit/observations.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <optional>
#include <tuple>

#include "hashing/suggest.h"
#include "sim/base/error.h"
#include "sim/base/parse.h"
#include "sim/base/csv_reader.h"

namespace ecmpsim::fit {
namespace {

enum class Column : std::uint8_t { Src, Dst, Proto, Sport, Dport, Member, DstQp, FlowLabel, InPort, Switch };

struct ColumnInfo {
  Column column;
  std::string_view name;
  std::uint64_t max;  // numeric columns
  bool required;
};

constexpr std::array<ColumnInfo, 10> kColumns{{{Column::Src, "src", 0, true},
                                               {Column::Dst, "dst", 0, true},
                                               {Column::Proto, "proto", 255, true},
                                               {Column::Sport, "sport", 65535, true},
                                               {Column::Dport, "dport", 65535, true},
                                               {Column::Member, "member", 65535, true},
                                               {Column::DstQp, "dst_qp", 0xFFFFFF, false},
                                               {Column::FlowLabel, "flow_label", 0xFFFFF, false},
                                               {Column::InPort, "in_port", 65535, false},
                                               {Column::Switch, "switch", 0, false}}};

[[noreturn]] void fail(const std::string& name, std::size_t line, std::size_t column, const std::string& why) {
  throw InputError({name, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column), {}}, why);
}

std::vector<const ColumnInfo*> parse_header(const CsvLine& line, const std::string& name) {
  std::vector<const ColumnInfo*> cols;
  std::vector<std::string_view> known;
  for (const auto& c : kColumns) known.push_back(c.name);
  for (const auto& entry : line.fields) {
    const std::string_view cell = entry.text;
    const std::size_t col = entry.column;
    const auto it = std::find_if(kColumns.begin(), kColumns.end(), [&](const ColumnInfo& c) { return c.name == cell; });
    if (it == kColumns.end())
      fail(name, 1, col, "unknown column '" + std::string(cell) + "'" + did_you_mean(cell, known));
    if (std::find(cols.begin(), cols.end(), &*it) != cols.end())
      fail(name, 1, col, "column '" + std::string(cell) + "' appears twice");
    cols.push_back(&*it);
  }
  for (const auto& c : kColumns)
    if (c.required && std::find(cols.begin(), cols.end(), &c) == cols.end())
      fail(name, 1, 1, "missing column '" + std::string(c.name) +
                           "' (the header needs src,dst,proto,sport,dport,member; optional dst_qp,flow_label,in_port,switch)");
  return cols;
}

// Stores one numeric or address cell; false with `why` set when malformed.
bool store(const ColumnInfo& c, std::string_view v, Observation& o, std::string& why) {
  if (c.column == Column::Src || c.column == Column::Dst) {
    const auto ip = hashing::parse_ip(v);
    if (!ip) {
      why = "invalid IP address '" + std::string(v) + "'";
      return false;
    }
    (c.column == Column::Src ? o.tuple.src_ip : o.tuple.dst_ip) = *ip;
    return true;
  }
  std::uint64_t n = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (v.empty() || ec != std::errc{} || p != v.data() + v.size() || n > c.max) {
    why = "invalid " + std::string(c.name) + " '" + std::string(v) + "' (0.." + std::to_string(c.max) + ")";
    return false;
  }
  switch (c.column) {
    case Column::Proto: o.tuple.proto = static_cast<std::uint8_t>(n); break;
    case Column::Sport: o.tuple.sport = static_cast<std::uint16_t>(n); break;
    case Column::Dport: o.tuple.dport = static_cast<std::uint16_t>(n); break;
    case Column::Member: o.member = static_cast<std::uint32_t>(n); break;
    case Column::DstQp: o.tuple.dst_qp = static_cast<std::uint32_t>(n); break;
    case Column::FlowLabel: o.tuple.flow_label = static_cast<std::uint32_t>(n); break;
    case Column::InPort: o.tuple.in_port = static_cast<std::uint16_t>(n); break;
    default: break;
  }
  return true;
}

std::vector<hashing::Field> file_fields(const std::vector<const ColumnInfo*>& cols) {
  std::vector<hashing::Field> f = hashing::default_fields();
  auto has = [&](Column c) {
    return std::any_of(cols.begin(), cols.end(), [c](const ColumnInfo* i) { return i->column == c; });
  };
  if (has(Column::FlowLabel)) f.push_back(hashing::Field::FlowLabel);
  if (has(Column::InPort)) f.push_back(hashing::Field::InPort);
  if (has(Column::DstQp)) f.push_back(hashing::Field::DstQp);
  return f;
}

// One address family per file (one switch's key has one length): the first
// address of the other family is the error, naming the line that set it.
void check_family(const Observation& o, std::optional<std::pair<hashing::Family, std::size_t>>& first,
                  const std::string& name, std::size_t line_no,
                  const std::vector<CsvField>& row,
                  const std::vector<const ColumnInfo*>& cols) {
  if (!first) first.emplace(o.tuple.src_ip.family(), line_no);
  for (std::size_t i = 0; i < cols.size(); ++i) {
    if (cols[i]->column != Column::Src && cols[i]->column != Column::Dst) continue;
    const hashing::IpAddr& ip = cols[i]->column == Column::Src ? o.tuple.src_ip : o.tuple.dst_ip;
    if (ip.family() != first->first)
      fail(name, line_no, row[i].column,
           std::string(cols[i]->name) + ": " + std::string(hashing::family_name(ip.family())) + " address '" +
               std::string(row[i].text) + "' among " + std::string(hashing::family_name(first->first)) +
               " observations (from line " + std::to_string(first->second) + "; one address family per file)");
  }
}

// The index of the row's switch in `names`, added on first sight.
std::uint32_t switch_index(std::vector<std::string>& names, const CsvField& cell, const std::string& name,
                           std::size_t line_no) {
  if (cell.text.empty()) fail(name, line_no, cell.column, "empty switch name");
  const auto it = std::find(names.begin(), names.end(), cell.text);
  if (it != names.end()) return static_cast<std::uint32_t>(it - names.begin());
  names.emplace_back(cell.text);
  return static_cast<std::uint32_t>(names.size() - 1);
}

}  // namespace

std::string whose_prefix(const Observations& obs) { return obs.whose.empty() ? std::string() : obs.whose + ": "; }

Observations read_observations(std::string_view text, const std::string& name, std::string_view only_switch) {
  Observations obs;
  obs.source = name;
  std::vector<const ColumnInfo*> cols;
  std::optional<std::pair<hashing::Family, std::size_t>> first_family;  // and its line
  CsvReader reader(text, CsvStyle::Strict);
  CsvLine line;
  if (reader.next(line)) {
    cols = parse_header(line, name);
    const bool switch_column =
        std::any_of(cols.begin(), cols.end(), [](const ColumnInfo* c) { return c->column == Column::Switch; });
    if (!only_switch.empty() && !switch_column) fail(name, 1, 1, option_ref("switch") + " given but the file has no 'switch' column");
  }
  while (reader.next(line)) {
    const std::size_t line_no = line.number;
    const auto& row = line.fields;
    if (row.size() != cols.size())
      fail(name, line_no, row.size() < cols.size() ? line.end_column : row[cols.size()].column,
           "expected " + std::to_string(cols.size()) + " fields as the header names, found " + std::to_string(row.size()));
    Observation o;
    o.line = static_cast<std::uint32_t>(line_no);
    bool keep = true;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      if (cols[i]->column == Column::Switch) {
        keep = only_switch.empty() || row[i].text == only_switch;
        o.sw = switch_index(obs.switch_names, row[i], name, line_no);
        continue;
      }
      std::string why;
      if (!store(*cols[i], row[i].text, o, why)) fail(name, line_no, row[i].column, why);
    }
    check_family(o, first_family, name, line_no, row, cols);
    if (keep) obs.rows.push_back(o);
  }
  const std::size_t line_no = reader.lines_read();
  if (line_no == 0) fail(name, 1, 1, "empty input, expected a header line src,dst,proto,sport,dport,member");
  if (obs.rows.empty())
    fail(name, line_no, 1, only_switch.empty() ? "no observations after the header"
                                               : "no observations of switch '" + std::string(only_switch) + "'");
  obs.fields = file_fields(cols);
  return obs;
}

void check_observations(const Observations& obs, std::uint32_t members) {
  using Key = std::tuple<hashing::IpAddr, hashing::IpAddr, std::uint8_t, std::uint16_t, std::uint16_t, std::uint32_t,
                         std::uint32_t, std::uint16_t>;
  std::map<Key, const Observation*> seen;
  for (const Observation& o : obs.rows) {
    if (o.member >= members)
      fail(obs.source, o.line, 1,
           whose_prefix(obs) + "member " + std::to_string(o.member) + " is not below " + option_ref("members") + " " +
               std::to_string(members));
    const auto& t = o.tuple;
    const Key k{t.src_ip, t.dst_ip, t.proto, t.sport, t.dport, t.dst_qp, t.flow_label, t.in_port};
    const auto [it, fresh] = seen.emplace(k, &o);
    if (!fresh && it->second->member != o.member)
      fail(obs.source, o.line, 1,
           whose_prefix(obs) + "contradiction: this flow left on member " + std::to_string(o.member) + " here and on member " +
               std::to_string(it->second->member) + " at line " + std::to_string(it->second->line) +
               "; one hash cannot send a flow two ways");
  }
}

}  // namespace ecmpsim::fit
