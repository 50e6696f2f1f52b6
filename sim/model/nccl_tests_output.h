// Reads what nccl-tests prints (src/common.cu): the "# nThread ..." header,
// the "#  Rank N Group G Pid P on HOST device D" lines, the column header and
// one row per size with out-of-place and in-place time, algbw and busbw
// (with or without the root column; #wrong or the older float error), and
// NCCL_DEBUG=INFO lines when present (NCCL version, nRanks, nNodes). The
// calibrate command fits the host parameters on it (sim/model/calibrate.h).
// Anything that is not one collective's table is an InputError at its line.
// A file may hold several runs (a sweep's log): nccl_tests_runs lists them
// and one is read at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/nccl_cost.h"

namespace ecmpsim {

// One result row; [0] out-of-place, [1] in-place.
struct NcclTestsRow {
  std::uint64_t size = 0;   // bytes (nccl-tests' size column)
  std::uint64_t count = 0;  // elements
  double time_us[2] = {0, 0};
  double algbw_gbs[2] = {0, 0};
  double busbw_gbs[2] = {0, 0};
  std::uint32_t line = 0;
};

struct NcclTestsTable {
  std::string source;
  NcclColl coll = NcclColl::AllReduce;
  std::string test;          // "all_reduce_perf", as named or inferred
  std::string type;          // nccl-tests' -d: "float", "bfloat16", ...
  std::uint32_t ranks = 0;   // from the Rank lines, else NCCL's nRanks; 0 unknown
  std::uint32_t nodes = 0;   // hosts of the Rank lines, else NCCL's nNodes; 0 unknown
  std::string nccl_version;  // "2.18.1" from "NCCL INFO NCCL version", else ""
  std::vector<NcclTestsRow> rows;  // in the order printed, sizes distinct
};

// The fewest sizes a fit takes: one per fitted parameter (sim/model/calibrate.h).
inline constexpr std::size_t kMinCalibrationSizes = 3;

// One nccl-tests invocation in a file: from its first header line ("#
// nccl-tests version", "# Collective test starting" or "# nThread"; the
// file's first line for the first run) to the line before the next run's.
struct NcclTestsRun {
  std::uint32_t first_line = 0, last_line = 0;
  // "all_reduce_perf, 16 ranks on 2 nodes, 8 B to 8.00 GiB (31 sizes)", or
  // why the run cannot be read.
  std::string summary;
};

// The runs of `text`: one for a file of one run.
std::vector<NcclTestsRun> nccl_tests_runs(const std::string& path, std::string_view text);

// Parses `text` read from `path`; InputError (path:line) for text that is
// not nccl-tests output, mixes collectives or types, repeats a size, or
// has fewer than kMinCalibrationSizes sizes. `run` (1-based) reads that run
// of nccl_tests_runs; 0 needs a file of one run, and a file of several is
// refused with the list of its runs and their lines.
NcclTestsTable parse_nccl_tests(const std::string& path, std::string_view text, std::uint32_t run = 0);

}  // namespace ecmpsim
