#include "sim/sweep/checkpoint.h"

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>

#include "sim/base/error.h"
#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
#include "sim/base/csv_reader.h"

namespace ecmpsim {
namespace {

// The layout (docs/sweeps.md): the magic line; one "NAME VALUE" line per
// identity field, then rows, decisions and width; an empty line; rows x
// width doubles as this machine stores them; and a trailer line
// "checksum HEX16", XXH64 (seed 0) of every byte before it.
constexpr std::string_view kCheckpointMagic = "ecmpsim sweep checkpoint\n";
constexpr std::string_view kChecksumKey = "checksum ";
constexpr std::size_t kChecksumLine = kChecksumKey.size() + 16 + 1;
// The share of a sweep's time its periodic saves may take (issue 35: <= 2%,
// with room for the last save, made whatever it costs).
constexpr double kCheckpointShare = 0.015;

// A value as an error line quotes it (printable: bounded, control characters escaped).
std::string checkpoint_quote(const std::string& v) {
  return "'" + printable(v) + "'";
}

std::uint64_t checkpoint_number(const std::string& path, std::string_view key, std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError({path, 0, 0, std::string(key)}, "not a checkpoint: '" + std::string(key) + "' is no number");
  return v;
}

}  // namespace

std::string xxh64_text(std::uint64_t v) {
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = "0123456789abcdef"[v & 15];
  return out;
}

void write_checkpoint(const std::string& path, const CheckpointId& id, const SweepRun& run,
                      std::span<const std::string> inputs) {
  std::string head(kCheckpointMagic);
  for (const auto& [name, value] : id) head += name + " " + value + "\n";
  head += "rows " + std::to_string(run.done) + "\ndecisions " + std::to_string(run.decisions) + "\nwidth " +
          std::to_string(run.values.width()) + "\n\n";
  const std::string_view rows(reinterpret_cast<const char*>(run.values.data()),
                              run.done * run.values.width() * sizeof(double));
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  XXH64_update(state, head.data(), head.size());
  XXH64_update(state, rows.data(), rows.size());
  const std::string trailer = std::string(kChecksumKey) + xxh64_text(XXH64_digest(state)) + "\n";
  XXH64_freeState(state);
  const std::string_view parts[] = {head, rows, trailer};
  replace_file(path, parts, inputs);
}

SweepRun read_checkpoint(const std::string& path, const CheckpointId& id, std::size_t jobs, std::uint64_t total) {
  const std::string bytes = read_input_file(path, {path, 0, 0, {}}, "checkpoint");
  const SourcePos at{path, 0, 0, {}};
  if (bytes.size() < kCheckpointMagic.size() + kChecksumLine ||
      std::string_view(bytes).substr(bytes.size() - kChecksumLine, kChecksumKey.size()) != kChecksumKey)
    throw InputError(at, "truncated or not a checkpoint: it does not end in its checksum line");
  const std::size_t body = bytes.size() - kChecksumLine;
  if (xxh64_text(XXH64(bytes.data(), body, 0)) != bytes.substr(body + kChecksumKey.size(), 16))
    throw InputError(at, "corrupted checkpoint: its checksum does not match its contents");
  if (bytes.compare(0, kCheckpointMagic.size(), kCheckpointMagic) != 0)
    throw InputError(at, "not a checkpoint: it does not begin with '" + std::string(kCheckpointMagic.substr(0, 24)) + "'");
  // The header's lines, up to the empty one.
  std::vector<std::pair<std::string, std::string>> fields;
  std::size_t pos = kCheckpointMagic.size();
  for (;;) {
    const std::size_t nl = bytes.find('\n', pos);
    if (nl == std::string::npos || nl >= body) throw InputError(at, "not a checkpoint: its header has no end");
    if (nl == pos) break;
    const std::string_view line(bytes.data() + pos, nl - pos);
    const std::size_t space = line.find(' ');
    fields.emplace_back(std::string(line.substr(0, space)),
                        space == std::string_view::npos ? std::string() : std::string(line.substr(space + 1)));
    pos = nl + 1;
  }
  const std::size_t data = pos + 1;
  auto field = [&](const std::string& name) -> const std::string* {
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.first == name; });
    return it == fields.end() ? nullptr : &it->second;
  };
  for (const auto& [name, value] : id) {
    const std::string* theirs = field(name);
    if (theirs == nullptr || *theirs != value)
      throw InputError({path, 0, 0, name}, "the checkpoint is of another " + name + ": it has " +
                                               (theirs ? checkpoint_quote(*theirs) : std::string("none")) +
                                               ", this sweep " + checkpoint_quote(value));
  }
  SweepRun run;
  run.values = ValueTable(jobs);
  for (const char* key : {"rows", "decisions", "width"})
    if (field(key) == nullptr) throw InputError(at, "not a checkpoint: it has no '" + std::string(key) + "'");
  run.done = checkpoint_number(path, "rows", *field("rows"));
  run.decisions = checkpoint_number(path, "decisions", *field("decisions"));
  const std::uint64_t width = checkpoint_number(path, "width", *field("width"));
  if (width != run.values.width())
    throw InputError({path, 0, 0, "width"}, "the checkpoint is of another config: it has " + std::to_string(width) +
                                                " values per variant, this sweep " +
                                                std::to_string(run.values.width()));
  if (run.done > total)
    throw InputError({path, 0, 0, "rows"}, "the checkpoint has " + std::to_string(run.done) +
                                               " variants, more than this sweep's " + std::to_string(total));
  if ((body - data) / sizeof(double) != run.done * width || (body - data) % sizeof(double) != 0)
    throw InputError(at, "corrupted checkpoint: " + std::to_string(body - data) + " bytes of values for " +
                             std::to_string(run.done) + " variants");
  run.values.resize(total);
  if (body > data) std::memcpy(run.values.data(), bytes.data() + data, body - data);
  run.interrupted = run.done < total;
  return run;
}

void continue_sweep(const Sweep& sweep, SweepRun& run, unsigned threads, SweepControl& control,
                    const Checkpointing& c) {
  using Clock = std::chrono::steady_clock;
  const std::uint64_t total = sweep.space().size();
  const std::size_t width = run.values.width();
  const auto begin = Clock::now();
  auto last_save = begin;
  std::uint64_t saved = run.done;  // what the last checkpoint (or the one resumed) holds
  double saving = 0, last_took = 0;  // seconds spent saving, and the last save's
  const auto save = [&] {
    const auto start = Clock::now();
    c.save(run);
    last_save = Clock::now();
    last_took = std::chrono::duration<double>(last_save - start).count();
    saving += last_took;
    saved = run.done;
  };
  // A save costs about its rows: the next, predicted from the last, is made only
  // while all saves stay within kCheckpointShare of the time so far.
  const auto affordable = [&] {
    const double next = last_took * static_cast<double>(run.done) / static_cast<double>(std::max<std::uint64_t>(1, saved));
    return saving + next <= kCheckpointShare * std::chrono::duration<double>(Clock::now() - begin).count();
  };
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
    if (Clock::now() - last_save >= c.every && run.done < total && affordable()) save();
  }
  run.interrupted = run.done < total;
  if (run.done != saved) save();
}

}  // namespace ecmpsim
