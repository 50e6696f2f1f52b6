// The nccl-tests reader on the formats nccl-tests prints (src/common.cu):
// 2.13+ with the root column and #wrong, the older layout without root and
// with a float error, mpirun --tag-output prefixes, NCCL_DEBUG=INFO lines,
// all_gather's per-rank count. The rows below are real ones (nccl issue
// #1411, nccl-tests issue #232: their sizes and times) in those layouts; the
// refusals each name the line and the cause.
#include <doctest/doctest.h>

#include <string>

#include "sim/base/error.h"
#include "sim/model/nccl_tests_output.h"

namespace nccl_tests_output_test {

using namespace ecmpsim;

namespace {

const std::string kHeader =
    "# nccl-tests version 2.13.8 nccl-headers=21903 nccl-library=21903\n"
    "# Collective test starting: all_reduce_perf\n"
    "# nThread 1 nGpus 1 minBytes 2097152 maxBytes 8388608 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
    "validation: 1 graph: 0\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid  28307 on      gpu59 device  0 [0x16] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid  28308 on      gpu60 device  0 [0x16] NVIDIA H100 80GB HBM3\n"
    "#\n"
    "#                                                              out-of-place                       in-place          \n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n";

const std::string kRows =
    "     2097152        524288     float     sum      -1    113.2   18.53   18.53      0    93.35   22.46   22.46      0\n"
    "     4194304       1048576     float     sum      -1    154.4   27.16   27.16      0    153.3   27.37   27.37      0\n"
    "     8388608       2097152     float     sum      -1    231.4   36.24   36.24      0    227.8   36.83   36.83      0\n";

const std::string kTail = "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 27.8 \n#\n";

std::string error_of(const std::string& text) {
  try {
    parse_nccl_tests("t.txt", text);
  } catch (const InputError& e) {
    return e.describe();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("nccl-tests 2.13+: header, Rank lines, both column groups") {
  const NcclTestsTable t = parse_nccl_tests("t.txt", kHeader + kRows + kTail);
  CHECK(t.coll == NcclColl::AllReduce);
  CHECK(t.test == "all_reduce_perf");
  CHECK(t.type == "float");
  CHECK(t.ranks == 2);
  CHECK(t.nodes == 2);
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0].size == 2097152);
  CHECK(t.rows[0].count == 524288);
  CHECK(t.rows[0].time_us[0] == 113.2);
  CHECK(t.rows[0].time_us[1] == 93.35);
  CHECK(t.rows[2].busbw_gbs[0] == 36.24);
  CHECK(t.rows[2].algbw_gbs[1] == 36.83);
  CHECK(t.rows[1].line == 13);
}

TEST_CASE("the older layout: no root column, a float error, no test name") {
  const std::string text =
      "# nThread 1 nGpus 8 minBytes 2097152 maxBytes 268435456 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
      "#\n# Using devices\n"
      "#\n"
      "#                                                       out-of-place                       in-place\n"
      "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
      "#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
      "     2097152        524288     float     sum    156.7   13.38   25.09  0e+00    135.7   15.46   28.98  0e+00\n"
      "    16777216       4194304     float     sum    303.7   55.24  103.58  0e+00    298.3   56.24  105.44  0e+00\n"
      "   268435456      67108864     float     sum   3378.2   79.46  148.99  0e+00   3371.0   79.63  149.31  0e+00\n";
  const NcclTestsTable t = parse_nccl_tests("t.txt", text);
  CHECK(t.coll == NcclColl::AllReduce);
  CHECK(t.test == "all_reduce_perf");
  CHECK(t.ranks == 0);  // no Rank lines, no NCCL INFO: unknown (the config's job says)
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[2].time_us[0] == 3378.2);
  CHECK(t.rows[2].busbw_gbs[1] == 149.31);
}

TEST_CASE("mpirun --tag-output prefixes and NCCL_DEBUG=INFO lines") {
  std::string text;
  text += "node1:1234:1300 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n";
  text += "node1:1234:1300 [0] NCCL INFO comm 0x55 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n";
  text += "[1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
  for (std::size_t b = 0, e; (e = kRows.find('\n', b)) != std::string::npos; b = e + 1)
    text += "[1,0]<stdout>:" + kRows.substr(b, e - b + 1);
  const NcclTestsTable t = parse_nccl_tests("t.txt", text);
  CHECK(t.nccl_version == "2.18.1");
  CHECK(t.ranks == 16);  // no Rank lines: NCCL's nRanks
  CHECK(t.nodes == 2);
  CHECK(t.rows.size() == 3);
}

TEST_CASE("all_gather: a per-rank count, redop none; ranks from size / (count x 4)") {
  const std::string text =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "           0             0     float    none      -1     0.12    0.00    0.00      0     0.12    0.00    0.00      0\n"
      "     1048576         16384     float    none      -1    40.10   26.15   24.52      0    39.80   26.35   24.70      0\n"
      "     2097152         32768     float    none      -1    60.20   34.84   32.66      0    59.90   35.01   32.82      0\n"
      "     4194304         65536     float    none      -1    99.00   42.37   39.72      0    98.70   42.50   39.84      0\n";
  const NcclTestsTable t = parse_nccl_tests("t.txt", text);
  CHECK(t.coll == NcclColl::AllGather);
  CHECK(t.test == "all_gather_perf");
  CHECK(t.ranks == 16);
  CHECK(t.rows.size() == 3);  // the size-0 row moved nothing
}

TEST_CASE("refusals: one line naming the file, the line and the cause") {
  CHECK(error_of("hello\nworld\n") ==
        "t.txt:1: not nccl-tests output: no \"# nThread\" header and no \"#  size  count  type\" column header");
  CHECK(error_of(kHeader + kRows.substr(0, kRows.find('\n') + 1)) ==
        "t.txt:12: only 1 sizes with data; calibrate needs at least 3 to fit");
  // A reduce_scatter row (count x 4 x 16 = size, redop sum) after all_reduce rows.
  CHECK(error_of(kHeader + kRows +
                 "    16777216        262144     float     sum      -1    500.0   33.55   31.46      0    500.0   33.55   31.46      0\n") ==
        "t.txt:15: a row of reduce_scatter_perf after all_reduce_perf (line 2): one collective per file");
  CHECK(error_of("# Collective test starting: alltoall_perf\n") ==
        "t.txt:1: calibrate fits all_reduce_perf, all_gather_perf or reduce_scatter_perf, not alltoall_perf");
  CHECK(error_of(kHeader + kRows + kRows.substr(0, kRows.find('\n') + 1)) ==
        "t.txt:15: size 2097152 again (first at line 12): one table per file");
  CHECK(error_of(kHeader + "     2097152        524288     float     sum      -1    113.2   18.53\n") ==
        "t.txt:12: expected 13 columns as the header says, got 7");
  CHECK(error_of("     2097152        524288     float     sum      -1    113.2   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:1: a result row before nccl-tests' column header (\"#  size  count  type ...\")");
  CHECK(error_of(kHeader + "     2097152        524288     float     sum      -1    abc   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:12: expected time, algbw and busbw as positive numbers");
  CHECK(error_of(kHeader + "     2097152        524288     quad     sum      -1    113.2   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:12: unknown data type 'quad'");
  CHECK(error_of(kHeader + "     2097152        524288     float     sum       0    113.2   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:12: a rooted collective (root 0): calibrate fits all_reduce, all_gather and reduce_scatter");
  CHECK(error_of(kHeader + "     2097152   18446744073709551615     float     sum      -1    113.2   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:12: count 18446744073709551615 x 4 bytes exceeds size 2097152");
  CHECK(error_of(kHeader + "     2097152        524288     float     sum      -1    inf   18.53   18.53      0    93.35   22.46   22.46      0\n") ==
        "t.txt:12: expected time, algbw and busbw as positive numbers");
  // Negative control: the same text with its rows whole parses.
  CHECK(error_of(kHeader + kRows) == "(no error)");
}

TEST_CASE("a file of several runs: refused with their list, one read with run N") {
  // Two runs as a sweep's log holds them: the all-reduce above (lines 1-17)
  // and one of 4 and 8 MiB only (lines 18-33).
  const std::string second = kRows.substr(kRows.find('\n') + 1);
  const std::string text = kHeader + kRows + kTail + kHeader + second + kTail;
  CHECK(error_of(text) ==
        "t.txt:18: holds 2 runs of nccl-tests; choose one with --run N: 1: lines 1-17, all_reduce_perf, 2 ranks on 2 "
        "nodes, 2.00 MiB to 8.00 MiB (3 sizes); 2: lines 18-33, not readable (line 33: only 2 sizes with data; "
        "calibrate needs at least 3 to fit)");
  const NcclTestsTable one = parse_nccl_tests("t.txt", text, 1);
  REQUIRE(one.rows.size() == 3);
  CHECK(one.rows[0].line == 12);
  const std::string third = kHeader + kRows + kTail;
  const NcclTestsTable two = parse_nccl_tests("t.txt", kHeader + kRows + kTail + third, 2);
  REQUIRE(two.rows.size() == 3);
  CHECK(two.rows[0].line == 29);  // 17 lines of the first run, then the header's 11
  try {
    parse_nccl_tests("t.txt", text, 3);
    FAIL("run 3 of 2 read");
  } catch (const InputError& e) {
    CHECK(e.describe().rfind("--run: the file holds 2 runs of nccl-tests, not 3: 1: lines 1-17", 0) == 0);
  }
  // Negative controls: one run is one, whatever the number of header lines
  // (version, test, nThread) before its rows, and with run 1 it reads alike.
  const auto runs = nccl_tests_runs("t.txt", kHeader + kRows + kTail);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].first_line == 1);
  CHECK(runs[0].last_line == 17);
  CHECK(parse_nccl_tests("t.txt", kHeader + kRows + kTail, 1).rows.size() == 3);
  CHECK(nccl_tests_runs("t.txt", text).size() == 2);
}

}  // namespace nccl_tests_output_test
