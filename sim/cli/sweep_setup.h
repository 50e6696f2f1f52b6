// `ecmpsim sweep`'s options as values and the steps around the engine that
// every front end shares: the sweep they describe (flags over the config's
// [sweep] axes, checked before it runs) and the summaries of a finished run.
// The command line fills SweepOptions from its flags, the Python module
// (python/) from keyword arguments, so both check, run and summarize alike
// and report the same numbers and the same messages.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/size_flags.h"
#include "sim/cli/sweep_checkpoint.h"
#include "sim/config/spec.h"
#include "sim/output/sweep_output.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_rank.h"

namespace ecmpsim::cli {

struct SweepOptions {
  Limits limits;
  std::string config;
  // Each axis as its flag's text ("0:1000", "crc16-ccitt,xxh3"); empty: the config's.
  std::string seeds, seed_mode, sport_base, qpn_base, qps, algos, placement_seeds, scenario;
  unsigned threads = 0;
  std::optional<double> threshold;
  std::string metric;
  std::string rank_by, over;
  bool no_slowdown = false;
  std::optional<std::uint64_t> max_variants;
  bool force = false;
  bool pooled = false;
  unsigned bins = 20;
  std::string format;
  std::string out;
  SizeFlags sizes;
  std::optional<std::uint64_t> busbw_at;
  CheckpointFlags checkpoint;
  std::string shard;  // --shard I/N or slurm (sweep_shard.h)
};

// The sweep the options describe over `spec` (read from `path`, which
// messages name): the axes (flags over its [sweep] section), the size
// metrics and the variant limit checked. InputError names the flag.
std::unique_ptr<const Sweep> make_sweep(const SweepOptions& o, Spec spec, const std::string& path);

// --rank-by and --over checked against the sweep's axes, before it runs.
std::optional<RankSpec> rank_spec_from(const SweepOptions& o, const VariantSpace& space);

// What a finished (or interrupted) run is summarized into; report() borrows
// the sweep, the run and this, which must outlive it.
struct SweepSummaries {
  std::vector<SweepSummary> each;
  std::optional<SweepSummary> pooled;
  std::vector<std::string> notes;
  std::optional<SweepRanking> ranking;
  SweepReport report(const Sweep& sweep, const SweepRun& run) const {
    return {sweep, run, each, pooled ? &*pooled : nullptr, notes, ranking ? &*ranking : nullptr};
  }
};
SweepSummaries summarize_sweep(const SweepOptions& o, const Sweep& sweep, const SweepRun& run,
                               const std::optional<RankSpec>& rank);

}  // namespace ecmpsim::cli
