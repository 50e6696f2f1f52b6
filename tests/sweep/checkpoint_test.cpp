// Sweep checkpoints (sim/sweep/checkpoint.h): a sweep continued in segments,
// stopped at any save and resumed from the file, has the values of one
// uninterrupted run_sweep, bit for bit; a foreign, corrupted or truncated
// file is refused.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "sim/base/error.h"
#include "sim/config/config.h"
#include "sim/sweep/checkpoint.h"
#include "sim/sweep/sweep.h"

namespace checkpoint_test {

namespace {

using namespace ecmpsim;
namespace fs = std::filesystem;

Sweep seeds_sweep(std::uint64_t n) {
  SweepSpec axes;
  axes.seeds = UintRange{0, n, 1};
  axes.algos = {"xxh3"};  // spreads the metrics over seeds, so a misplaced row shows
  return Sweep(load_config(ECMPSIM_SOURCE_DIR "/configs/paper16.toml"), axes);
}

struct TempFile {
  std::string path = (fs::temp_directory_path() / ("ecmpsim_checkpoint_" + std::to_string(::getpid()))).string();
  ~TempFile() { fs::remove(path); }
};

bool same_rows(const ValueTable& a, const ValueTable& b, std::uint64_t rows) {
  return std::memcmp(a.data(), b.data(), rows * a.width() * sizeof(double)) == 0;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

const CheckpointId kId{{"version", "test"}, {"axes", "seeds 0:300"}};

}  // namespace

TEST_CASE("stopped at every save and resumed from the file: the values of one uninterrupted run") {
  const Sweep sweep = seeds_sweep(300);
  const std::uint64_t total = sweep.space().size();
  const SweepRun whole = run_sweep(sweep, 0, total, 2);
  REQUIRE(whole.done == total);
  const TempFile file;
  // Saves after every segment (every = 0); each run stops at its first save
  // and the next resumes from the file, until the sweep is whole.
  SweepRun run;
  run.values = ValueTable(sweep.base().jobs().size());
  run.values.resize(total);
  int stops = 0;
  for (;;) {
    SweepControl control;
    Checkpointing c;
    c.every = std::chrono::nanoseconds(0);
    c.save = [&](const SweepRun& now) {
      write_checkpoint(file.path, kId, now);
      control.stop = true;
    };
    continue_sweep(sweep, run, 1 + stops % 3, control, c);
    if (!run.interrupted) break;
    ++stops;
    const SweepRun back = read_checkpoint(file.path, kId, sweep.base().jobs().size(), total);
    CHECK(back.done == run.done);
    CHECK(back.decisions == run.decisions);
    REQUIRE(same_rows(back.values, whole.values, back.done));
    run = back;
  }
  CHECK(stops >= 3);  // segments start at one variant a thread: several stops before 300
  CHECK(run.done == total);
  CHECK(run.decisions == whole.decisions);
  CHECK(same_rows(run.values, whole.values, total));
  // Negative control: the comparison sees one changed bit.
  run.values[total / 2][0] = std::nextafter(run.values[total / 2][0], 1e9);
  CHECK_FALSE(same_rows(run.values, whole.values, total));
}

// D10: the refusal quoted each value's first 40 bytes, so two axes that
// differed only further on were printed alike.
TEST_CASE("a checkpoint whose long field differs past 40 bytes is refused showing where the two differ") {
  const Sweep sweep = seeds_sweep(4);
  const std::uint64_t total = sweep.space().size();
  const TempFile file;
  const std::string common(60, 'a');
  write_checkpoint(file.path, {{"version", "test"}, {"axis.algos", common + ",crc32-lo,xxh3"}},
                   run_sweep(sweep, 0, total, 1));
  const std::size_t jobs = sweep.base().jobs().size();
  try {
    read_checkpoint(file.path, {{"version", "test"}, {"axis.algos", common + ",crc16-ccitt,xxh3"}}, jobs, total);
    FAIL("another axis was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "the checkpoint is of another sweep: its axis.algos is '...aaaaaaaaaaaa,crc32-lo,xxh3', this sweep's "
          "'...aaaaaaaaaaaa,crc16-ccitt,xxh3'");
  }
  // Negative control: short values are quoted whole, from their start.
  try {
    read_checkpoint(file.path, {{"version", "test"}, {"axis.algos", "xxh3"}}, jobs, total);
    FAIL("another axis was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).ends_with("this sweep's 'xxh3'"));
    CHECK(std::string(e.what()).find("its axis.algos is '" + common.substr(0, 40) + "...'") != std::string::npos);
  }
}

TEST_CASE("a checkpoint of another sweep, a corrupted or a truncated one is refused, naming why") {
  const Sweep sweep = seeds_sweep(40);
  const std::uint64_t total = sweep.space().size();
  SweepRun run = run_sweep(sweep, 0, total, 1);
  const TempFile file;
  write_checkpoint(file.path, kId, run);
  const std::size_t jobs = sweep.base().jobs().size();
  CHECK(read_checkpoint(file.path, kId, jobs, total).done == total);
  try {
    read_checkpoint(file.path, {{"version", "other"}, {"axes", "seeds 0:300"}}, jobs, total);
    FAIL("another version was accepted");
  } catch (const InputError& e) {
    CHECK(e.describe() ==
          file.path + ": version: the checkpoint is of another sweep: its version is 'test', this sweep's 'other'");
  }
  // A field the checkpoint has and this sweep lacks is a difference too (D10: each axis a field).
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, {{"version", "test"}}, jobs, total),
                       "the checkpoint is of another sweep: its axes is 'seeds 0:300', this sweep's absent", InputError);
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total - 1),
                       "the checkpoint has 40 variants, more than this sweep's 39", InputError);
  const std::string bytes = slurp(file.path);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  std::ofstream(file.path, std::ios::binary) << flipped;
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total),
                       "corrupted checkpoint: its checksum does not match its contents", InputError);
  std::ofstream(file.path, std::ios::binary) << bytes.substr(0, bytes.size() - 1);
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total),
                       "truncated or not a checkpoint: it does not end in its checksum line", InputError);
  // The negative control: the bytes restored are accepted again.
  std::ofstream(file.path, std::ios::binary) << bytes;
  CHECK(read_checkpoint(file.path, kId, jobs, total).done == total);
}

}  // namespace checkpoint_test
