// A sweep's checkpoint (see sweep_checkpoint.h): its identity, the files it
// resumes or refuses, its saves, and its end after the output.
#include "sim/app/sweep_checkpoint.h"

#include <sys/statvfs.h>
#include <sys/stat.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/app/load.h"
#include "sim/base/input_file.h"
#include "sim/base/output_file.h"
#include "sim/base/text.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/rank_checkpoints.h"

#ifndef ECMPSIM_VERSION
#define ECMPSIM_VERSION "dev"
#endif

namespace ecmpsim::app {
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
  const std::string bytes = read_input_file(path, {path, 0, 0, {}}, "config input", {max_bytes, "max_config_bytes"});
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
                                  (by_default ? "pass " + option_ref("no_checkpoint")
                                              : "name another " + option_ref("checkpoint")));
}

// The target can be written before the work: not the output, not an input,
// a regular file or a new one in a writable directory.
void check_checkpoint_target(const std::string& path, const std::string& out, std::span<const std::string> inputs) {
  struct stat st {}, o {};
  if (!out.empty() && ::stat(path.c_str(), &st) == 0 && ::stat(out.c_str(), &o) == 0 && st.st_dev == o.st_dev &&
      st.st_ino == o.st_ino)
    throw InputError(option_at("checkpoint", path), "the checkpoint would replace " + option_ref("out"));
  check_output(path, inputs);
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(option_at("checkpoint", path), "not a regular file");
}

// Space for a save of `bytes` beside `path` (a temporary, then renamed over it).
void check_space(const std::string& path, std::uint64_t bytes) {
  const fs::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) return;  // the first save will say why
  const std::uint64_t free = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  if (free < bytes)
    throw InputError(option_at("checkpoint", path), "no space for a first save: it takes " + std::to_string(bytes) +
                                                       " bytes, " + std::to_string(free) + " are free in " + dir);
}

// The rows of a file set's finished variants put in place in `run` (sized to the sweep).
void merge_into(SweepRun& run, const CheckpointShare& share) {
  const std::size_t width = run.values.width();
  std::uint64_t row = 0;
  for (const VariantRange& range : share.ranges) {
    std::memcpy(run.values[range.begin].data(), share.values[row].data(), range.size() * width * sizeof(double));
    row += range.size();
  }
  run.decisions += share.decisions;
}

// The size options as given, "minbytes=8 maxbytes=1048576 nccl_algo=ring"; "none" without any.
std::string sizes_identity(const SizeFlags& f) {
  std::string out;
  for (const auto& [key, v] : {std::pair{"minbytes", f.minbytes}, std::pair{"maxbytes", f.maxbytes},
                               std::pair{"stepfactor", f.stepfactor}})
    if (v) out += (out.empty() ? "" : " ") + std::string(key) + "=" + std::to_string(*v);
  for (const auto& [key, v] : {std::pair{"nccl_algo", &f.algo}, std::pair{"nccl_proto", &f.proto},
                               std::pair{"size_coupling", &f.coupling}})
    if (!v->empty()) out += (out.empty() ? "" : " ") + std::string(key) + "=" + *v;
  return out.empty() ? "none" : one_field_line(out);
}

std::uint64_t prefix_of(const std::vector<VariantRange>& joined) {
  return !joined.empty() && joined.front().begin == 0 ? joined.front().end : 0;
}

// A note for each file whose last bytes, a save cut short, were dropped.
void note_dropped(const Notice& notice, const std::string& path, std::uint64_t bytes) {
  if (bytes > 0)
    notice("note: " + path + ": its last " + std::to_string(bytes) +
           " bytes, a save cut short, were dropped; their variants are evaluated again");
}

// A save's failure as a notice line, options left for the door to spell.
std::string not_saved(const InputError& e) { return one_line(e.describe(option_ref)); }

}  // namespace

