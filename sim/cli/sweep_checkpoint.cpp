#include "sim/cli/sweep_checkpoint.h"

#include <sys/statvfs.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
#include "sim/base/text.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/rank_checkpoints.h"

#ifndef ECMPSIM_VERSION
#define ECMPSIM_VERSION "dev"
#endif

namespace ecmpsim::cli {
namespace {

namespace fs = std::filesystem;

// The axes a sweep may name (sweep_output.cpp's axes_json), each an identity
// field whether swept or not, so a checkpoint of another sweep differs in a field this one has.
constexpr const char* kAxisFields[] = {"scenarios", "algos", "placement_seeds", "qps",
                                       "qpn_base",  "sport_base", "seeds", "seed_mode"};

// A header field's value: one line.
std::string one_field_line(std::string v) {
  std::replace(v.begin(), v.end(), '\n', ' ');
  return v;
}

std::string file_digest(const std::string& path, std::uint64_t max_bytes) {
  const std::string bytes = read_input_file(path, {path, 0, 0, {}}, "config input", {max_bytes, "--max-config-bytes"});
  return "xxh64:" + xxh64_text(XXH64(bytes.data(), bytes.size(), 0));
}

// A name usable in a header field's name: letters, digits, '_', '-' and '.' kept.
std::string field_safe(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return out;
}

// Whether `base` holds a checkpoint: the file, or rank files beside it.
bool holds_checkpoint(const std::string& base) {
  return fs::exists(base) || !rank_checkpoint_files(base, 0).empty();
}

// A read error of the checkpoint the sweep would save to, with what to do:
// it is never replaced (issue 47, D3).
[[noreturn]] void refuse_own(const InputError& e, bool by_default) {
  throw InputError(e.where(), std::string(e.what()) + "; a checkpoint is never replaced: remove it, or " +
                                  (by_default ? "pass --no-checkpoint" : "name another --checkpoint"));
}

// The target can be written before the work: not the output, not an input,
// a regular file or a new one in a writable directory.
void check_checkpoint_target(const std::string& path, const std::string& out, std::span<const std::string> inputs) {
  struct stat st {}, o {};
  if (!out.empty() && ::stat(path.c_str(), &st) == 0 && ::stat(out.c_str(), &o) == 0 && st.st_dev == o.st_dev &&
      st.st_ino == o.st_ino)
    throw InputError({path, 0, 0, "--checkpoint"}, "the checkpoint would replace --out");
  check_output(path, inputs);
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError({path, 0, 0, "--checkpoint"}, "not a regular file");
}

// Space for a save of `bytes` beside `path` (a temporary, then renamed over it).
void check_space(const std::string& path, std::uint64_t bytes) {
  const fs::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) return;  // the first save will say why
  const std::uint64_t free = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  if (free < bytes)
    throw InputError({path, 0, 0, "--checkpoint"}, "no space for a first save: it takes " + std::to_string(bytes) +
                                                       " bytes, " + std::to_string(free) + " are free in " + dir);
}

// The rows of every source's finished variants put in place in `run` (sized
// to the sweep), and the finished prefix as run.done: a single process
// continues from the first variant no source holds.
void merge_into(SweepRun& run, const RankCheckpoints& r) {
  const std::size_t width = run.values.width();
  std::uint64_t row = 0;
  for (const VariantRange& range : r.merged.ranges) {
    std::memcpy(run.values[range.begin].data(), r.merged.values[row].data(), range.size() * width * sizeof(double));
    row += range.size();
  }
  run.decisions += r.merged.decisions;
}

std::uint64_t joined_prefix(std::vector<VariantRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
  std::uint64_t prefix = 0;
  for (const VariantRange& r : ranges) {
    if (r.begin > prefix) break;
    prefix = std::max(prefix, r.end);
  }
  return prefix;
}

}  // namespace

