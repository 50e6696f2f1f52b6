#include "sim/sweep/checkpoint.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <thread>
#include <time.h>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/text.h"
#include "sim/base/output_file.h"
#include "sim/base/csv_reader.h"

namespace ecmpsim {
namespace {

// The layout (docs/sweeps.md, "The file"): the magic line; one "NAME VALUE"
// line per identity field, then (an MPI rank's or a shard's) rank and ranks,
// then width; an empty line; "checksum HEX16", XXH64 (seed 0) of every byte
// before it. Then records, each: 8 bytes kRecordMagic, begin, end and
// decisions as uint64; (end - begin) x width doubles as this machine stores
// them; XXH64 of the record's bytes before it, seeded with the header's
// checksum (so a record cannot pass in another sweep's file), as uint64.
constexpr std::string_view kCheckpointMagic = "ecmpsim sweep checkpoint 2\n";
constexpr std::string_view kFormat1Magic = "ecmpsim sweep checkpoint\n";
constexpr std::string_view kChecksumKey = "checksum ";
constexpr std::size_t kChecksumLine = kChecksumKey.size() + 16 + 1;
constexpr std::uint64_t kRecordMagic = 0x31434552'4b434345ULL;  // "ECCKREC1" read as little-endian
constexpr std::size_t kRecordHead = 4 * sizeof(std::uint64_t);
// The header fields that describe the file's layout, not the sweep it belongs to.
constexpr std::array<std::string_view, 3> kLayoutFields{"width", "rank", "ranks"};
// The share of a sweep's time its periodic saves may take (CheckpointPacer).
constexpr double kCheckpointShare = 0.015;
// Room for the header lines beyond the identity: rows, width, rank lines and more.
constexpr std::uint64_t kHeaderRoom = 1 << 16;

using Fields = std::vector<std::pair<std::string, std::string>>;
// A value as an error line quotes it (printable: bounded, control characters
// escaped), from a little before byte `from`, where it differs from the value
// it is compared with: two long values that share their first 40 bytes would
// otherwise print alike and hide the difference (issue 47, D10).
std::string checkpoint_quote(const std::string& v, std::size_t from = 0) {
  constexpr std::size_t kMax = 40, kBefore = 16;
  if (v.size() <= kMax || from <= kBefore) return "'" + printable(v, kMax) + "'";
  std::size_t start = from - kBefore;  // below v.size(): `from` is at most its length
  while (start > 0 && (static_cast<unsigned char>(v[start]) & 0xC0) == 0x80) --start;  // a whole character
  return "'..." + printable(std::string_view(v).substr(start), kMax) + "'";
}

std::uint64_t checkpoint_number(const std::string& path, std::string_view key, const std::string* text) {
  std::uint64_t v = 0;
  const std::string_view t = text ? std::string_view(*text) : std::string_view();
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty())
    throw InputError({path, 0, 0, std::string(key)}, "not a checkpoint: '" + std::string(key) + "' is no number");
  return v;
}

// CPU time the calling thread has taken, in seconds.
double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::uint64_t load_u64(std::string_view bytes, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

void store_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

// The header's text before its checksum line.
std::string header_head(const CheckpointId& id, int rank, int ranks, std::size_t width) {
  std::string head(kCheckpointMagic);
  for (const auto& [name, value] : id) head += name + " " + value + "\n";
  if (ranks > 0) head += "rank " + std::to_string(rank) + "\nranks " + std::to_string(ranks) + "\n";
  return head + "width " + std::to_string(width) + "\n\n";
}

std::string header_text(const std::string& head) {
  return head + std::string(kChecksumKey) + xxh64_text(XXH64(head.data(), head.size(), 0)) + "\n";
}

// One record: the rows of `range` (`rows`, row 0 being range.begin).
void append_record(std::string& out, std::uint64_t seed, VariantRange range, ValueView rows, std::uint64_t decisions) {
  const std::size_t at = out.size();
  for (const std::uint64_t v : {kRecordMagic, range.begin, range.end, decisions}) store_u64(out, v);
  out.append(reinterpret_cast<const char*>(rows.data), range.size() * rows.width * sizeof(double));
  store_u64(out, XXH64(out.data() + at, out.size() - at, seed));
}

// The checkpoint's identity fields (all but the layout's) against `id`, both
// ways: the first that differs, or that one side lacks, is named with both
// values (issue 47, D10: one field per axis and per input file, so the
// message says which).
void check_identity(const std::string& path, const Fields& fields, const CheckpointId& id) {
  const auto mismatch = [&](const std::string& name, const std::string* theirs, const std::string* ours) {
    std::size_t from = 0;  // the first byte where the two differ
    if (theirs && ours)
      while (from < theirs->size() && from < ours->size() && (*theirs)[from] == (*ours)[from]) ++from;
    throw InputError({path, 0, 0, name}, "the checkpoint is of another sweep: its " + name + " is " +
                                             (theirs ? checkpoint_quote(*theirs, from) : std::string("absent")) +
                                             ", this sweep's " +
                                             (ours ? checkpoint_quote(*ours, from) : std::string("absent")));
  };
  // Plain loop variables, not structured bindings: clang 14 cannot capture those in a lambda.
  for (const auto& ours : id) {
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == ours.first; });
    if (it == fields.end() || it->second != ours.second)
      mismatch(ours.first, it == fields.end() ? nullptr : &it->second, &ours.second);
  }
  for (const auto& theirs : fields) {
    if (std::find(kLayoutFields.begin(), kLayoutFields.end(), theirs.first) != kLayoutFields.end()) continue;
    if (std::none_of(id.begin(), id.end(), [&](const auto& f) { return f.first == theirs.first; }))
      mismatch(theirs.first, &theirs.second, nullptr);
  }
}