CheckpointId checkpoint_id(const Sweep& sweep, const SizeFlags& sizes) {
  const Spec& spec = sweep.base().spec();
  CheckpointId id{{"version", ECMPSIM_VERSION}, {"build", kBuildId}};
  const std::uint64_t max = spec.limits.max_config_bytes;
  id.emplace_back("config", file_digest(spec.source, max));
  if (!spec.fabric.topology.source.empty()) id.emplace_back("topology", file_digest(spec.fabric.topology.source, max));
  for (const ScenarioSpec& s : spec.scenarios)
    if (s.routes_file) id.emplace_back("routes." + field_safe(s.name), file_digest(s.routes_file->path, max));
  id.emplace_back("sizes", sizes_identity(sizes));
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

SweepCheckpoint::SweepCheckpoint(const SweepCheckpointing& f, const std::string& out, const Sweep& sweep, CheckpointId id,
                                 const Notice& notice)
    : sweep_(sweep), id_(std::move(id)), notice_(notice), every_(f.every) {
  const bool named = !f.checkpoint.empty() || !f.resume.empty();
  const bool beside_out = !out.empty() && out != "-" && output_kind(out) == OutputKind::Replace;
  if (!named && (f.off || !beside_out)) return;
  path_ = !f.checkpoint.empty() ? f.checkpoint : !f.resume.empty() ? f.resume : out + ".checkpoint";
  by_default_ = f.checkpoint.empty() && beside_out && *path_ == out + ".checkpoint";
  std::vector<std::string> inputs = spec_inputs(sweep.base().spec());
  check_checkpoint_target(*path_, out, inputs);
  if (!out.empty() && out != "-") inputs.push_back(out);
  const std::uint64_t total = sweep.space().size();
  const std::size_t jobs = sweep.base().jobs().size();
  resumed_.values = ValueTable(jobs);
  resumed_.values.resize(total);
  // Other files it resumes: resume's (file and rank files), and the checkpoint's own rank files.
  std::vector<VariantRange> others;
  std::vector<std::string> sources;
  const auto read_set = [&](const std::string& base, bool own) {
    RankCheckpoints r;
    try {
      r = read_rank_checkpoints(base, id_, jobs, total, true);
    } catch (const InputError& e) {
      if (own) refuse_own(e, by_default_);
      throw;
    }
    for (const auto& [file, bytes] : r.dropped) note_dropped(notice_, file, bytes);
    merge_into(resumed_, r.merged);
    others.insert(others.end(), r.finished.begin(), r.finished.end());
    sources.push_back(base);
  };
  if (!f.resume.empty() && f.resume != *path_) read_set(f.resume, false);
  if (!rank_checkpoint_files(*path_, 0).empty() || (f.resume == *path_ && !fs::exists(*path_)))
    read_set(*path_, f.resume != *path_);
  // The checkpoint's own file, opened to add to: created, or resumed.
  const bool existed = fs::exists(*path_);
  try {
    writer_ = std::make_unique<CheckpointWriter>(*path_, id_, -1, 0, jobs, total, inputs);
  } catch (const InputError& e) {
    if (existed && std::string_view(e.what()).find("another running process") == std::string_view::npos)
      refuse_own(e, by_default_);
    throw;
  }
  CheckpointShare& held = writer_->held();
  note_dropped(notice_, *path_, held.dropped);
  merge_into(resumed_, held);
  if (!writer_->created() && std::find(sources.begin(), sources.end(), *path_) == sources.end())
    sources.push_back(*path_);
  writer_->held_elsewhere(others);
  std::vector<VariantRange> all = others;
  all.insert(all.end(), held.ranges.begin(), held.ranges.end());
  finished_ = join_ranges(std::move(all));
  held = CheckpointShare();  // its rows are in resumed_ now
  resumed_.done = prefix_of(finished_);
  resumed_.interrupted = resumed_.done < total;
  std::uint64_t found = 0;
  for (const VariantRange& r : finished_) found += r.size();
  if (!sources.empty())
    notice_("resuming from " +
            escape_text(sources.size() == 1 ? sources.front() : sources.front() + " and " + sources.back()) +
            ": " + std::to_string(found) + " of " + std::to_string(total) + " variants done");
  // The other files stay where they are: this one gets only what this run evaluates.
  check_space(*path_, 4096);
}

SweepCheckpoint::~SweepCheckpoint() = default;

void SweepCheckpoint::save(const SweepRun& run) {
  try {
    added_ = writer_->save({0, run.done}, run.values.view(), run.decisions) || added_;
    failing_ = false;
  } catch (const InputError& e) {
    if (!failing_)
      notice_("warning: the checkpoint was not saved: " + not_saved(e) + "; the sweep goes on and will write its output");
    failing_ = true;
  }
}

SweepRun SweepCheckpoint::run(unsigned threads, SweepControl& control) {
  const std::uint64_t total = sweep_.space().size();
  if (!path_) return run_sweep(sweep_, 0, total, threads, &control);
  SweepRun run = std::move(resumed_);
  std::uint64_t found = 0;
  for (const VariantRange& r : finished_) found += r.size();
  control.finished.store(found);
  // Only the variants no file held; their rows go in place.
  const std::vector<VariantRange> todo = ranges_missing(finished_, {0, total});
  SavingRun s;
  s.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(every_));
  // The last rows are added before the report is computed and written too (a
  // kill there loses nothing evaluated); finish() syncs them after the output.
  s.final_save = true;
  const std::size_t width = run.values.width();
  s.place = [&](VariantRange r) { return run.values.data() + r.begin * width; };
  s.finished = [&](VariantRange r, ValueView, std::uint64_t decisions) {
    run.decisions += decisions;
    finished_.push_back(r);
    finished_ = join_ranges(std::move(finished_));
    run.done = prefix_of(finished_);
  };
  s.save = [&] { save(run); };
  run_saving(sweep_, todo, threads, control, s);
  run.done = prefix_of(finished_);
  run.interrupted = run.done < total;
  run.values.resize(run.done);
  return run;
}

