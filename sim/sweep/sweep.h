// `ecmpsim sweep`: the cartesian product of sweep axes, evaluated in parallel.
//
// Variants are numbered 0..size()-1 in mixed radix over the axes, outermost
// first: scenario, algorithm, placement seed, QPs, QPN base, source-port base,
// seed (so consecutive variants share a workload and differ in seed). An
// adaptive or spraying scenario hashes nothing, so it takes neither the
// algorithm nor the seed axis: it has one variant per workload, not one per
// seed (its block of indices is shorter; hashless() names it for the outputs
// to say so). A
// variant's result is a pure function of (config, axes, index): any range of
// indices can be evaluated on its own, by any number of threads or processes,
// and ranges concatenated in index order give the same array as one run;
// summarize() of that array is the whole report.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/base/parallel.h"
#include "sim/model/simulation.h"
#include "sim/sweep/sweep_kernel.h"
#include "sim/sweep/sweep_stats.h"
#include "sim/sweep/value_table.h"
#include "sim/config/overrides.h"
#include "sim/config/sweep_axis.h"

namespace ecmpsim {

class VariantSpace {
 public:
  // Throws InputError for an unknown scenario or algorithm.
  VariantSpace(const Spec& spec, const SweepSpec& axes);

  // Total variants; saturates at UINT64_MAX when the product overflows.
  std::uint64_t size() const noexcept { return size_; }
  const SweepSpec& axes() const noexcept { return axes_; }
  std::span<const std::string> scenarios() const noexcept { return scenarios_; }

  struct Coord {
    std::uint64_t combo = 0;     // scenario x algorithm
    std::uint64_t workload = 0;  // placement x QPs x QPN base x source-port base
    std::uint64_t seed = 0;      // index into the seed axis
  };
  Coord coord(std::uint64_t index) const noexcept;
  std::uint64_t combos() const noexcept { return combo_begin_.back(); }
  // The first variant of (scenario, algorithm) combination `combo`.
  std::uint64_t first_of_combo(std::uint64_t combo) const noexcept;
  // Its number of variants (a hashless scenario's block has no seed axis).
  std::uint64_t combo_size(std::uint64_t combo) const noexcept;
  // Whether the i-th swept scenario hashes (takes the algorithm and seed axes).
  bool hashes(std::size_t scenario) const noexcept { return hashes_[scenario] != 0; }
  // The swept scenarios that hash nothing (adaptive, spray), when an algorithm or
  // seed axis is given: the axes do not apply to them.
  std::vector<std::string> hashless() const;
  // The overrides of variant `index` (what `ecmpsim run` needs to reproduce it).
  Overrides at(std::uint64_t index) const;
  // The number of values on `axis` (1 when it is not swept), and which of
  // them variant `index` takes.
  std::uint64_t axis_size(SweepAxis axis) const noexcept;
  std::uint64_t axis_index(std::uint64_t index, SweepAxis axis) const noexcept;

 private:
  struct Digits {
    std::size_t scenario;
    std::uint64_t algo, workload, seed;
  };
  Digits digits(std::uint64_t index) const noexcept;

  SweepSpec axes_;
  std::vector<std::string> scenarios_;
  std::vector<std::uint8_t> hashes_;          // per scenario
  std::vector<std::uint64_t> begin_{0};       // per scenario + 1: its first variant
  std::vector<std::uint64_t> combo_begin_{0}; // per scenario + 1: its first combo
  std::uint64_t algos_ = 1, placements_ = 1, qps_ = 1, qpn_ = 1, sport_ = 1, seeds_ = 1, workloads_ = 1;
  std::uint64_t size_ = 0;
};

// Everything read-only a sweep shares across threads.
class Sweep {
 public:
  Sweep(Spec spec, const SweepSpec& axes);

  const VariantSpace& space() const noexcept { return space_; }
  const Simulation& base() const noexcept { return *base_; }
  const SweepPlan& plan(std::uint64_t combo) const { return *plans_[combo]; }
  // The flows of variant `index`'s workload.
  workloads::Flows flows_of(std::uint64_t index) const;

 private:
  Spec spec_;
  VariantSpace space_;
  std::unique_ptr<Simulation> base_;
  std::vector<std::unique_ptr<SweepPlan>> plans_;
};

// Shared with the caller while a sweep runs: a stop request (from Ctrl-C),
// the number of variants finished, for a progress bar (counted as they
// finish, many times within each chunk), and how long a chunk should take
// (sim/base/parallel.h; it changes how work is split, never the results).
// `prefix` is the running sweep's finished prefix (from its first variant)
// and the decisions it made, added once those rows are written: a checkpoint
// saver reads it (get()) and then those rows.
struct SweepControl {
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> finished{0};
  FinishedPrefix prefix;
  std::chrono::nanoseconds chunk_target = kChunkTarget;
};

struct SweepRun {
  std::uint64_t begin = 0;
  std::uint64_t done = 0;              // variants begin .. begin + done - 1 were evaluated
  ValueTable values;                   // their rows (value_table.h), in index order
  std::uint64_t decisions = 0;         // flow-hop decisions made
  bool interrupted = false;
};

// InputError naming --max-memory when the sweep's estimated peak on `threads`
// threads (its base, its plans, every thread's routes and flow models, and a
// row of results per variant) is above the spec's limit: a sweep too large
// for the machine is refused before it runs, with or without --force.
void check_sweep_memory(const Sweep& sweep, unsigned threads);

// Evaluates variants [begin, end) with `threads` threads (see sim/base/parallel.h).
// Threads take chunks of consecutive indices in order, sized to take about
// `control->chunk_target` each, so when `control->stop` is set (checked
// before every variant) the finished variants still form a prefix; `done` is
// its length.
SweepRun run_sweep(const Sweep& sweep, std::uint64_t begin, std::uint64_t end, unsigned threads,
                   SweepControl* control = nullptr);
// As run_sweep, with variant begin + i's row written at rows + i x width (the
// caller's room for end - begin rows, which another thread may read up to
// control->prefix as the sweep runs): the result's values stay empty.
SweepRun run_sweep_into(const Sweep& sweep, std::uint64_t begin, std::uint64_t end, unsigned threads,
                        SweepControl* control, double* rows);

// One summary per (scenario, algorithm) of `space`, in combination order,
// over that combination's variants among `values` (the variants from index 0
// on: all of them, or the prefix an interrupted sweep finished); best and
// worst are offsets into `values`. A combination without variants in
// `values` has samples 0.
std::vector<SweepSummary> summarize_each(const VariantSpace& space, ValueView values, unsigned bins,
                                         std::optional<double> threshold, SweepMetric metric);

// One ECMP scenario over a range of hash seeds, every other axis as the
// config has it: the distribution `ecmpsim report` and `reproduce` show.
struct SeedSweep {
  std::string scenario;
  UintRange seeds;
  ValueTable values;                 // per seed, in order
  SweepSummary summary;             // ranked by FIM: best and worst are the lowest and highest FIM
  std::vector<std::string> notes;    // when the seeds changed nothing: why (sim/sweep/sweep_notes.h)
  std::uint64_t seed(std::uint64_t i) const noexcept { return seeds.at(i); }
  std::vector<double> column(SweepMetric m) const;
};

// The sweep engine on the seed axis of `scenario` (which must be an ECMP
// scenario of `spec`), with the scenario's own seed mode; `bins` histogram bins.
SeedSweep sweep_seeds(const Spec& spec, const ScenarioSpec& scenario, UintRange seeds, unsigned threads,
                      unsigned bins = 20);

}  // namespace ecmpsim
