// Flows imported from a real cluster instead of generated: what every importer
// returns, and how the input format is recognised. Importers are pure functions
// of the input bytes (no file system, no printing) so they can be fuzzed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hashing/named.h"
#include "sim/base/error.h"
#include "workloads/flow.h"

namespace ecmpsim::workloads {

// Where a value was read: a line and column of a text file, or a record
// (packet) of a capture. Indexes into ImportedFlows::files.
struct ImportPos {
  std::uint32_t file = 0;
  std::uint32_t line = 0;    // 1-based; 0 for captures
  std::uint32_t column = 0;  // 1-based; 0 when unknown
  std::uint32_t record = 0;  // 1-based packet record; 0 for text
};

struct ImportedFlows {
  std::string format;  // "csv", "rdma" or "pcap"
  // Flows with src_ip/dst_ip set; the endpoint indices src/dst are left for
  // the simulation to fill from the fabric's address plan.
  Flows flows;
  std::vector<std::string> files;  // every file read; ImportPos::file indexes it
  std::string map;                 // rdma: the host map, the last of `files` but not a dump
  // Per flow, where its source and destination addresses were read, so an
  // address the fabric lacks can be reported at its origin.
  std::vector<ImportPos> src_where, dst_where;
  std::string src_field = "src_ip", dst_field = "dst_ip";
  // One-line remarks for the user (e.g. how many packets were skipped).
  std::vector<std::string> notes;
};

// Bad input is an InputError located like ImportPos, the file named and the
// field the column, key or header the problem is in (when it helps).
using ImportResult = std::variant<ImportedFlows, InputError>;

enum class FlowsFormat : std::uint8_t { Csv, Rdma, Pcap };

inline constexpr std::array<Named<FlowsFormat>, 3> kFlowsFormats{
    {{FlowsFormat::Csv, "csv"}, {FlowsFormat::Rdma, "rdma"}, {FlowsFormat::Pcap, "pcap"}}};
constexpr std::optional<FlowsFormat> parse_flows_format(std::string_view name) noexcept {
  return parse_name(kFlowsFormats, name);
}
constexpr std::string_view flows_format_name(FlowsFormat f) noexcept { return name_of(kFlowsFormats, f); }

// From the first bytes of a file: pcap (any byte order, µs or ns) and pcapng
// by magic number; as rdma, JSON (first non-blank byte '[' or '{') or the text
// of `rdma resource show qp` (first line "link DEV/PORT ...", or a shell
// prompt naming rdma); otherwise by the name's extension (.pcap .pcapng .cap,
// .json), else CSV.
FlowsFormat detect_flows_format(std::string_view head, std::string_view name) noexcept;

}  // namespace ecmpsim::workloads