// The header's "NAME VALUE" lines after the magic, up to the empty line,
// whose offset is left in `end`; InputError when `bytes` holds no empty line.
Fields header_fields(std::string_view bytes, const SourcePos& at, std::size_t& end) {
  Fields fields;
  std::size_t pos = kCheckpointMagic.size();
  for (;;) {
    const std::size_t nl = bytes.find('\n', pos);
    if (nl == std::string_view::npos) throw InputError(at, "truncated or not a checkpoint: its header has no end");
    if (nl == pos) break;
    const std::string_view line = bytes.substr(pos, nl - pos);
    const std::size_t space = line.find(' ');
    fields.emplace_back(std::string(line.substr(0, space)),
                        space == std::string_view::npos ? std::string() : std::string(line.substr(space + 1)));
    pos = nl + 1;
  }
  end = pos;
  return fields;
}

struct Header {
  Fields fields;
  std::uint64_t seed = 0;  // the checksum: the records' seed
  std::size_t end = 0;     // where the records begin
  const std::string* field(std::string_view name) const {
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; });
    return it == fields.end() ? nullptr : &it->second;
  }
};

Header parse_header(const std::string& path, std::string_view bytes) {
  const SourcePos at{path, 0, 0, {}};
  if (bytes.substr(0, kFormat1Magic.size()) == kFormat1Magic)
    throw InputError(at, "a checkpoint of an earlier ecmpsim (format 1), which this build does not resume: remove it");
  if (bytes.substr(0, kCheckpointMagic.size()) != kCheckpointMagic)
    throw InputError(at, bytes.size() < kCheckpointMagic.size() ? "truncated or not a checkpoint: it is shorter than its first line"
                                                                : "not a checkpoint: it does not begin with '" +
                                                                      std::string(kCheckpointMagic.substr(0, 26)) + "'");
  Header h;
  std::size_t pos = 0;
  h.fields = header_fields(bytes, at, pos);
  const std::size_t head = pos + 1;
  const std::string_view line = bytes.substr(head, kChecksumLine);
  if (line.size() < kChecksumLine || line.substr(0, kChecksumKey.size()) != kChecksumKey || line.back() != '\n')
    throw InputError(at, "truncated or not a checkpoint: its header ends without its checksum line");
  h.seed = XXH64(bytes.data(), head, 0);
  if (xxh64_text(h.seed) != line.substr(kChecksumKey.size(), 16))
    throw InputError(at, "corrupted checkpoint: its header does not match its checksum");
  h.end = head + kChecksumLine;
  return h;
}

// The ranges of the whole records, checked: none overlapping another (whole
// records that overlap were written so, not cut short: refused).
void check_overlaps(const std::string& path, std::vector<VariantRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end)
      throw InputError({path, 0, 0, "ranges"}, "corrupted checkpoint: the ranges from " +
                                                   std::to_string(ranges[i - 1].begin) + " and " +
                                                   std::to_string(ranges[i].begin) + " overlap");
}

