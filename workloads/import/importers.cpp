#include "workloads/import/importers.h"

#include "sim/base/named.h"

#include "workloads/import/import_csv.h"
#include "workloads/import/import_pcap.h"
#include "workloads/import/import_rdma.h"

namespace ecmpsim::workloads {

namespace {

constexpr std::array<Importer, 3> kImporters{{
    {.value = FlowsFormat::Csv,
     .name = "csv",
     .doc = "a header line naming the columns, then one flow per line",
     .fallback = true,
     .parse = [](std::span<const ImportFile> files, const ImportOptions&) {
       return parse_flows_csv(files[0].text, files[0].name);
     }},
    {.value = FlowsFormat::Rdma,
     .name = "rdma",
     .doc = "the QP tables of `rdma resource show qp`, one dump per host, as JSON or text",
     .detect = is_rdma_dump,
     .extensions = {".json"},
     .json = "rdma -j resource show qp prints an array of QP objects with the keys ifname and lqpn",
     .dump_extensions = {".json", ".txt"},
     .map = "a CSV host,ifname,ip",
     .flow_bytes = true,
     .allow_unpaired = true,
     .parse = parse_rdma},
    {.value = FlowsFormat::Pcap,
     .name = "pcap",
     .doc = "a packet capture, pcap or pcapng",
     .detect = is_capture,
     .extensions = {".pcap", ".pcapng", ".cap"},
     .parse = [](std::span<const ImportFile> files, const ImportOptions&) {
       return parse_pcap(files[0].text, files[0].name);
     }},
}};

// In enum order, one fallback. (Whether each row has a parser is not a
// constant expression under the sanitizers: tests/workloads/importers_test.cpp
// checks it.)
static_assert([] {
  std::size_t fallbacks = 0;
  for (std::size_t i = 0; i < kImporters.size(); ++i) {
    if (static_cast<std::size_t>(kImporters[i].value) != i) return false;
    fallbacks += kImporters[i].fallback;
  }
  return fallbacks == 1;
}());

bool ends_with_one_of(std::string_view name, std::span<const std::string_view> endings) noexcept {
  for (const std::string_view e : endings)
    if (!e.empty() && name.ends_with(e)) return true;
  return false;
}

bool json_text(std::string_view head) noexcept {
  const auto first = head.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (head[first] == '[' || head[first] == '{');
}

}  // namespace

std::span<const Importer> importers() noexcept { return kImporters; }

const Importer& importer(FlowsFormat f) noexcept { return kImporters[static_cast<std::size_t>(f)]; }

std::optional<FlowsFormat> parse_flows_format(std::string_view name) noexcept {
  return parse_name(kImporters, name);
}

std::optional<FlowsFormat> detect_flows_format(std::string_view head, std::string_view name) noexcept {
  head = head.substr(0, kDetectBytes);
  for (const Importer& row : kImporters)
    if (row.detect && row.detect(head)) return row.value;
  if (json_text(head)) return std::nullopt;
  for (const Importer& row : kImporters)
    if (ends_with_one_of(name, row.extensions)) return row.value;
  for (const Importer& row : kImporters)
    if (row.fallback) return row.value;
  return std::nullopt;
}

}  // namespace ecmpsim::workloads
