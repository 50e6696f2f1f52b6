#include "sim/flows_import.h"

#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include "sim/parse.h"
#include "workloads/import_csv.h"
#include "workloads/import_pcap.h"

namespace ecmpsim {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0, {}}, "cannot open the flows file");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw InputError({path, 0, 0, {}}, "cannot read the flows file");
  return std::move(s).str();
}

workloads::ImportedFlows take(workloads::ImportResult r) {
  if (auto* e = std::get_if<workloads::ImportError>(&r)) throw to_input_error(*e);
  return std::get<workloads::ImportedFlows>(std::move(r));
}

SourcePos pos_of(const workloads::ImportedFlows& im, const workloads::ImportPos& p, const std::string& field) {
  SourcePos s{im.files.at(p.file), p.line, p.column, field};
  if (p.record > 0) s.field = "record " + std::to_string(p.record) + ": " + field;
  return s;
}

}  // namespace

InputError to_input_error(const workloads::ImportError& e) {
  std::string field = e.field;
  if (e.record > 0) field = "record " + std::to_string(e.record) + (field.empty() ? "" : ": " + field);
  return InputError({e.file, e.line, e.column, field}, e.message);
}

workloads::ImportedFlows import_flows(const FlowsImportOptions& o, const Spec& /*spec*/) {
  using workloads::FlowsFormat;
  std::optional<FlowsFormat> format;
  if (!o.format.empty()) {
    format = workloads::parse_flows_format(o.format);
    if (!format) throw InputError({{}, 0, 0, "--flows-format"}, "unknown format '" + o.format + "' (csv, rdma or pcap)");
  }
  if (o.flows.empty()) throw InputError({{}, 0, 0, "--flows"}, "no file given");
  const std::string bytes = read_file(o.flows);
  if (!format) format = workloads::detect_flows_format(std::string_view(bytes).substr(0, 64), o.flows);
  if (*format == FlowsFormat::Rdma)
    throw InputError({o.flows, 0, 0, {}}, "rdma import is not available in this build");
  if (!o.rdma_map.empty()) throw InputError({{}, 0, 0, "--rdma-map"}, "only used with rdma flows");
  if (*format == FlowsFormat::Pcap) return take(workloads::parse_pcap(bytes, o.flows));
  return take(workloads::parse_flows_csv(bytes, o.flows));
}

workloads::Flows place_imported_flows(const workloads::ImportedFlows& im, const Fabric& fabric) {
  std::unordered_map<std::uint32_t, std::uint32_t> endpoint_of_ip;
  const auto endpoints = fabric.endpoints();
  for (std::uint32_t e = 0; e < endpoints.size(); ++e) endpoint_of_ip.emplace(fabric.node(endpoints[e]).ip, e);
  workloads::Flows flows = im.flows;
  auto lookup = [&](std::uint32_t ip, const workloads::ImportPos& where, const std::string& field) {
    const auto it = endpoint_of_ip.find(ip);
    if (it == endpoint_of_ip.end())
      throw InputError(pos_of(im, where, field), format_ipv4(ip) + " is not the address of any endpoint in the fabric");
    return it->second;
  };
  for (std::size_t f = 0; f < flows.size(); ++f) {
    flows.src[f] = lookup(flows.src_ip[f], im.src_where[f], im.src_field);
    flows.dst[f] = lookup(flows.dst_ip[f], im.dst_where[f], im.dst_field);
    if (flows.src[f] == flows.dst[f])
      throw InputError(pos_of(im, im.dst_where[f], im.dst_field),
                       "flow from " + format_ipv4(flows.src_ip[f]) + " to itself never enters the network");
  }
  return flows;
}

}  // namespace ecmpsim