// Reads the records from `at` on into `share`, stopping at the first that is
// cut short or fails its checksum (share.dropped: the bytes from there on).
void parse_records(const std::string& path, std::string_view bytes, std::size_t at, std::uint64_t seed,
                   std::uint64_t total, CheckpointShare& share) {
  const std::size_t row_bytes = share.values.width() * sizeof(double);
  while (at < bytes.size()) {
    const std::size_t left = bytes.size() - at;
    const bool head = left >= kRecordHead + sizeof(std::uint64_t) && load_u64(bytes, at) == kRecordMagic;
    const std::uint64_t begin = head ? load_u64(bytes, at + 8) : 0, end = head ? load_u64(bytes, at + 16) : 0;
    const bool sized = head && begin < end && (end - begin) <= (left - kRecordHead - 8) / row_bytes;
    const std::size_t size = sized ? kRecordHead + (end - begin) * row_bytes + 8 : 0;
    if (!sized || XXH64(bytes.data() + at, size - 8, seed) != load_u64(bytes, at + size - 8)) {
      share.dropped = left;
      return;
    }
    // A whole record past the sweep was written so, not cut short: refused.
    if (end > total)
      throw InputError({path, 0, 0, "ranges"}, "corrupted checkpoint: the range " + std::to_string(begin) + ".." +
                                                   std::to_string(end) + " is past this sweep's " +
                                                   std::to_string(total) + " variants");
    const ValueView rows{reinterpret_cast<const double*>(bytes.data() + at + kRecordHead), end - begin,
                         share.values.width()};
    share.ranges.push_back({begin, end});
    share.decisions += load_u64(bytes, at + 24);
    const std::uint64_t row = share.values.size();
    share.values.resize(row + rows.rows);
    if (rows.rows > 0) std::memcpy(share.values[row].data(), rows.data, rows.rows * row_bytes);
    at += size;
  }
}

// `covered` (sorted, disjoint, joined) with `r` added.
void cover(std::vector<VariantRange>& covered, VariantRange r) {
  covered.push_back(r);
  covered = join_ranges(std::move(covered));
}

// A rank's or a shard's file where a single process's was named.
std::string share_not_prefix(const CheckpointShare& share) {
  return "the checkpoint is rank (or shard) " + std::to_string(share.rank) + " of " + std::to_string(share.ranks) +
         "'s share: give --resume the name before '.rank-', which merges the shares";
}

// The most a checkpoint of a sweep of `total` variants and `jobs` jobs can
// hold: its header, then a record per variant (its head, row and checksum).
ByteLimit checkpoint_limit(const CheckpointId& id, std::size_t jobs, std::uint64_t total) {
  std::uint64_t header = kCheckpointMagic.size() + kChecksumLine + kHeaderRoom;
  for (const auto& [name, value] : id) header += name.size() + value.size() + 2;
  const std::uint64_t per_variant = kRecordHead + sizeof(std::uint64_t) + ValueTable(jobs).width() * sizeof(double);
  const std::uint64_t variants = std::min<std::uint64_t>(total, (~0ULL - header) / per_variant);
  return {header + variants * per_variant, "checkpoint"};
}

// A file past this sweep's limit may be a larger sweep's checkpoint: its
// header, read alone, says whether it is, and which field differs.
// Only a regular file: a FIFO's bytes, once read, are gone.
void check_identity_of_prefix(const std::string& path, const CheckpointId& id, std::uint64_t limit) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  // Within the limit, parse_checkpoint checks the header's checksum first.
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size <= limit) return;
  std::ifstream in(path, std::ios::binary);
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(limit, kHeaderRoom)), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (!head.starts_with(kCheckpointMagic) || head.find("\n\n", kCheckpointMagic.size() - 1) == std::string::npos)
    return;  // no header to compare: read_input_file refuses the size
  std::size_t end = 0;
  check_identity(path, header_fields(head, {path, 0, 0, {}}, end), id);
}

}  // namespace

std::vector<VariantRange> join_ranges(std::vector<VariantRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
  std::vector<VariantRange> joined;
  for (const VariantRange& c : ranges) {
    if (c.size() == 0) continue;
    if (!joined.empty() && c.begin <= joined.back().end)
      joined.back().end = std::max(joined.back().end, c.end);
    else
      joined.push_back(c);
  }
  return joined;
}