void SweepCheckpoint::finish(const SweepRun& run, bool output_written) {
  if (!path_) return;
  const bool done = output_written && !run.interrupted;
  if (!(done && by_default_)) save(run);
  // A default checkpoint, or one this run created and never added to (a merge
  // of files that held every variant), goes once the output is written.
  if (done && (by_default_ || (writer_->created() && !added_))) {
    writer_.reset();
    std::remove(path_->c_str());
    return;
  }
  try {
    if (!failing_) writer_->flush(true);
  } catch (const InputError& e) {
    notice_("warning: the checkpoint was not saved: " + not_saved(e));
  }
}

SweepRun run_checkpointed_on_ranks(const SweepCheckpointing& f, const std::string& out, const Sweep& sweep,
                                   unsigned threads, SweepControl& control, const CheckpointId& id, const Ranks& ranks,
                                   const Notice& notice, std::optional<std::string>& written) {
  if (f.checkpoint.empty() && f.resume.empty()) return ranks.run_sweep(sweep, threads, control, nullptr);
  const std::string base = !f.checkpoint.empty() ? f.checkpoint : f.resume;
  const std::size_t jobs = sweep.base().jobs().size();
  const std::uint64_t total = sweep.space().size();
  std::vector<std::string> inputs = spec_inputs(sweep.base().spec());
  RankCheckpointing ck;
  ck.share.values = ValueTable(jobs);
  std::unique_ptr<CheckpointWriter> writer;
  ranks.agree([&] {
    check_checkpoint_target(base, out, inputs);
    if (!out.empty() && out != "-") inputs.push_back(out);
    // resume's files, else the checkpoint's own when they are there (a run started again).
    const std::string from = !f.resume.empty() ? f.resume : holds_checkpoint(base) ? base : std::string();
    if (!from.empty()) {
      RankCheckpoints old;
      try {
        old = read_rank_checkpoints(from, id, jobs, total, ranks.rank() == 0);
      } catch (const InputError& e) {
        if (f.resume.empty()) refuse_own(e, false);
        throw;
      }
      if (ranks.rank() == 0)
        for (const auto& [file, bytes] : old.dropped) note_dropped(notice, file, bytes);
      ck.finished = std::move(old.finished);
      if (ranks.rank() == 0) ck.share = std::move(old.merged);
    }
    ck.stale = rank_checkpoint_files(base, ranks.size());
    // A single process's checkpoint at BASE: carried over by rank 0 when resumed, else of an earlier sweep.
    if (fs::exists(base)) ck.stale.push_back(base);
    // This rank's file, created or (a run at this rank count started again) added to.
    writer = std::make_unique<CheckpointWriter>(rank_checkpoint_path(base, ranks.rank(), ranks.size()), id,
                                                ranks.rank(), ranks.size(), jobs, total, inputs);
    writer->held() = CheckpointShare();
  });
  ck.share.rank = ranks.rank();
  ck.share.ranks = ranks.size();
  // Saves at most this far apart after a chunk (about 0.25 s): a kill loses at most about `every`.
  ck.every = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(0.9 * f.every));
  // The first save (every rank's, before the work) must succeed; a later one that fails warns.
  bool first = true, failing = false;
  ck.save = [&](const CheckpointShare& share) {
    try {
      writer->save(share);
      failing = false;
    } catch (const InputError& e) {
      if (first) throw;
      if (!failing) notice("warning: the checkpoint was not saved: " + not_saved(e) + "; the sweep goes on");
      failing = true;
    }
    first = false;
  };
  written = base;
  SweepRun run = ranks.run_sweep(sweep, threads, control, &ck);
  try {
    writer->flush(true);
  } catch (const InputError& e) {
    notice("warning: the checkpoint was not saved: " + not_saved(e));
  }
  return run;
}

}  // namespace ecmpsim::app
