#include "workloads/import/import_csv.h"

#include <array>
#include <optional>

#include "sim/base/csv_reader.h"
#include "sim/base/text.h"
#include "workloads/roce.h"

namespace ecmpsim::workloads {

namespace {

enum Column : std::uint8_t { SrcIp, DstIp, Proto, Sport, Dport, Bytes, Lqpn, Rqpn, Job, Channel, FlowLabel, kColumns };
constexpr std::size_t kRequired = Bytes + 1;
constexpr std::array<std::string_view, kColumns> kNames{"src_ip", "dst_ip", "proto",   "sport", "dport",     "bytes",
                                                        "lqpn",   "rqpn",   "job",     "channel", "flow_label"};

std::string known_columns() {
  std::string s;
  for (auto n : kNames) s += (s.empty() ? "" : ",") + std::string(n);
  return s;
}

[[noreturn]] void fail(const std::string& file, std::uint32_t line, std::uint32_t column, std::string field,
                       std::string message) {
  throw InputError({file, line, column, std::move(field)}, message);
}

std::uint64_t number(const std::string& file, std::uint32_t line, const CsvField& f, Column c,
                     std::uint64_t min, std::uint64_t max, const char* expected) {
  const auto v = parse_uint_text(f.text, max);
  if (!v || *v < min)
    fail(file, line, f.column, std::string(kNames[c]),
         std::string("expected ") + expected + ", found '" + printable(f.text) + "'");
  return *v;
}

// The IPv6 flow label: the column when given (20 bits), else the one the
// kernel derives from the QP pair (rdma_calc_flow_label) when both QP numbers
// are known, else 0. An IPv4 flow has none: a non-zero label is an error.
std::uint32_t csv_flow_label(const std::string& name, std::uint32_t n, const CsvField* f, const FlowRecord& r) {
  if (f) {
    const auto v = static_cast<std::uint32_t>(number(name, n, *f, FlowLabel, 0, 0xFFFFF, "a 20-bit flow label"));
    if (v != 0 && r.src_ip.is_v4())
      fail(name, n, f->column, "flow_label", "an IPv4 flow has no flow label (found " + printable(f->text) + ")");
    return v;
  }
  return !r.src_ip.is_v4() && r.lqpn != 0 && r.rqpn != 0 ? rdma_flow_label(r.lqpn, r.rqpn) : 0;
}

ImportedFlows parse(std::string_view bytes, const std::string& name) {
  CsvReader reader(bytes);
  CsvLine line;
  if (!reader.next(line))
    fail(name, 0, 0, {}, "no header line (expected the columns src_ip,dst_ip,proto,sport,dport,bytes)");
  std::array<int, kColumns> index;
  index.fill(-1);
  for (std::size_t i = 0; i < line.fields.size(); ++i) {
    const CsvField& f = line.fields[i];
    std::size_t c = 0;
    while (c < kColumns && kNames[c] != f.text) ++c;
    if (c == kColumns)
      fail(name, line.number, f.column, "header",
           "unknown column '" + printable(f.text) + "' (known: " + known_columns() + ")");
    if (index[c] >= 0) fail(name, line.number, f.column, "header", "duplicate column '" + printable(f.text) + "'");
    index[c] = static_cast<int>(i);
  }
  for (std::size_t c = 0; c < kRequired; ++c)
    if (index[c] < 0) fail(name, line.number, 0, "header", "missing column '" + std::string(kNames[c]) + "'");
  const std::size_t width = line.fields.size();

  std::optional<hashing::Family> family;
  ImportedFlows out;
  out.format = "csv";
  out.files.push_back(name);
  while (reader.next(line)) {
    const std::uint32_t n = line.number;
    if (line.fields.size() != width)
      fail(name, n, line.fields.size() < width ? line.end_column : line.fields[width].column, {},
           "expected " + std::to_string(width) + " fields, found " + std::to_string(line.fields.size()));
    auto field = [&](Column c) -> const CsvField* { return index[c] < 0 ? nullptr : &line.fields[index[c]]; };
    FlowRecord r;
    for (Column c : {SrcIp, DstIp}) {
      const CsvField& f = *field(c);
      const auto ip = hashing::parse_ip(f.text);
      if (!ip) fail(name, n, f.column, std::string(kNames[c]), "invalid IP address '" + printable(f.text) + "'");
      if (!family) family = ip->family();
      if (ip->family() != *family)
        fail(name, n, f.column, std::string(kNames[c]),
             std::string(hashing::family_name(ip->family())) + " address '" + printable(f.text) + "' among " +
                 std::string(hashing::family_name(*family)) + " flows (one address family per file)");
      (c == SrcIp ? r.src_ip : r.dst_ip) = *ip;
    }
    const CsvField& proto = *field(Proto);
    if (proto.text == "udp")
      r.proto = 17;
    else if (proto.text == "tcp")
      r.proto = 6;
    else
      r.proto = static_cast<std::uint8_t>(number(name, n, proto, Proto, 0, 255, "a protocol number 0..255, udp or tcp"));
    r.sport = static_cast<std::uint16_t>(number(name, n, *field(Sport), Sport, 0, 65535, "a port 0..65535"));
    r.dport = static_cast<std::uint16_t>(number(name, n, *field(Dport), Dport, 0, 65535, "a port 0..65535"));
    r.bytes = number(name, n, *field(Bytes), Bytes, 1, ~0ULL, "a byte count >= 1");
    if (const CsvField* f = field(Lqpn)) r.lqpn = static_cast<std::uint32_t>(number(name, n, *f, Lqpn, 0, 0xFFFFFF, "a 24-bit QP number"));
    if (const CsvField* f = field(Rqpn)) r.rqpn = static_cast<std::uint32_t>(number(name, n, *f, Rqpn, 0, 0xFFFFFF, "a 24-bit QP number"));
    if (const CsvField* f = field(Job)) r.job = static_cast<std::uint16_t>(number(name, n, *f, Job, 0, 65535, "a job number 0..65535"));
    if (const CsvField* f = field(Channel))
      r.channel = static_cast<std::uint16_t>(number(name, n, *f, Channel, 0, 65535, "a channel number 0..65535"));
    r.flow_label = csv_flow_label(name, n, field(FlowLabel), r);
    out.flows.push_back(r);
    out.src_where.push_back({0, n, field(SrcIp)->column, 0});
    out.dst_where.push_back({0, n, field(DstIp)->column, 0});
  }
  if (out.flows.size() == 0) fail(name, 0, 0, {}, "no flows after the header line");
  return out;
}

}  // namespace

ImportResult parse_flows_csv(std::string_view bytes, const std::string& name) {
  try {
    return parse(bytes, name);
  } catch (InputError& e) {
    return std::move(e);
  }
}

}  // namespace ecmpsim::workloads