std::vector<VariantRange> ranges_missing(const std::vector<VariantRange>& covered, VariantRange r) {
  std::vector<VariantRange> out;
  std::uint64_t at = r.begin;
  for (const VariantRange& c : covered) {
    if (c.end <= at) continue;
    if (c.begin >= r.end) break;
    if (c.begin > at) out.push_back({at, c.begin});
    at = std::max(at, c.end);
  }
  if (at < r.end) out.push_back({at, r.end});
  return out;
}

std::string xxh64_text(std::uint64_t v) {
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = "0123456789abcdef"[v & 15];
  return out;
}

void CheckpointShare::append(VariantRange range, ValueView rows) {
  if (range.size() == 0) return;
  if (!ranges.empty() && ranges.back().end == range.begin)
    ranges.back().end = range.end;
  else
    ranges.push_back(range);
  const std::uint64_t at = values.size();
  values.resize(at + range.size());
  std::memcpy(values.data() + at * values.width(), rows.data, range.size() * values.width() * sizeof(double));
}

void write_checkpoint_share(const std::string& path, const CheckpointId& id, const CheckpointShare& share,
                            std::span<const std::string> inputs) {
  const std::string head = header_head(id, share.rank, share.ranks, share.values.width());
  std::string text = header_text(head);
  const std::uint64_t seed = XXH64(head.data(), head.size(), 0);
  std::uint64_t row = 0;
  for (const VariantRange& r : share.ranges) {
    append_record(text, seed, r, share.values.view().sub(row, r.size()), row == 0 ? share.decisions : 0);
    row += r.size();
  }
  const std::string_view parts[] = {text};
  replace_file(path, parts, inputs);
}

void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs) {
  CheckpointShare share;
  share.values = ValueTable(run.values.jobs());
  share.decisions = run.decisions;
  share.append({0, run.done}, run.values.view());
  write_checkpoint_share(path, id, share, inputs);
}

CheckpointShare parse_checkpoint(const std::string& path, std::string_view bytes, const CheckpointId& id,
                                 std::size_t jobs, std::uint64_t total) {
  const Header h = parse_header(path, bytes);
  check_identity(path, h.fields, id);
  CheckpointShare share;
  share.values = ValueTable(jobs);
  const std::uint64_t width = checkpoint_number(path, "width", h.field("width"));
  if (width != share.values.width())
    throw InputError({path, 0, 0, "width"}, "the checkpoint is of another sweep: it has " + std::to_string(width) +
                                                " values per variant, this sweep " +
                                                std::to_string(share.values.width()));
  if (const std::string* ranks = h.field("ranks")) {
    const std::uint64_t n = checkpoint_number(path, "ranks", ranks);
    const std::uint64_t r = checkpoint_number(path, "rank", h.field("rank"));
    if (n == 0 || r >= n || n > (1u << 24))
      throw InputError({path, 0, 0, "rank"}, "corrupted checkpoint: rank " + std::to_string(r) + " of " + std::to_string(n));
    share.rank = static_cast<int>(r);
    share.ranks = static_cast<int>(n);
  }
  parse_records(path, bytes, h.end, h.seed, total, share);
  check_overlaps(path, share.ranges);
  return share;
}

CheckpointShare load_checkpoint_share(const std::string& path, const CheckpointId& id, std::size_t jobs,
                                      std::uint64_t total) {
  const ByteLimit limit = checkpoint_limit(id, jobs, total);
  check_identity_of_prefix(path, id, limit.max);
  return parse_checkpoint(path, read_input_file(path, {path, 0, 0, {}}, "checkpoint", limit), id, jobs, total);
}

SweepRun read_checkpoint(const std::string& path, const CheckpointId& id, std::size_t jobs, std::uint64_t total) {
  CheckpointShare share = load_checkpoint_share(path, id, jobs, total);
  if (share.ranks > 0) throw InputError({path, 0, 0, "rank"}, share_not_prefix(share));
  SweepRun run;
  run.decisions = share.decisions;
  run.values = ValueTable(jobs);
  run.values.resize(total);
  std::vector<VariantRange> covered;
  std::uint64_t row = 0;
  for (const VariantRange& r : share.ranges) {
    std::memcpy(run.values[r.begin].data(), share.values[row].data(), r.size() * run.values.width() * sizeof(double));
    row += r.size();
    cover(covered, r);
  }
  run.done = !covered.empty() && covered.front().begin == 0 ? covered.front().end : 0;
  run.interrupted = run.done < total;
  return run;
}

