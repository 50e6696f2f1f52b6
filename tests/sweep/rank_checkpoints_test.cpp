// MPI checkpoints without MPI (sim/sweep/rank_checkpoints.h): rank files
// written as ranks would write them (chunks dealt to ranks, a resumed run's
// rank 0 carrying the old variants over) merge into the rows of one
// uninterrupted run_sweep, bit for bit, whatever files overlap; a missing,
// misnamed or malformed rank file is refused naming it. Also the fuzz
// target's seed corpus: its valid files are valid, its truncated one not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "sim/base/error.h"
#include "sim/config/config.h"
#include "sim/sweep/rank_checkpoints.h"
#include "sim/sweep/sweep.h"

namespace rank_checkpoints_test {

namespace {

using namespace ecmpsim;
namespace fs = std::filesystem;

const CheckpointId kRankId{{"version", "test"}, {"axes", "seeds 0:120"}};

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("ecmpsim_rank_ck_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
  std::string base() const { return (dir / "ck").string(); }
};

Sweep rank_sweep_of(std::uint64_t n) {
  SweepSpec axes;
  axes.seeds = UintRange{0, n, 1};
  axes.algos = {"xxh3"};  // spreads the metrics over seeds, so a misplaced row shows
  return Sweep(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"), axes);
}

// Rank `rank` of `ranks`'s share: the chunks [b, b + chunk) with b / chunk = rank (mod ranks), below `upto`.
CheckpointShare dealt_share(const Sweep& sweep, int rank, int ranks, std::uint64_t chunk, std::uint64_t upto) {
  CheckpointShare s;
  s.values = ValueTable(sweep.base().jobs().size());
  s.rank = rank;
  s.ranks = ranks;
  for (std::uint64_t b = chunk * static_cast<std::uint64_t>(rank); b < upto; b += chunk * static_cast<std::uint64_t>(ranks)) {
    const SweepRun part = run_sweep(sweep, b, std::min(upto, b + chunk), 1);
    s.append({b, b + part.done}, part.values);
  }
  return s;
}

bool rows_equal(ValueView a, ValueView b) {
  return a.rows == b.rows && std::memcmp(a.data, b.data, a.rows * a.width * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("rank files merge into the rows of one uninterrupted run, however they overlap") {
  const Sweep sweep = rank_sweep_of(120);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const SweepRun whole = run_sweep(sweep, 0, total, 2);
  const TempDir tmp;
  // A 3-rank run killed with 100 variants dealt in chunks of 7: rank 2's share is its first file.
  for (int r = 0; r < 3; ++r) write_checkpoint_share(rank_checkpoint_path(tmp.base(), r, 3), kRankId, dealt_share(sweep, r, 3, 7, 100));
  RankCheckpoints back = read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true);
  REQUIRE(back.finished.size() == 1);
  CHECK(back.finished[0] == VariantRange{0, 100});
  CHECK(back.prefix() == 100);
  CHECK(back.files.size() == 3);
  CHECK(rows_equal(back.merged.values, whole.values.view().sub(0, 100)));
  // Resumed at 2 ranks, killed again: rank 0 carried the 100 over and added
  // [100, 110); rank 1 did [110, 115). The old 3 files are still there.
  CheckpointShare carried = back.merged;
  carried.rank = 0;
  carried.ranks = 2;
  const SweepRun more = run_sweep(sweep, 100, 115, 1);
  carried.append({100, 110}, more.values.view().sub(0, 10));
  CheckpointShare other;
  other.values = ValueTable(jobs);
  other.rank = 1;
  other.ranks = 2;
  other.append({110, 115}, more.values.view().sub(10, 5));
  write_checkpoint_share(rank_checkpoint_path(tmp.base(), 0, 2), kRankId, carried);
  write_checkpoint_share(rank_checkpoint_path(tmp.base(), 1, 2), kRankId, other);
  back = read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true);
  CHECK(back.files.size() == 5);
  CHECK(back.prefix() == 115);
  // Negative control: the 100 variants are in two files; merged twice they would be 215 rows.
  CHECK(back.merged.rows() == 115);
  CHECK(rows_equal(back.merged.values, whole.values.view().sub(0, 115)));
  // Without rows (the ranks other than 0) the same ranges.
  CHECK(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, false).finished == back.finished);
  // The stale files a 2-rank run removes: the 3-rank ones.
  CHECK(rank_checkpoint_files(tmp.base(), 2).size() == 3);
}

TEST_CASE("a missing, misnamed or malformed rank file is refused, naming it") {
  const Sweep sweep = rank_sweep_of(30);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const TempDir tmp;
  const std::string none = "no checkpoint: neither this file nor " + tmp.base() +
                           ".rank-0-of-2 and the like (MPI ranks' or shards') exist";
  CHECK_THROWS_WITH_AS(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true), none.c_str(), InputError);
  for (int r : {0, 2}) write_checkpoint_share(rank_checkpoint_path(tmp.base(), r, 3), kRankId, dealt_share(sweep, r, 3, 4, 30));
  try {
    read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true);
    FAIL("a set without rank 1 was accepted");
  } catch (const InputError& e) {
    // Rank 1's chunks of 4: [4, 8), [16, 20), [28, 30).
    CHECK(e.describe() == tmp.base() + ".rank-1-of-3: missing: no file for rank (shard) 1 of 3 (" + tmp.base() +
                              ".rank-0-of-3 is there); 10 of 30 variants are in no file: 4..8, 16..20, 28..30");
  }
  // A set with files missing whose files still hold every variant merges: a
  // shard of 2 that did all the work beside the incomplete set of 3.
  CheckpointShare all = dealt_share(sweep, 0, 1, 30, 30);
  all.ranks = 2;
  write_checkpoint_share(rank_checkpoint_path(tmp.base(), 0, 2), kRankId, all);
  CHECK(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true).prefix() == 30);
  fs::remove(rank_checkpoint_path(tmp.base(), 0, 2));
  // Rank 0's share under rank 1's name.
  fs::copy_file(rank_checkpoint_path(tmp.base(), 0, 3), rank_checkpoint_path(tmp.base(), 1, 3));
  CHECK_THROWS_WITH_AS(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true),
                       "the checkpoint holds rank 0 of 3, not what its name says", InputError);
  // Negative control: rank 1's own share completes the set.
  write_checkpoint_share(rank_checkpoint_path(tmp.base(), 1, 3), kRankId, dealt_share(sweep, 1, 3, 4, 30));
  CHECK(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true).prefix() == 30);
  // A single process's reader refuses a rank's share; a share with overlapping ranges is refused.
  CHECK_THROWS_WITH_AS(read_checkpoint(rank_checkpoint_path(tmp.base(), 1, 3), kRankId, jobs, total),
                       "the checkpoint is rank (or shard) 1 of 3's share: give --resume the name before '.rank-', "
                       "which merges the shares",
                       InputError);
  CheckpointShare twice = dealt_share(sweep, 1, 3, 4, 30);
  twice.append({4, 8}, dealt_share(sweep, 1, 3, 4, 8).values);  // [4, 8) again, after [28, 30)
  write_checkpoint_share(rank_checkpoint_path(tmp.base(), 1, 3), kRankId, twice);
  CHECK_THROWS_WITH_AS(read_rank_checkpoints(tmp.base(), kRankId, jobs, total, true),
                       "corrupted checkpoint: the ranges from 4 and 4 overlap", InputError);
}

