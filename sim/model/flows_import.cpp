#include "sim/model/flows_import.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <unordered_map>

#include "sim/base/input_file.h"
#include "sim/base/text.h"
#include "workloads/import/import_csv.h"
#include "workloads/import/import_pcap.h"
#include "workloads/import/import_rdma.h"

namespace ecmpsim {

namespace {

workloads::ImportedFlows take(workloads::ImportResult r) {
  if (auto* e = std::get_if<InputError>(&r)) throw std::move(*e);
  return std::get<workloads::ImportedFlows>(std::move(r));
}

SourcePos pos_of(const workloads::ImportedFlows& im, const workloads::ImportPos& p, const std::string& field) {
  return {im.files.at(p.file), p.line, p.column, field, p.record};
}

}  // namespace

workloads::ImportedFlows import_flows(const FlowsImportOptions& o, const Spec& spec) {
  namespace fs = std::filesystem;
  using workloads::FlowsFormat;
  std::optional<FlowsFormat> format;
  if (!o.format.empty()) {
    format = workloads::parse_flows_format(o.format);
    if (!format) throw InputError({{}, 0, 0, "--flows-format"}, "unknown format '" + o.format + "' (csv, rdma or pcap)");
  }
  if (o.flows.empty()) throw InputError({{}, 0, 0, "--flows"}, "no file given");
  // A directory, or several comma-separated files, can only be rdma dumps (one per host).
  std::vector<std::string> paths;
  std::error_code ec;
  if (fs::is_directory(o.flows, ec)) {
    if (format && *format != FlowsFormat::Rdma)
      throw InputError({{}, 0, 0, "--flows"}, "a directory is only read for rdma dumps");
    format = FlowsFormat::Rdma;
    for (const auto& entry : fs::directory_iterator(o.flows, ec))
      if ((entry.path().extension() == ".json" || entry.path().extension() == ".txt") && entry.is_regular_file(ec))
        paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    if (paths.empty()) throw InputError({o.flows, 0, 0, {}}, "no *.json or *.txt rdma dumps in this directory");
  } else {
    std::string_view rest = o.flows;
    for (;;) {
      const auto comma = rest.find(',');
      paths.emplace_back(rest.substr(0, comma));
      if (paths.back().empty()) throw InputError({{}, 0, 0, "--flows"}, "empty file name in '" + o.flows + "'");
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::vector<std::string> texts;
  const ByteLimit capture{spec.limits.max_capture_bytes, "--max-capture-bytes"};
  for (const auto& p : paths) {
    // Checked before reading: the whole file is held in memory while parsed.
    const auto size = fs::file_size(p, ec);
    if (!ec && size > spec.limits.max_capture_bytes)
      throw InputError({p, 0, 0, "--max-capture-bytes"},
                       "the file has " + over_limit(size, "bytes", spec.limits.max_capture_bytes));
    texts.push_back(read_input_file(p, {p, 0, 0, {}}, "the flows file", capture));
  }
  if (!format) format = workloads::detect_flows_format(std::string_view(texts[0]).substr(0, 64), paths[0]);
  if (*format != FlowsFormat::Rdma) {
    if (paths.size() > 1) throw InputError({{}, 0, 0, "--flows"}, "several files are only read for rdma dumps");
    auto rdma_only = [](const char* flag) { return InputError({{}, 0, 0, flag}, "only used with rdma flows"); };
    if (!o.rdma_map.empty()) throw rdma_only("--rdma-map");
    if (o.flow_bytes) throw rdma_only("--flow-bytes");
    if (o.allow_unpaired) throw rdma_only("--allow-unpaired");
    if (*format == FlowsFormat::Pcap) return take(workloads::parse_pcap(texts[0], paths[0]));
    return take(workloads::parse_flows_csv(texts[0], paths[0]));
  }
  if (o.rdma_map.empty())
    throw InputError({{}, 0, 0, "--rdma-map"}, "required for rdma flows (a CSV host,ifname,ip)");
  const std::string map = read_input_file(o.rdma_map, {o.rdma_map, 0, 0, {}}, "the flows file", capture);
  std::vector<workloads::RdmaDump> dumps;
  for (std::size_t i = 0; i < paths.size(); ++i) dumps.push_back({paths[i], texts[i]});
  workloads::RdmaOptions ropt;
  // rdma shows no traffic counts: by default each QP pair carries the first job's message size.
  const Bytes fallback = spec.jobs.empty() ? JobSpec{}.message : spec.jobs.front().message;
  ropt.flow_bytes = (o.flow_bytes ? *o.flow_bytes : fallback).value;
  ropt.allow_unpaired = o.allow_unpaired;
  return take(workloads::parse_rdma(dumps, map, o.rdma_map, ropt));
}

workloads::Flows place_imported_flows(const workloads::ImportedFlows& im, const Fabric& fabric,
                                      const Limits& limits) {
  if (im.flows.size() > limits.max_flows)
    throw InputError({im.files.empty() ? std::string() : im.files.front(), 0, 0, "--max-flows"},
                     "the import holds " + over_limit(im.flows.size(), "flows", limits.max_flows));
  std::unordered_map<hashing::IpAddr, std::uint32_t, hashing::IpAddrHash> endpoint_of_ip;
  const auto endpoints = fabric.endpoints();
  for (std::uint32_t e = 0; e < endpoints.size(); ++e) endpoint_of_ip.emplace(fabric.node(endpoints[e]).ip, e);
  workloads::Flows flows = im.flows;
  auto lookup = [&](const hashing::IpAddr& ip, const workloads::ImportPos& where, const std::string& field) {
    if (ip.family() != fabric.family())
      throw InputError(pos_of(im, where, field),
                       std::string(hashing::family_name(ip.family())) + " address " + hashing::format_ip(ip) +
                           " but the fabric's address plan is " + std::string(hashing::family_name(fabric.family())) +
                           " (set fabric.address_base to a prefix of the flows' family)");
    const auto it = endpoint_of_ip.find(ip);
    if (it == endpoint_of_ip.end())
      throw InputError(pos_of(im, where, field), hashing::format_ip(ip) + " is not the address of any endpoint in the fabric");
    return it->second;
  };
  for (std::size_t f = 0; f < flows.size(); ++f) {
    flows.src[f] = lookup(flows.src_ip[f], im.src_where[f], im.src_field);
    flows.dst[f] = lookup(flows.dst_ip[f], im.dst_where[f], im.dst_field);
    if (flows.src[f] == flows.dst[f])
      throw InputError(pos_of(im, im.dst_where[f], im.dst_field),
                       "flow from " + hashing::format_ip(flows.src_ip[f]) + " to itself never enters the network");
  }
  return flows;
}

}  // namespace ecmpsim
