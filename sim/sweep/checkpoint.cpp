#include "sim/sweep/checkpoint.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/text.h"
#include "sim/base/output_file.h"
#include "sim/base/csv_reader.h"

namespace ecmpsim {
namespace {

// The layout (docs/sweeps.md): the magic line; one "NAME VALUE" line per
// identity field, then (an MPI rank's) rank, ranks and ranges, then rows,
// decisions and width; an empty line; (an MPI rank's) ranges x 2 uint64
// (begin, end); rows x width doubles as this machine stores them; and a
// trailer line "checksum HEX16", XXH64 (seed 0) of every byte before it.
constexpr std::string_view kCheckpointMagic = "ecmpsim sweep checkpoint\n";
constexpr std::string_view kChecksumKey = "checksum ";
constexpr std::size_t kChecksumLine = kChecksumKey.size() + 16 + 1;
// The header fields that describe the file's layout, not the sweep it belongs to.
constexpr std::array<std::string_view, 6> kLayoutFields{"rows", "decisions", "width", "rank", "ranks", "ranges"};
// The share of a sweep's time its periodic saves may take (CheckpointPacer).
constexpr double kCheckpointShare = 0.015;
// Room for the header lines beyond the identity: rows, width, rank lines and more.
constexpr std::uint64_t kHeaderRoom = 1 << 16;

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

std::uint64_t checkpoint_number(const std::string& path, std::string_view key, std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw InputError({path, 0, 0, std::string(key)}, "not a checkpoint: '" + std::string(key) + "' is no number");
  return v;
}

// Writes the header fields, `extra` (an MPI rank's), the binary sections and the checksum.
void write_checkpoint_parts(const std::string& path, const CheckpointId& id, const std::string& extra,
                            std::uint64_t rows, std::uint64_t decisions, std::size_t width,
                            std::string_view ranges, std::string_view values, std::span<const std::string> inputs) {
  std::string head(kCheckpointMagic);
  for (const auto& [name, value] : id) head += name + " " + value + "\n";
  head += extra + "rows " + std::to_string(rows) + "\ndecisions " + std::to_string(decisions) + "\nwidth " +
          std::to_string(width) + "\n\n";
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  XXH64_update(state, head.data(), head.size());
  XXH64_update(state, ranges.data(), ranges.size());
  XXH64_update(state, values.data(), values.size());
  const std::string trailer = std::string(kChecksumKey) + xxh64_text(XXH64_digest(state)) + "\n";
  XXH64_freeState(state);
  const std::string_view parts[] = {head, ranges, values, trailer};
  replace_file(path, parts, inputs);
}

// The ranges of a share, checked: each within [0, total) and non-empty, none
// overlapping another, and `rows` in all.
void check_checkpoint_ranges(const std::string& path, std::vector<VariantRange> ranges, std::uint64_t rows,
                             std::uint64_t total) {
  const SourcePos at{path, 0, 0, "ranges"};
  std::uint64_t sum = 0;
  for (const VariantRange& r : ranges) {
    if (r.begin >= r.end || r.end > total)
      throw InputError(at, "corrupted checkpoint: the range " + std::to_string(r.begin) + ".." + std::to_string(r.end) +
                               " is empty or past this sweep's " + std::to_string(total) + " variants");
    sum += r.size();
  }
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end)
      throw InputError(at, "corrupted checkpoint: the ranges from " + std::to_string(ranges[i - 1].begin) + " and " +
                               std::to_string(ranges[i].begin) + " overlap");
  if (sum != rows)
    throw InputError(at, "corrupted checkpoint: its ranges hold " + std::to_string(sum) + " variants, its rows " +
                             std::to_string(rows));
}

// The checkpoint's identity fields (all but the layout's) against `id`, both
// ways: the first that differs, or that one side lacks, is named with both
// values (issue 47, D10: one field per axis and per input file, so the
// message says which).
void check_identity(const std::string& path, const std::vector<std::pair<std::string, std::string>>& fields,
                    const CheckpointId& id) {
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
std::vector<std::pair<std::string, std::string>> header_fields(std::string_view bytes, const SourcePos& at,
                                                               std::size_t& end) {
  std::vector<std::pair<std::string, std::string>> fields;
  std::size_t pos = kCheckpointMagic.size();
  for (;;) {
    const std::size_t nl = bytes.find('\n', pos);
    if (nl == std::string_view::npos) throw InputError(at, "not a checkpoint: its header has no end");
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

// The most a checkpoint of a sweep of `total` variants and `jobs` jobs can
// hold: its header, a range and a row per variant.
ByteLimit checkpoint_limit(const CheckpointId& id, std::size_t jobs, std::uint64_t total) {
  std::uint64_t header = kCheckpointMagic.size() + kChecksumLine + kHeaderRoom;
  for (const auto& [name, value] : id) header += name.size() + value.size() + 2;
  const std::uint64_t per_variant = 2 * sizeof(std::uint64_t) + ValueTable(jobs).width() * sizeof(double);
  const std::uint64_t variants = std::min<std::uint64_t>(total, (~0ULL - header) / per_variant);
  return {header + variants * per_variant, "checkpoint"};
}

// A file past this sweep's limit may be a larger sweep's checkpoint: its
// header, read alone, says whether it is, and which field differs.
// Only a regular file: a FIFO's bytes, once read, are gone.
void check_identity_of_prefix(const std::string& path, const CheckpointId& id, std::uint64_t limit) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
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

void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs) {
  const std::string_view rows(reinterpret_cast<const char*>(run.values.data()),
                              run.done * run.values.width() * sizeof(double));
  write_checkpoint_parts(path, id, {}, run.done, run.decisions, run.values.width(), {}, rows, inputs);
}

void write_checkpoint_share(const std::string& path, const CheckpointId& id, const CheckpointShare& share,
                            std::span<const std::string> inputs) {
  std::vector<std::uint64_t> bounds;
  for (const VariantRange& r : share.ranges) bounds.insert(bounds.end(), {r.begin, r.end});
  const std::string extra = "rank " + std::to_string(share.rank) + "\nranks " + std::to_string(share.ranks) +
                            "\nranges " + std::to_string(share.ranges.size()) + "\n";
  const std::string_view ranges(reinterpret_cast<const char*>(bounds.data()), bounds.size() * sizeof(std::uint64_t));
  const std::string_view rows(reinterpret_cast<const char*>(share.values.data()),
                              share.rows() * share.values.width() * sizeof(double));
  write_checkpoint_parts(path, id, extra, share.rows(), share.decisions, share.values.width(), ranges, rows, inputs);
}

CheckpointShare parse_checkpoint(const std::string& path, std::string_view bytes, const CheckpointId& id,
                                 std::size_t jobs, std::uint64_t total) {
  const SourcePos at{path, 0, 0, {}};
  if (bytes.size() < kCheckpointMagic.size() + kChecksumLine ||
      bytes.substr(bytes.size() - kChecksumLine, kChecksumKey.size()) != kChecksumKey)
    throw InputError(at, "truncated or not a checkpoint: it does not end in its checksum line");
  const std::size_t body = bytes.size() - kChecksumLine;
  if (xxh64_text(XXH64(bytes.data(), body, 0)) != bytes.substr(body + kChecksumKey.size(), 16))
    throw InputError(at, "corrupted checkpoint: its checksum does not match its contents");
  if (bytes.substr(0, kCheckpointMagic.size()) != kCheckpointMagic)
    throw InputError(at, "not a checkpoint: it does not begin with '" + std::string(kCheckpointMagic.substr(0, 24)) + "'");
  std::size_t pos = 0;
  const std::vector<std::pair<std::string, std::string>> fields = header_fields(bytes.substr(0, body), at, pos);
  std::size_t data = pos + 1;
  auto field = [&](const std::string& name) -> const std::string* {
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; });
    return it == fields.end() ? nullptr : &it->second;
  };
  check_identity(path, fields, id);
  CheckpointShare share;
  share.values = ValueTable(jobs);
  for (const char* key : {"rows", "decisions", "width"})
    if (field(key) == nullptr) throw InputError(at, "not a checkpoint: it has no '" + std::string(key) + "'");
  const std::uint64_t rows = checkpoint_number(path, "rows", *field("rows"));
  share.decisions = checkpoint_number(path, "decisions", *field("decisions"));
  const std::uint64_t width = checkpoint_number(path, "width", *field("width"));
  if (width != share.values.width())
    throw InputError({path, 0, 0, "width"}, "the checkpoint is of another config: it has " + std::to_string(width) +
                                                " values per variant, this sweep " +
                                                std::to_string(share.values.width()));
  if (rows > total)
    throw InputError({path, 0, 0, "rows"}, "the checkpoint has " + std::to_string(rows) +
                                               " variants, more than this sweep's " + std::to_string(total));
  if (const std::string* ranks = field("ranks")) {
    const std::uint64_t n = checkpoint_number(path, "ranks", *ranks);
    const std::uint64_t r = checkpoint_number(path, "rank", field("rank") ? *field("rank") : "");
    const std::uint64_t k = checkpoint_number(path, "ranges", field("ranges") ? *field("ranges") : "");
    if (n == 0 || r >= n || n > (1u << 24) || k > rows || (body - data) / (2 * sizeof(std::uint64_t)) < k)
      throw InputError(at, "corrupted checkpoint: rank " + std::to_string(r) + " of " + std::to_string(n) + " with " +
                               std::to_string(k) + " ranges");
    share.rank = static_cast<int>(r);
    share.ranks = static_cast<int>(n);
    share.ranges.resize(k);
    for (VariantRange& range : share.ranges) {
      std::memcpy(&range.begin, bytes.data() + data, sizeof range.begin);
      std::memcpy(&range.end, bytes.data() + data + sizeof range.begin, sizeof range.end);
      data += 2 * sizeof(std::uint64_t);
    }
  } else if (rows > 0) {
    share.ranges.push_back({0, rows});
  }
  if ((body - data) % sizeof(double) != 0 || (body - data) / sizeof(double) / width != rows ||
      (body - data) / sizeof(double) % width != 0)
    throw InputError(at, "corrupted checkpoint: " + std::to_string(body - data) + " bytes of values for " +
                             std::to_string(rows) + " variants");
  check_checkpoint_ranges(path, share.ranges, rows, total);
  share.values.resize(rows);
  if (body > data) std::memcpy(share.values.data(), bytes.data() + data, body - data);
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
  if (share.ranks > 0)
    throw InputError({path, 0, 0, "rank"}, "the checkpoint is MPI rank " + std::to_string(share.rank) + " of " +
                                               std::to_string(share.ranks) +
                                               "'s share: resume its sweep under mpirun, or give --resume the name "
                                               "before '.rank-'");
  SweepRun run;
  run.done = share.rows();
  run.decisions = share.decisions;
  run.values = std::move(share.values);
  run.values.resize(total);
  run.interrupted = run.done < total;
  return run;
}

CheckpointPacer::CheckpointPacer(std::chrono::nanoseconds every, std::uint64_t rows)
    : every_(every), begin_(Clock::now()), last_(begin_), saved_(rows) {}

bool CheckpointPacer::due(std::uint64_t rows) const {
  const auto now = Clock::now();
  if (now - last_ < every_) return false;
  // A save costs about its rows: the next, predicted from the last.
  const double next = last_took_ * static_cast<double>(rows) / static_cast<double>(std::max<std::uint64_t>(1, saved_));
  return saving_ + next <= kCheckpointShare * std::chrono::duration<double>(now - begin_).count();
}

void CheckpointPacer::save(std::uint64_t rows, const std::function<void()>& save) {
  const auto start = Clock::now();
  save();
  last_ = Clock::now();
  last_took_ = std::chrono::duration<double>(last_ - start).count();
  saving_ += last_took_;
  saved_ = rows;
}

void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c) {
  using Clock = std::chrono::steady_clock;
  const std::uint64_t total = sweep.space().size();
  const std::size_t width = run.values.width();
  CheckpointPacer pacer(c.every, run.done);
  const auto save = [&] { pacer.save(run.done, [&] { c.save(run); }); };
  // Segments start at one variant a thread and grow (at most 4x) towards `c.every`.
  std::uint64_t segment = std::max(1u, threads);
  while (run.done < total && !control.stop.load(std::memory_order_relaxed)) {
    const auto start = Clock::now();
    const SweepRun part = run_sweep(sweep, run.done, run.done + std::min(segment, total - run.done), threads, &control);
    std::memcpy(run.values.data() + run.done * width, part.values.data(), part.done * width * sizeof(double));
    run.done += part.done;
    run.decisions += part.decisions;
    if (part.interrupted) break;
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    const double scale = took > 0 ? std::chrono::duration<double>(c.every).count() / took : 4.0;
    segment = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(part.done) * std::min(scale, 4.0)));
    if (run.done < total && pacer.due(run.done)) save();
  }
  run.interrupted = run.done < total;
  if (c.final_save && run.done != pacer.saved()) save();
}

}  // namespace ecmpsim