TEST_CASE("the checkpoint fuzz target's seeds: the valid ones are read, the torn one empty, the truncated refused") {
  // The fuzz target's identity and sweep (tests/fuzz/checkpoint_fuzz.cpp).
  const CheckpointId id{{"version", "fuzz"}, {"config", "xxh64:0123456789abcdef"}};
  const auto read = [&](const char* name) {
    const std::string path = std::string(ECMPSIM_SOURCE_DIR "/tests/fuzz/corpus/checkpoint/") + name;
    std::ifstream in(path, std::ios::binary);
    return parse_checkpoint(name, std::string(std::istreambuf_iterator<char>(in), {}), id, 1, 64);
  };
  const CheckpointShare prefix = read("prefix.ck");
  CHECK(prefix.ranges == std::vector<VariantRange>{{0, 3}});
  CHECK(prefix.values[2][8] == 0.5 + 26);  // the generator's values: 0.5 + i, row after row of 9
  const CheckpointShare share = read("rank_share.ck");
  CHECK(share.rank == 1);
  CHECK(share.ranks == 2);
  CHECK(share.ranges == std::vector<VariantRange>{{4, 6}, {10, 13}});
  const CheckpointShare torn = read("torn.ck");
  CHECK(torn.ranges.empty());
  CHECK(torn.dropped == 3 * 9 * 8 + 40 - 20);
  CHECK_THROWS_AS(read("truncated.ck"), InputError);
}

}  // namespace rank_checkpoints_test