void add_checkpoint_flags(CLI::App* sub, CheckpointFlags& f) {
  sub->add_option("--checkpoint", f.checkpoint,
                  "Save the finished variants to FILE every few seconds (atomically), on a stop and after the output; "
                  "a FILE of this sweep is resumed (run the same command again), another sweep's is refused, never "
                  "replaced; default OUT.checkpoint beside --out (removed once the output is written); under mpirun "
                  "each rank saves its share to FILE.rank-R-of-N (no default)")
      ->type_name("FILE")
      ->check(file_role(FileRole::Checkpoint));
  sub->add_option("--resume", f.resume,
                  "Continue the sweep a checkpoint FILE saved (same build, config, axes); the output is "
                  "byte-identical to an uninterrupted run. Saves to FILE unless --checkpoint names another. Under mpirun, "
                  "or when FILE is absent, reads FILE's rank files FILE.rank-R-of-N, at any rank count")
      ->type_name("FILE")
      ->check(file_role(FileRole::Resume));
  sub->add_flag("--no-checkpoint", f.off, "Write no default checkpoint beside --out");
  sub->add_option("--checkpoint-every", f.every,
                  "Seconds between checkpoints (longer while saving would take over 1.5% of the sweep's time)")
      ->default_str("5")
      ->check(number_at_least(0.001));
}

CheckpointId checkpoint_id(const Sweep& sweep, const std::string& sizes) {
  const Spec& spec = sweep.base().spec();
  CheckpointId id{{"version", ECMPSIM_VERSION}, {"build", kBuildId}};
  const std::uint64_t max = spec.limits.max_config_bytes;
  id.emplace_back("config", file_digest(spec.source, max));
  if (!spec.fabric.topology.source.empty()) id.emplace_back("topology", file_digest(spec.fabric.topology.source, max));
  for (const ScenarioSpec& s : spec.scenarios)
    if (s.routes_file) id.emplace_back("routes." + field_safe(s.name), file_digest(s.routes_file->path, max));
  id.emplace_back("sizes", sizes.empty() ? "none" : one_field_line(sizes.substr(1)));
  const Json axes = axes_json(sweep.space());
  // A string as it is ("0:2000"), a list as JSON (["crc16-ccitt","xxh3"]).
  const auto text = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (const char* key : kAxisFields)
    id.emplace_back(std::string("axis.") + key, axes.contains(key) ? one_field_line(text(axes[key])) : "none");
  for (const auto& [key, value] : axes.items())
    if (key != "not_hashed" && std::find_if(std::begin(kAxisFields), std::end(kAxisFields),
                                            [&](const char* k) { return key == k; }) == std::end(kAxisFields))
      id.emplace_back("axis." + key, one_field_line(text(value)));
  id.emplace_back("axis.slowdown", sweep.space().axes().slowdown ? "true" : "false");
  id.emplace_back("axis.busbw_at", std::to_string(sweep.space().axes().busbw_at.value));
  id.emplace_back("variants", std::to_string(sweep.space().size()));
  return id;
}

SweepCheckpoint::SweepCheckpoint(const CheckpointFlags& f, const std::string& out, const Sweep& sweep, CheckpointId id,
                                 std::ostream& err)
    : sweep_(sweep), id_(std::move(id)), err_(err), every_(f.every) {
  const bool named = !f.checkpoint.empty() || !f.resume.empty();
  const bool beside_out = !out.empty() && out != "-" && output_kind(out) == OutputKind::Replace;
  if (!named && (f.off || !beside_out)) return;
  path_ = !f.checkpoint.empty() ? f.checkpoint : !f.resume.empty() ? f.resume : out + ".checkpoint";
  by_default_ = f.checkpoint.empty() && beside_out && *path_ == out + ".checkpoint";
  inputs_ = spec_inputs(sweep.base().spec());
  if (!out.empty() && out != "-") inputs_.push_back(out);
  check_checkpoint_target(*path_, out, spec_inputs(sweep.base().spec()));
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  resumed_.values = ValueTable(jobs);
  resumed_.values.resize(total);
  // What the run resumes: --resume's file, and the checkpoint's own.
  std::vector<std::string> sources;
  if (!f.resume.empty()) sources.push_back(f.resume);
  if (*path_ != f.resume && holds_checkpoint(*path_)) sources.push_back(*path_);
  std::vector<VariantRange> finished;
  bool file_is_run = false;  // the checkpoint's file alone holds what is resumed
  for (const std::string& source : sources) {
    RankCheckpoints r;
    try {
      r = read_rank_checkpoints(source, id_, jobs, total, true);
    } catch (const InputError& e) {
      if (source == *path_ && source != f.resume) refuse_own(e, by_default_);
      throw;
    }
    merge_into(resumed_, r);
    finished.insert(finished.end(), r.finished.begin(), r.finished.end());
    file_is_run = sources.size() == 1 && source == *path_ && r.files.size() == 1 && r.files.front() == *path_;
  }
  resumed_.done = joined_prefix(std::move(finished));
  resumed_.interrupted = resumed_.done < total;
  if (!sources.empty())
    err_ << "ecmpsim: resuming from "
         << escape_text(sources.size() == 1 ? sources.front() : sources.front() + " and " + sources.back())
         << ": " << resumed_.done << " of " << total << " variants done\n";
  // The first save, before the work, shows that the file can be written; a
  // file that holds the run already needs only the space for the next.
  check_space(*path_, 4096 + resumed_.done * resumed_.values.width() * sizeof(double));
  if (!file_is_run) write_checkpoint(*path_, id_, resumed_, inputs_);
  saved_ = resumed_.done;
}

