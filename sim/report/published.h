// The catalogue of published ECMP results (`ecmpsim reproduce --list`,
// `reproduce NAME`): each experiment one row naming its source, the figure it
// published in the source's unit, the config that restates its inputs
// (configs/published/), the metric ecmpsim computes and the axes the source
// leaves open. Running a row (sim/app/catalogue.h) has the sweep engine
// evaluate the metric over every combination of those axes; judge()
// summarises the distribution (min, p10, median, p90, max), ranks the axes
// by how far they move it and gives the verdict by the rule of
// docs/published.md. The rule, the precisions, the metrics and the axes are
// tables here, so the list, the docs page and the outputs read the same text.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/format.h"
#include "sim/base/named.h"

namespace ecmpsim {

// What ecmpsim computes for an experiment, in the unit its source uses.
enum class PublishedMetric : std::uint8_t { FimReduction, BusbwGain, Busbw, EffectiveGbps, CompletionGain, IdealGap };

struct PublishedMetricRow : Named<PublishedMetric> {
  std::string_view unit;  // the source's unit
  double scale;           // the metric's value x scale is in `unit`
  bool treatment;         // compares a treatment scenario with the baseline
};

inline constexpr std::array<PublishedMetricRow, 6> kPublishedMetrics{{
    {{PublishedMetric::FimReduction, "fim-reduction",
      "1 - FIM(treatment) / FIM(baseline): the flow imbalance metric over switch-to-switch links"},
     "%", 100, true},
    {{PublishedMetric::BusbwGain, "busbw-gain",
      "busbw(treatment) / busbw(baseline) - 1, nccl-tests' busbw from the size table (the mean over the sizes, "
      "nccl-tests' \"Avg bus bandwidth\", or one size)"},
     "%", 100, true},
    {{PublishedMetric::Busbw, "busbw",
      "the baseline's nccl-tests busbw from the size table (the mean over the sizes, or one size)"},
     "GB/s", 1, false},
    {{PublishedMetric::EffectiveGbps, "effective-gbps",
      "NIC speed x ideal / predicted completion: what each link of the collective delivers on average"},
     "Gb/s", 1, false},
    {{PublishedMetric::CompletionGain, "completion-gain",
      "completion(baseline) / completion(treatment) - 1: the collective's speed-up, predicted by the flow model"},
     "%", 100, true},
    {{PublishedMetric::IdealGap, "ideal-gap",
      "1 - ideal / predicted completion: the throughput the baseline loses against a perfectly balanced fabric"},
     "%", 100, false},
}};

const PublishedMetricRow& published_metric(PublishedMetric m) noexcept;

// What a source leaves open; every combination of an experiment's axes is a
// case. `pin` is the measurement that would fix the axis: what an
// undetermined verdict asks for.
enum class UnknownAxis : std::uint8_t { Placement, QpnBase, Channels, SeedMode, HashAlgo, HashSeed };

struct UnknownAxisRow : Named<UnknownAxis> {
  std::string_view pin;
};

inline constexpr std::array<UnknownAxisRow, 6> kUnknownAxes{{
    {{UnknownAxis::Placement, "placement",
      "the nodes the job got: the config's placement, then random placements with seeds 0-3"},
     "the job's node list in rank order (the scheduler's allocation, or NCCL_DEBUG=INFO's rank-to-host lines)"},
    {{UnknownAxis::QpnBase, "qpn-base",
      "the first QP number each NIC allocates: the config's, then 3 more 4099 apart (source ports follow)"},
     "the QP numbers of the run's connections (`rdma resource show qp` on each host during the test)"},
    {{UnknownAxis::Channels, "channels", "NCCL channels: the config's, half and double"},
     "NCCL's channel count for the run (NCCL_DEBUG=INFO prints the channels it builds)"},
    {{UnknownAxis::SeedMode, "seed-mode",
      "how the hash seed reaches the ECMP switches: the config's, then the same on every switch, one derived per "
      "tier, one derived per switch (a fabric of one seed polarizes)"},
     "the ECMP hash seed configured on each switch (its load-balancing configuration)"},
    {{UnknownAxis::HashAlgo, "hash-algo",
      "every ECMP switch's hash: the config's, then crc16-ccitt, crc32, toeplitz, xxh3"},
     "the switches' ECMP hash algorithm and fields (their load-balancing configuration)"},
    {{UnknownAxis::HashSeed, "hash-seed",
      "every ECMP switch's hash seed: the config's and the next ones up (0, 1, 2, ... for the config's 0)"},
     "the ECMP hash seed configured on the switches (their load-balancing configuration)"},
}};

constexpr std::uint8_t axis_bit(UnknownAxis a) noexcept { return static_cast<std::uint8_t>(1u << static_cast<unsigned>(a)); }

// How precisely a source states its figure: each kind a rule that turns the
// figure into the interval the verdict compares (published_interval()).
enum class Precision : std::uint8_t { Stated, About, UpTo };

inline constexpr std::array<Named<Precision>, 3> kPrecisions{{
    {Precision::Stated, "stated",
     "a figure stated to its last digit: half a unit of that digit either side (+9.70% is 9.695% to 9.705%)"},
    {Precision::About, "about",
     "\"~X\": half the rounding step the figure shows either side, 5 units of its last digit for a multiple of 10, "
     "2.5 for a multiple of 5, 0.5 otherwise (~100 is 95 to 105, ~58 is 57.5 to 58.5)"},
    {Precision::UpTo, "up to",
     "\"up to X\": the source's best run, so every value from 0 to X, X read as about (up to 40% is 0% to 45%)"},
}};

// A closed interval in the metric's unit.
struct Interval {
  double lo = 0, hi = 0;
};

// The interval a figure of `value`, stated with `decimals` decimals and
// precision `p`, stands for (kPrecisions' rules).
Interval published_interval(double value, Precision p, unsigned decimals) noexcept;

// One published experiment: a row of the catalogue.
struct PublishedExperiment {
  std::string_view name;    // `reproduce NAME`
  std::string_view source;  // title, venue, URL or arXiv id
  std::string_view figure;  // the published figure as the source states it
  double published;         // the same in the metric's unit
  Precision precision;      // how the source states it
  std::uint8_t decimals;    // the decimals the source gives (Stated, About)
  PublishedMetric metric;
  std::string_view config;  // under the repository root: configs/published/X.toml
  std::string_view baseline, treatment;  // scenario names; treatment empty for a one-run metric
  std::uint32_t qps;            // QPs per connection of every job (0: the config's)
  std::uint32_t treatment_qps;  // the treatment's (0: as the baseline's)
  std::uint32_t nodes;          // every job's nodes (0: the config's), so one config serves a series
  std::uint64_t at_size;        // busbw metrics: the size-table row in bytes (0: the mean over the sizes)
  std::uint8_t axes;            // axis_bit()s of the unknown axes
  std::uint32_t seeds;          // hash-seed axis: how many seeds
  std::string_view lacks;       // what the model leaves out that could explain a miss
};

std::span<const PublishedExperiment> published_experiments() noexcept;
// The row named `name`, or nullptr.
const PublishedExperiment* find_published(std::string_view name) noexcept;

// The verdict rule (docs/published.md), one row each with its condition,
// decided in the table's order from the bottom: outside min-max first, then
// a wide p10-p90, then whether the narrow p10-p90 meets the figure.
enum class Verdict : std::uint8_t { Reproduced, Undetermined, NotReproduced };
inline constexpr std::array<Named<Verdict>, 3> kVerdicts{{
    {Verdict::Reproduced, "reproduced",
     "the published interval overlaps ecmpsim's p10-p90, and p90 - p10 is at most 50% of the published magnitude: "
     "the inputs the source gives pin the result, and it is the published one"},
    {Verdict::Undetermined, "undetermined by the published inputs",
     "the published interval overlaps min-max, but p90 - p10 exceeds 50% of the published magnitude: what the "
     "source leaves open decides the outcome; the reason names the unknown that moves it most and the measurement "
     "that would pin it"},
    {Verdict::NotReproduced, "not reproduced",
     "the published interval lies outside min-max, or p10-p90 is narrow (as for reproduced) and misses it: the "
     "inputs pin a result, and not the published one"},
}};
// The widest p10-p90, as a fraction of the published magnitude, that pins a result.
inline constexpr double kPinnedWidth = 0.5;

// Nearest-rank order statistics of the defined cases.
struct Distribution {
  std::uint64_t cases = 0;
  double min = 0, p10 = 0, p50 = 0, p90 = 0, max = 0;
};
Distribution distribution_of(std::vector<double> values);  // NaNs left out
// The rule over closed intervals: `figure` is the published interval and
// `magnitude` the published figure's absolute value; NotReproduced for an
// empty distribution.
Verdict verdict_of(Interval figure, double magnitude, const Distribution& d) noexcept;

// How far one axis moves the metric: the median over the cases with each of
// its values; spread = the largest median minus the smallest.
struct AxisEffect {
  UnknownAxis axis;
  std::vector<std::string> values;
  std::vector<double> medians;
  double spread = 0;
};

struct PublishedCase {
  std::vector<std::string> values;  // per declared axis, in kUnknownAxes order
  double value = 0;                 // in the metric's unit; NaN when undefined
};

struct PublishedResult {
  const PublishedExperiment* experiment = nullptr;
  std::string config;              // the config's path as loaded
  std::vector<UnknownAxis> axes;   // declared, kUnknownAxes order
  std::vector<PublishedCase> cases;  // case 0: the config's own assumptions
  double at_config = 0;            // case 0's value
  Interval figure;                 // the published interval
  Distribution dist;
  std::vector<AxisEffect> effects;  // largest spread first
  Verdict verdict = Verdict::NotReproduced;
  std::string reason;  // one line: where the figure lies and, when missed, what the model lacks
};

// Completes a run's result from its cases (sim/app/catalogue.h runs them):
// at_config, the distribution, the axes' effects, the figure's interval, the
// verdict and its reason.
void judge(PublishedResult& r);

// `value` in the metric's unit, as every output prints it.
std::string published_value(PublishedMetric m, double value);
// The figure with its precision and interval: "100.0 GB/s (about, 95.0 to 105.0 GB/s)".
std::string published_range(const PublishedExperiment& e, Interval figure);

// `reproduce --list`: every row with its source, figure and config.
Result published_list_result();
// `reproduce NAME`: table, JSON and CSV (one row per case); `r` outlives it.
Result published_result(const PublishedResult& r);

// `ecmpsim report --published`: one self-contained HTML document, an index of
// every experiment, then each one's distribution with the published figure
// marked (sim/report/published_html.cpp).
std::string published_html(std::span<const PublishedResult> results);

// docs/published.md: the verdict rule and every experiment's result.
std::string published_page(std::span<const PublishedResult> results);

}  // namespace ecmpsim
