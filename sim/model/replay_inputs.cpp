// Reading replay's inputs from the file system: the one place `replay`
// touches files before the pure readers of workloads/traces/.
#include <algorithm>
#include <filesystem>

#include "sim/base/csv_reader.h"
#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/text.h"
#include "sim/model/replay.h"
#include "workloads/traces/pytorch_trace.h"
#include "workloads/traces/side_inputs.h"

namespace ecmpsim {

namespace {

// The files named, a directory standing for its files ending in one of `ends` (sorted).
std::vector<std::string> expand(const std::vector<std::string>& paths, const char* flag,
                                std::initializer_list<std::string_view> ends) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) {
      out.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(p, ec)) {
      const std::string name = e.path().string();
      if (e.is_regular_file() && std::ranges::any_of(ends, [&](std::string_view s) { return name.ends_with(s); }))
        found.push_back(name);
    }
    if (ec) throw InputError({p, 0, 0, flag}, "cannot list the directory: " + ec.message());
    if (found.empty()) throw InputError({p, 0, 0, flag}, "the directory holds no trace files");
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

std::string read_text(const std::string& path, const char* flag, const ByteLimit& limit) {
  return workloads::gunzip_if_compressed(read_input_file(path, {path, 0, 0, flag}, "file", limit), path, limit);
}

}  // namespace

workloads::CommTrace load_comm_trace(const ReplayInputs& inputs) {
  const ByteLimit limit{inputs.max_bytes, "max_capture_bytes"};
  std::vector<workloads::RankTrace> ranks;
  for (const std::string& f : expand(inputs.traces, "TRACE", {".json", ".json.gz"}))
    ranks.push_back(workloads::read_pytorch_trace(read_text(f, "TRACE", limit), f));
  std::vector<workloads::InspectorRecord> inspector;
  for (const std::string& f : expand(inputs.inspector, "--inspector", {".log", ".json", ".jsonl"})) {
    auto records = workloads::read_inspector(read_text(f, "--inspector", limit), f);
    inspector.insert(inspector.end(), records.begin(), records.end());
  }
  std::vector<workloads::TraceGroup> groups;
  for (const std::string& f : expand(inputs.flight_recorder, "--flight-recorder", {".json"})) {
    auto found = workloads::read_flight_recorder(read_text(f, "--flight-recorder", limit), f);
    groups.insert(groups.end(), found.begin(), found.end());
  }
  return workloads::join_traces(std::move(ranks), groups, inspector);
}

void read_rank_map(const std::string& path, ReplayOptions& options, std::uint64_t max_bytes) {
  const std::string text =
      read_input_file(path, {{}, 0, 0, "--rank-map"}, "rank map '" + path + "'", {max_bytes, "max_capture_bytes"});
  CsvReader reader(text);
  options.rank_map_file = path;
  for (CsvLine line; reader.next(line);) {
    const auto at = [&](std::size_t i, const char* field) {
      return SourcePos{path, line.number, i < line.fields.size() ? line.fields[i].column : line.end_column, field};
    };
    if (line.fields.size() != 3) throw InputError(at(0, ""), "expected rank,node,gpu");
    if (line.fields[0].text == "rank") continue;  // the header
    const auto rank = parse_uint_text(line.fields[0].text, 1u << 24);
    if (!rank) throw InputError(at(0, "rank"), "not a rank: '" + printable(line.fields[0].text) + "'");
    const auto gpu = parse_uint_text(line.fields[2].text, 1023);
    if (!gpu) throw InputError(at(2, "gpu"), "not a GPU index in [0, 1023]: '" + printable(line.fields[2].text) + "'");
    if (line.fields[1].text.empty()) throw InputError(at(1, "node"), "empty node name");
    if (options.rank_map.size() <= *rank) options.rank_map.resize(*rank + 1);
    if (options.rank_map[*rank]) throw InputError(at(0, "rank"), "rank " + std::to_string(*rank) + " is mapped twice");
    options.rank_map[*rank] = std::pair{std::string(line.fields[1].text), static_cast<std::uint32_t>(*gpu)};
  }
}

}  // namespace ecmpsim