void SweepCheckpoint::save(const SweepRun& run) {
  try {
    write_checkpoint(*path_, id_, run, inputs_);
    saved_ = run.done;
    failing_ = false;
  } catch (const InputError& e) {
    if (!failing_)
      err_ << "ecmpsim: warning: the checkpoint was not saved: " << one_line(e.describe())
           << "; the sweep goes on and will write its output\n";
    failing_ = true;
  }
}

SweepRun SweepCheckpoint::run(unsigned threads, SweepControl& control) {
  const std::uint64_t total = sweep_.space().size();
  if (!path_) return run_sweep(sweep_, 0, total, threads, &control);
  SweepRun run = std::move(resumed_);
  control.finished.store(run.done);
  Checkpointing c;
  c.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(every_));
  c.final_save = false;
  c.save = [this](const SweepRun& now) { save(now); };
  continue_sweep(sweep_, run, threads, control, c);
  run.values.resize(run.done);
  return run;
}

void SweepCheckpoint::finish(const SweepRun& run, bool output_written) {
  if (!path_) return;
  if (output_written && !run.interrupted && by_default_) {
    std::remove(path_->c_str());
    return;
  }
  if (run.done != saved_ || failing_) save(run);
}

SweepRun run_checkpointed_on_ranks(const CheckpointFlags& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   std::ostream& err, std::optional<std::string>& written) {
  if (f.checkpoint.empty() && f.resume.empty()) return ranks.run_sweep(sweep, threads, control, nullptr);
  const std::string base = !f.checkpoint.empty() ? f.checkpoint : f.resume;
  const std::size_t jobs = sweep.base().jobs().size();
  std::vector<std::string> inputs = spec_inputs(sweep.base().spec());
  if (!out.empty() && out != "-") inputs.push_back(out);
  RankCheckpointing ck;
  ck.share.values = ValueTable(jobs);
  ranks.agree([&] {
    check_checkpoint_target(base, out, inputs);
    // --resume's files, else the checkpoint's own when they are there (a run started again).
    const std::string from = !f.resume.empty() ? f.resume : holds_checkpoint(base) ? base : std::string();
    if (!from.empty()) {
      RankCheckpoints old;
      try {
        old = read_rank_checkpoints(from, id, jobs, sweep.space().size(), ranks.rank() == 0);
      } catch (const InputError& e) {
        if (f.resume.empty()) refuse_own(e, false);
        throw;
      }
      ck.finished = std::move(old.finished);
      if (ranks.rank() == 0) ck.share = std::move(old.merged);
    }
    ck.stale = rank_checkpoint_files(base, ranks.size());
    // A single process's checkpoint at BASE: carried over by rank 0 when resumed, else of an earlier sweep.
    if (fs::exists(base)) ck.stale.push_back(base);
  });
  ck.share.rank = ranks.rank();
  ck.share.ranks = ranks.size();
  ck.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(f.every));
  const std::string path = rank_checkpoint_path(base, ranks.rank(), ranks.size());
  // The first save (every rank's, before the work) must succeed; a later one that fails warns.
  bool first = true, failing = false;
  ck.save = [&](const CheckpointShare& share) {
    try {
      write_checkpoint_share(path, id, share, inputs);
      failing = false;
    } catch (const InputError& e) {
      if (first) throw;
      if (!failing) err << "ecmpsim: warning: the checkpoint was not saved: " << one_line(e.describe()) << "; the sweep goes on\n";
      failing = true;
    }
    first = false;
  };
  written = base;
  return ranks.run_sweep(sweep, threads, control, &ck);
}

}  // namespace ecmpsim::cli