CheckpointWriter::CheckpointWriter(const std::string& path, const CheckpointId& id, int rank, int ranks,
                                   std::size_t jobs, std::uint64_t total, std::span<const std::string> inputs)
    : width_(ValueTable(jobs).width()) {
  const std::string head = header_head(id, rank, ranks, width_);
  seed_ = XXH64(head.data(), head.size(), 0);
  file_ = std::make_unique<AppendFile>(path, header_text(head), inputs);
  held_.values = ValueTable(jobs);
  held_.rank = rank;
  held_.ranks = ranks;
  if (file_->created()) return;
  // A file larger than this sweep's checkpoint can be is refused unread
  // (issue 47, D5): read_input_file refuses its size, reading nothing.
  if (const ByteLimit limit = checkpoint_limit(id, jobs, total); file_->size() > limit.max) {
    check_identity_of_prefix(path, id, limit.max);
    read_input_file(path, {path, 0, 0, {}}, "checkpoint", limit);
  }
  const std::string bytes = file_->read_all();
  held_ = parse_checkpoint(path, bytes, id, jobs, total);
  if (held_.rank != rank || held_.ranks != ranks)
    throw InputError({path, 0, 0, "rank"}, ranks > 0 ? "the checkpoint holds rank " + std::to_string(held_.rank) +
                                                           " of " + std::to_string(held_.ranks) +
                                                           ", not what its name says"
                                                     : share_not_prefix(held_));
  if (held_.dropped > 0) file_->truncate(bytes.size() - held_.dropped);
  for (const VariantRange& r : held_.ranges) cover(covered_, r);
  decisions_saved_ = held_.decisions;
}

CheckpointWriter::~CheckpointWriter() = default;

bool CheckpointWriter::created() const noexcept { return file_->created(); }
const std::string& CheckpointWriter::path() const noexcept { return file_->path(); }

bool CheckpointWriter::save(VariantRange range, ValueView rows, std::uint64_t decisions) {
  std::string bytes;
  const std::vector<VariantRange> fresh = ranges_missing(covered_, range);
  for (const VariantRange& g : fresh) {
    append_record(bytes, seed_, g, rows.sub(g.begin - range.begin, g.size()),
                  bytes.empty() && decisions > decisions_saved_ ? decisions - decisions_saved_ : 0);
  }
  if (bytes.empty()) return false;
  file_->append(bytes);
  for (const VariantRange& g : fresh) cover(covered_, g);
  decisions_saved_ = std::max(decisions_saved_, decisions);
  file_->flush(false);
  return true;
}

bool CheckpointWriter::save(const CheckpointShare& share) {
  std::uint64_t row = 0;
  bool added = false;
  for (const VariantRange& r : share.ranges) {
    added = save(r, share.values.view().sub(row, r.size()), share.decisions) || added;
    row += r.size();
  }
  return added;
}

void CheckpointWriter::held_elsewhere(const std::vector<VariantRange>& ranges) {
  for (const VariantRange& r : ranges) cover(covered_, r);
}

void CheckpointWriter::flush(bool wait) { file_->flush(wait); }

CheckpointPacer::CheckpointPacer(std::chrono::nanoseconds every, std::uint64_t rows, unsigned beside)
    : every_(every), begin_(Clock::now()), last_(begin_), saved_(rows), beside_(beside) {}

bool CheckpointPacer::due(std::uint64_t rows) const {
  const auto now = Clock::now();
  if (now - last_ < every_ || rows <= saved_) return false;
  // A save costs about the rows it adds: the next, predicted from the last.
  const double next = last_took_ * static_cast<double>(rows - saved_) / static_cast<double>(last_added_);
  return saving_ + next <=
         kCheckpointShare * std::max(1u, beside_) * std::chrono::duration<double>(now - begin_).count();
}

void CheckpointPacer::save(std::uint64_t rows, const std::function<void()>& save) {
  const auto start = Clock::now();
  const double cpu = beside_ > 0 ? thread_cpu_seconds() : 0;
  save();
  last_ = Clock::now();
  last_took_ = beside_ > 0 ? thread_cpu_seconds() - cpu : std::chrono::duration<double>(last_ - start).count();
  saving_ += last_took_;
  last_added_ = std::max<std::uint64_t>(1, rows > saved_ ? rows - saved_ : 1);
  saved_ = rows;
}

