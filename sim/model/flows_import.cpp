#include "sim/model/flows_import.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <unordered_map>

#include "sim/base/input_file.h"
#include "sim/base/text.h"
#include "workloads/import/importers.h"

namespace ecmpsim {

namespace {

using workloads::Importer;

workloads::ImportedFlows take(workloads::ImportResult r) {
  if (auto* e = std::get_if<InputError>(&r)) throw std::move(*e);
  return std::get<workloads::ImportedFlows>(std::move(r));
}

SourcePos pos_of(const workloads::ImportedFlows& im, const workloads::ImportPos& p, const std::string& field) {
  return {im.files.at(p.file), p.line, p.column, field, p.record};
}

// The names of the importers whose row has `column`, as prose: "rdma", "csv, rdma or pcap".
std::string formats_with(bool (*column)(const Importer&)) {
  std::vector<std::string> names;
  for (const Importer& row : workloads::importers())
    if (column(row)) names.emplace_back(row.name);
  return or_list(names);
}

bool reads_many(const Importer& row) { return !row.dump_extensions[0].empty(); }

// The files of a directory of dumps, one per host, read by `format` (when
// not given, the importer that reads several files).
std::vector<std::string> directory_dumps(const std::string& dir, const Importer*& format) {
  namespace fs = std::filesystem;
  if (format && !reads_many(*format))
    throw InputError(option_at("flows"), "a directory is only read for " + formats_with(reads_many) + " dumps");
  for (const Importer& row : workloads::importers())
    if (!format && reads_many(row)) format = &row;
  std::vector<std::string> endings, paths;
  for (const std::string_view e : format->dump_extensions)
    if (!e.empty()) endings.push_back("*" + std::string(e));
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (std::find(endings.begin(), endings.end(), "*" + entry.path().extension().string()) != endings.end() &&
        entry.is_regular_file(ec))
      paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  if (paths.empty())
    throw InputError({dir, 0, 0, {}}, "no " + or_list(endings) + " " + std::string(format->name) + " dumps in this directory");
  return paths;
}

// The files --flows names: a directory's dumps, or one or more comma-separated files.
std::vector<std::string> flows_paths(const std::string& flows, const Importer*& format) {
  std::error_code ec;
  if (std::filesystem::is_directory(flows, ec)) return directory_dumps(flows, format);
  std::vector<std::string> paths;
  std::string_view rest = flows;
  for (;;) {
    const auto comma = rest.find(',');
    paths.emplace_back(rest.substr(0, comma));
    if (paths.back().empty()) throw InputError(option_at("flows"), "empty file name in '" + flows + "'");
    if (comma == std::string_view::npos) return paths;
    rest.remove_prefix(comma + 1);
  }
}

// The options given must be ones the format takes (its row's columns).
void check_options(const FlowsImportOptions& o, const Importer& format) {
  struct Use {
    const char* flag;
    bool given;
    bool (*takes)(const Importer&);
  };
  const Use uses[] = {{"rdma_map", !o.rdma_map.empty(), [](const Importer& r) { return !r.map.empty(); }},
                      {"flow_bytes", o.flow_bytes.has_value(), [](const Importer& r) { return r.flow_bytes; }},
                      {"allow_unpaired", o.allow_unpaired, [](const Importer& r) { return r.allow_unpaired; }}};
  for (const Use& u : uses)
    if (u.given && !u.takes(format))
      throw InputError(option_at(u.flag), "only used with " + formats_with(u.takes) + " flows");
  if (!format.map.empty() && o.rdma_map.empty())
    throw InputError(option_at("rdma_map"),
                     "required for " + std::string(format.name) + " flows (" + std::string(format.map) + ")");
}

// What no importer reads: JSON that no detector recognised.
InputError unread_json(const std::string& path) {
  std::string readers;
  for (const Importer& row : workloads::importers())
    if (!row.json.empty()) readers += (readers.empty() ? "" : "; ") + std::string(row.name) + ": " + std::string(row.json);
  return InputError({path, 0, 0, {}}, "JSON that no flows format reads (" + readers + ")");
}

}  // namespace

workloads::ImportedFlows import_flows(const FlowsImportOptions& o, const Spec& spec) {
  const Importer* format = nullptr;
  if (!o.format.empty()) {
    const auto f = workloads::parse_flows_format(o.format);
    if (!f)
      throw InputError(option_at("flows_format"),
                       "unknown format '" + o.format + "' (" + formats_with([](const Importer&) { return true; }) + ")");
    format = &workloads::importer(*f);
  }
  if (o.flows.empty()) throw InputError(option_at("flows"), "no file given");
  const std::vector<std::string> paths = flows_paths(o.flows, format);
  std::vector<std::string> texts;
  const ByteLimit capture{spec.limits.max_capture_bytes, "max_capture_bytes"};
  for (const auto& p : paths) {
    // Checked before reading: the whole file is held in memory while parsed.
    std::error_code ec;
    const auto size = std::filesystem::file_size(p, ec);
    if (!ec && size > spec.limits.max_capture_bytes)
      throw InputError(option_at("max_capture_bytes", p),
                       "the file has " + over_limit(size, "bytes", spec.limits.max_capture_bytes));
    texts.push_back(read_input_file(p, {p, 0, 0, {}}, "the flows file", capture));
  }
  if (!format) {
    const auto f = workloads::detect_flows_format(texts[0], paths[0]);
    if (!f) throw unread_json(paths[0]);
    format = &workloads::importer(*f);
  }
  if (paths.size() > 1 && !reads_many(*format))
    throw InputError(option_at("flows"), "several files are only read for " + formats_with(reads_many) + " dumps");
  check_options(o, *format);
  workloads::ImportOptions options;
  std::string map;
  if (!format->map.empty()) {
    map = read_input_file(o.rdma_map, {o.rdma_map, 0, 0, {}}, "the flows file", capture);
    options.map = {o.rdma_map, map};
  }
  // The files count no bytes: by default each connection carries the first job's message size.
  const Bytes fallback = spec.jobs.empty() ? JobSpec{}.message : spec.jobs.front().message;
  options.flow_bytes = (o.flow_bytes ? *o.flow_bytes : fallback).value;
  options.allow_unpaired = o.allow_unpaired;
  std::vector<workloads::ImportFile> files;
  for (std::size_t i = 0; i < paths.size(); ++i) files.push_back({paths[i], texts[i]});
  return take(format->parse(files, options));
}

workloads::Flows place_imported_flows(const workloads::ImportedFlows& im, const Fabric& fabric,
                                      const Limits& limits) {
  if (im.flows.size() > limits.max_flows)
    throw InputError(option_at("max_flows", im.files.empty() ? std::string() : im.files.front()),
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
