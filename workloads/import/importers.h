// The importers of `run --flows` as one table: each row a flows format with
// the detector that recognises its files, the parser that reads them and the
// options it takes, so format detection, the command line's choices and
// import_flows() (sim/model/flows_import.cpp) read columns instead of chains
// of ifs. Adding an importer is its file pair (import_NAME.h and .cpp: a
// parser that is a pure function of the bytes, and its detector), its value
// here and its row in importers.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "workloads/import/import.h"

namespace ecmpsim::workloads {

enum class FlowsFormat : std::uint8_t { Csv, Rdma, Pcap };

struct Importer {
  FlowsFormat value;
  std::string_view name;  // what --flows-format takes
  std::string_view doc;   // what the files hold
  // Recognises the format from a file's first kDetectBytes bytes; null when
  // only the name or the fallback tells.
  bool (*detect)(std::string_view head) noexcept = nullptr;
  // The format of a file whose bytes no detector recognises, by how its name ends.
  std::array<std::string_view, 3> extensions = {};
  // What its JSON looks like, for the error on JSON that no detector
  // recognises; empty when it reads no JSON.
  std::string_view json = {};
  // The format of a file that nothing else recognises (one row).
  bool fallback = false;
  // Reads several files at once, one per host: a comma-separated list, or the
  // files of a directory whose names end so; empty when it reads one file.
  std::array<std::string_view, 2> dump_extensions = {};
  // The options it takes besides the files: other formats refuse them.
  std::string_view map = {};    // a map file it requires, what it holds; empty when none
  bool flow_bytes = false;      // the bytes each connection carries (its files count none)
  bool allow_unpaired = false;  // skip, rather than refuse, records without a partner
  ImportResult (*parse)(std::span<const ImportFile> files, const ImportOptions& options) = nullptr;
};

// The bytes detection reads from the front of a file: enough for a pcap magic
// and for the first QP object of an rdma JSON dump, even pretty-printed.
inline constexpr std::size_t kDetectBytes = 4096;

// The rows, in enum order.
std::span<const Importer> importers() noexcept;
const Importer& importer(FlowsFormat f) noexcept;
std::optional<FlowsFormat> parse_flows_format(std::string_view name) noexcept;

// The format of a file from its first bytes (`head`: up to kDetectBytes),
// by the first row whose detector recognises them; else, unless they are JSON
// (first non-blank byte '[' or '{'), by the name's ending; else the fallback
// row's. nullopt for JSON that no detector recognises: no importer reads it.
std::optional<FlowsFormat> detect_flows_format(std::string_view head, std::string_view name) noexcept;

}  // namespace ecmpsim::workloads
