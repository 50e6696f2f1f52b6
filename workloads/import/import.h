// Flows imported from a real cluster instead of generated: what every importer
// reads and returns. Importers are pure functions of the input bytes (no file
// system, no printing) so they can be fuzzed; their table, with how each
// format is recognised, is importers.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

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
  std::string format;  // its importer's name (importers.h)
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

// One input file: its name, for messages (and, for rdma dumps, the host the
// map names), and its bytes.
struct ImportFile {
  std::string name;
  std::string_view text;
};

// What an importer is given besides its files; its row in importers.h says
// which of these it takes.
struct ImportOptions {
  ImportFile map;                // rdma: the host,ifname,ip map
  std::uint64_t flow_bytes = 1;  // rdma: bytes per QP pair, half each way
  // rdma: skip a QP whose partner is in none of the dumps (counted in a
  // note) instead of failing.
  bool allow_unpaired = false;
};

}  // namespace ecmpsim::workloads
