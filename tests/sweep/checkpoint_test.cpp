// Sweep checkpoints (sim/sweep/checkpoint.h): a sweep continued in segments,
// stopped at any save and resumed from the file it adds to, has the values of
// one uninterrupted run_sweep, bit for bit; a foreign file or header is
// refused; a record cut short or damaged is dropped with all after it; a
// writer adds only what its file lacks and is the file's only writer.
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
  // Large enough to outlast a few of the saver's 1 ms polls (about 40k variants/s a thread).
  const Sweep sweep = seeds_sweep(3000);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const SweepRun whole = run_sweep(sweep, 0, total, 2);
  REQUIRE(whole.done == total);
  const TempFile file;
  // Saves as soon as a prefix is finished (every = 0); each run stops at its
  // first save and the next opens the file again, resumes what it holds and
  // adds to it, until the sweep is whole.
  SweepRun run;
  run.values = ValueTable(jobs);
  run.values.resize(total);
  int stops = 0;
  for (;;) {
    CheckpointWriter writer(file.path, kId, -1, 0, jobs, total);
    SweepControl control;
    Checkpointing c;
    c.every = std::chrono::nanoseconds(0);
    c.save = [&](const SweepRun& now) {
      writer.save({0, now.done}, now.values.view(), now.decisions);
      control.stop = true;
    };
    continue_sweep(sweep, run, 1 + stops % 3, control, c);
    if (!run.interrupted) break;
    ++stops;
    const SweepRun back = read_checkpoint(file.path, kId, jobs, total);
    CHECK(back.done == run.done);
    CHECK(back.decisions == run.decisions);
    REQUIRE(same_rows(back.values, whole.values, back.done));
    run = back;
  }
  CHECK(stops >= 3);  // chunks start at one variant a thread: several stops before 3000
  CHECK(run.done == total);
  CHECK(run.decisions == whole.decisions);
  CHECK(same_rows(run.values, whole.values, total));
  // The file: a record or more a run (its save, then what finished while the
  // stop took hold, saved as it came), nothing saved twice.
  const CheckpointShare share = parse_checkpoint(file.path, slurp(file.path), kId, jobs, total);
  CHECK(share.ranges.size() >= static_cast<std::size_t>(stops + 1));
  CHECK(share.rows() == total);
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

TEST_CASE("another sweep's checkpoint is refused naming the field; a damaged record is dropped with all after it") {
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
                       "corrupted checkpoint: the range 0..40 is past this sweep's 39 variants", InputError);
  const std::string bytes = slurp(file.path);
  const std::size_t header = bytes.find("\n\n") + 2 + 26;
  // A byte of the header: refused; of the record, or the record cut short: the record is dropped.
  std::string flipped = bytes;
  flipped[10] ^= 0x10;
  std::ofstream(file.path, std::ios::binary) << flipped;
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total),
                       "not a checkpoint: it does not begin with 'ecmpsim sweep checkpoint 2'", InputError);
  flipped = bytes;
  flipped[header - 30] ^= 0x01;  // the width line's digit: only the checksum can tell
  std::ofstream(file.path, std::ios::binary) << flipped;
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total),
                       "corrupted checkpoint: its header does not match its checksum", InputError);
  flipped = bytes;
  flipped[(header + bytes.size()) / 2] ^= 0x10;
  std::ofstream(file.path, std::ios::binary) << flipped;
  CHECK(read_checkpoint(file.path, kId, jobs, total).done == 0);
  CHECK(parse_checkpoint(file.path, flipped, kId, jobs, total).dropped == bytes.size() - header);
  std::ofstream(file.path, std::ios::binary) << bytes.substr(0, bytes.size() - 1);
  CHECK(read_checkpoint(file.path, kId, jobs, total).done == 0);
  std::ofstream(file.path, std::ios::binary) << bytes.substr(0, header - 1);
  CHECK_THROWS_WITH_AS(read_checkpoint(file.path, kId, jobs, total),
                       "truncated or not a checkpoint: its header ends without its checksum line", InputError);
  // The negative control: the bytes restored are accepted again.
  std::ofstream(file.path, std::ios::binary) << bytes;
  CHECK(read_checkpoint(file.path, kId, jobs, total).done == total);
}

TEST_CASE("a writer adds only what the file lacks, cuts a save a kill left half written, and stands alone") {
  const Sweep sweep = seeds_sweep(40);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const SweepRun whole = run_sweep(sweep, 0, total, 1);
  const TempFile file;
  {
    CheckpointWriter w(file.path, kId, -1, 0, jobs, total);
    CHECK(w.created());
    CHECK(w.save({0, 10}, whole.values.view().sub(0, 10), 100));
    CHECK_FALSE(w.save({0, 10}, whole.values.view().sub(0, 10), 100));  // held already: nothing added
    CHECK(w.save({5, 20}, whole.values.view().sub(5, 15), 200));        // adds [10, 20) only
    // A second writer of the same file, while this one is open, is refused.
    CHECK_THROWS_WITH_AS(CheckpointWriter(file.path, kId, -1, 0, jobs, total),
                         "another running process is writing this file (it holds its lock)", InputError);
  }
  const std::string two = slurp(file.path);
  CHECK(parse_checkpoint(file.path, two, kId, jobs, total).ranges == std::vector<VariantRange>{{0, 10}, {10, 20}});
  // Half a record, as a kill during a save leaves it.
  std::ofstream(file.path, std::ios::binary | std::ios::app) << two.substr(two.size() - 100);
  {
    CheckpointWriter w(file.path, kId, -1, 0, jobs, total);
    CHECK_FALSE(w.created());
    CHECK(w.held().dropped == 100);
    CHECK(w.held().decisions == 200);
    CHECK(w.save({0, total}, whole.values.view(), whole.decisions));
  }
  const SweepRun back = read_checkpoint(file.path, kId, jobs, total);
  CHECK(back.done == total);
  CHECK(same_rows(back.values, whole.values, total));
  CHECK(back.decisions == std::max<std::uint64_t>(200, whole.decisions));
  CHECK(parse_checkpoint(file.path, slurp(file.path), kId, jobs, total).dropped == 0);
  // Another sweep's file is refused and left as it was.
  const std::string before = slurp(file.path);
  CHECK_THROWS_WITH_AS(CheckpointWriter(file.path, {{"version", "other"}, {"axes", "seeds 0:300"}}, -1, 0, jobs, total),
                       "the checkpoint is of another sweep: its version is 'test', this sweep's 'other'", InputError);
  CHECK(slurp(file.path) == before);
}

// D5 for the writer: a file of this sweep's header grown past what its
// checkpoint can hold (here a sparse 64 GiB) is refused by size, unread.
TEST_CASE("a writer refuses a file larger than this sweep's checkpoint can be, without reading it") {
  const Sweep sweep = seeds_sweep(40);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  const TempFile file;
  { CheckpointWriter w(file.path, kId, -1, 0, jobs, total); }
  const std::uint64_t header = std::filesystem::file_size(file.path);
  // The negative control: a file of its header size opens.
  CHECK_NOTHROW(CheckpointWriter(file.path, kId, -1, 0, jobs, total));
  std::filesystem::resize_file(file.path, std::uint64_t{64} << 30);
  CHECK_THROWS_AS(CheckpointWriter(file.path, kId, -1, 0, jobs, total), InputError);
  try {
    CheckpointWriter w(file.path, kId, -1, 0, jobs, total);
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("limit") != std::string::npos);
  }
  CHECK(std::filesystem::file_size(file.path) == std::uint64_t{64} << 30);  // left as it was
  CHECK(header > 0);
}

}  // namespace checkpoint_test