namespace {

// Hands `s.finished` the rows of variants [begin + from, begin + upto) with
// the decisions they made, and saves what it was handed when the pacer says
// a save is due.
struct Saver {
  const SavingRun& s;
  CheckpointPacer pacer;
  std::uint64_t rows = 0;  // handed to s.finished so far, over every range

  void hand(std::uint64_t begin, std::uint64_t from, std::uint64_t upto, ValueView values, std::uint64_t decisions) {
    if (upto <= from && decisions == 0) return;
    s.finished({begin + from, begin + upto}, values.sub(from, upto - from), decisions);
    rows += upto - from;
  }
  void save_if_due() {
    if (pacer.due(rows)) pacer.save(rows, s.save);
  }
};

// One engine run over `r`, its rows written into `values`, while this thread
// hands the finished prefix on and saves it as the pacer says, until the run
// ends. Whether a stop (control.stop) ended it early.
bool run_range(const Sweep& sweep, VariantRange r, double* rows, unsigned threads, SweepControl& control,
               Saver& saver) {
  const ValueView values{rows, r.size(), kSweepMetrics + sweep.base().jobs().size()};
  control.prefix.reset();  // before the watcher reads it: not the last range's
  std::atomic<bool> over{false};
  std::uint64_t handed = 0, decided = 0;  // rows and decisions handed on
  std::exception_ptr failed;
  // Polled every 5 ms (every 1 ms under a shorter interval, as tests ask).
  const auto poll = std::clamp<std::chrono::nanoseconds>(saver.s.every / 4, std::chrono::milliseconds(1),
                                                         std::chrono::milliseconds(5));
  std::thread watcher([&] {
    try {
      while (!over.load(std::memory_order_acquire)) {
        std::this_thread::sleep_for(poll);
        const FinishedPrefix::Snapshot prefix = control.prefix.get();
        if (prefix.count > handed) {
          saver.hand(r.begin, handed, prefix.count, values, prefix.weight - decided);
          handed = prefix.count;
          decided = prefix.weight;
          saver.save_if_due();
        }
      }
    } catch (...) {
      failed = std::current_exception();
      control.stop.store(true);
    }
  });
  SweepRun part;
  try {
    part = run_sweep_into(sweep, r.begin, r.end, threads, &control, rows);
  } catch (...) {
    over.store(true, std::memory_order_release);
    watcher.join();
    throw;
  }
  over.store(true, std::memory_order_release);
  watcher.join();
  if (failed) std::rethrow_exception(failed);
  saver.hand(r.begin, handed, part.done, values, part.decisions - decided);
  return part.interrupted;
}

}  // namespace

bool run_saving(const Sweep& sweep, std::span<const VariantRange> todo, unsigned threads, SweepControl& control,
                const SavingRun& s) {
  // A save at most every 0.8 `every` (and within the pacer's share of the
  // time): with the prefix a chunk or so behind, a kill loses about `every`.
  Saver saver{s, CheckpointPacer(std::chrono::duration_cast<std::chrono::nanoseconds>(0.8 * s.every), 0,
                                 std::max(1u, threads))};
  ValueTable values(sweep.base().jobs().size());
  bool stopped = false;
  for (const VariantRange& r : todo) {
    if (control.stop.load()) stopped = true;
    if (stopped) break;
    double* rows = nullptr;
    if (s.place) {
      rows = s.place(r);
    } else {
      values.resize(r.size());
      rows = values.data();
    }
    stopped = run_range(sweep, r, rows, threads, control, saver);
    if (!stopped) saver.save_if_due();
  }
  if (s.final_save && saver.rows != saver.pacer.saved()) saver.pacer.save(saver.rows, s.save);
  return !stopped;
}

void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c) {
  const std::uint64_t total = sweep.space().size();
  const std::size_t width = run.values.width();
  SavingRun s;
  s.every = c.every;
  s.final_save = c.final_save;
  s.place = [&](VariantRange r) { return run.values.data() + r.begin * width; };
  s.finished = [&](VariantRange r, ValueView, std::uint64_t decisions) {
    run.done = r.end;
    run.decisions += decisions;
  };
  s.save = [&] { c.save(run); };
  const VariantRange rest{run.done, total};
  run_saving(sweep, {&rest, 1}, threads, control, s);
  run.interrupted = run.done < total;
}

}  // namespace ecmpsim
