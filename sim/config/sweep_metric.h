// The per-variant metrics of `ecmpsim sweep`, and which way is better.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/base/error.h"
#include "sim/base/named.h"

namespace ecmpsim {

// Over flows per switch-to-switch link (as `ecmpsim run`), plus the flow
// model's predicted slowdown of all flows against their ideal time, and, when
// a job asks for sizes (issue 32), nccl-tests' busbw in GB/s priced by NCCL's
// cost model on the variant's routed rates: at one size (`busbw_at`, the
// largest of the sweep unless [sweep] busbw_at / --busbw-at names one) and the
// mean over the sweep's sizes (`busbw_avg`, as vendors quote it); with several
// such jobs, the lowest job's value. A variant's values hold these first, then
// a bus bandwidth per job (sim/sweep/value_table.h).
enum class SweepMetric : std::uint8_t { Fim, MaxMean, Cov, Jain, MaxFlows, Slowdown, BusbwAt, BusbwAvg };
inline constexpr std::size_t kSweepMetrics = 8;

inline constexpr std::array<Named<SweepMetric>, kSweepMetrics> kSweepMetricNames{
    {{SweepMetric::Fim, "fim"},
     {SweepMetric::MaxMean, "max_mean"},
     {SweepMetric::Cov, "cov"},
     {SweepMetric::Jain, "jain"},
     {SweepMetric::MaxFlows, "max_flows"},
     {SweepMetric::Slowdown, "slowdown"},
     {SweepMetric::BusbwAt, "busbw_at"},
     {SweepMetric::BusbwAvg, "busbw_avg"}}};

// The metric in slot `m` of SweepValues (the enum's order).
inline std::string_view sweep_metric_name(std::size_t m) noexcept { return kSweepMetricNames[m].name; }
inline std::string_view sweep_metric_name(SweepMetric m) noexcept { return name_of(kSweepMetricNames, m); }

// Jain's fairness index is best at 1, its maximum, and bandwidth when highest;
// every other metric is best when lowest.
constexpr bool higher_is_better(SweepMetric m) noexcept {
  return m == SweepMetric::Jain || m == SweepMetric::BusbwAt || m == SweepMetric::BusbwAvg;
}

// The metrics priced per message size: only with a size table (and the flow model).
constexpr bool per_size(SweepMetric m) noexcept { return m == SweepMetric::BusbwAt || m == SweepMetric::BusbwAvg; }

// A bound on a metric, as `ecmpsim plan --target "busbw_at>=300"` states it:
// the metric, a comparison and the value a variant's metric must reach. The
// comparisons are spelt as written; a variant whose metric is undefined (NaN)
// meets none.
enum class TargetOp : std::uint8_t { AtLeast, AtMost, Above, Below };
inline constexpr std::array<Named<TargetOp>, 4> kTargetOps{{{TargetOp::AtLeast, ">=", "at least"},
                                                            {TargetOp::AtMost, "<=", "at most"},
                                                            {TargetOp::Above, ">", "above"},
                                                            {TargetOp::Below, "<", "below"}}};

struct SweepTarget {
  SweepMetric metric = SweepMetric::Fim;
  TargetOp op = TargetOp::AtLeast;
  double value = 0;
  bool met(double x) const noexcept {
    switch (op) {
      case TargetOp::AtLeast: return x >= value;
      case TargetOp::AtMost: return x <= value;
      case TargetOp::Above: return x > value;
      case TargetOp::Below: return x < value;
    }
    return false;
  }
};

// "METRIC>=X" (or <=, >, <; spaces allowed around each part) as a target;
// InputError at `at` naming the cause: no comparison, an unknown metric, a
// value that is not a finite number.
SweepTarget parse_sweep_target(std::string_view text, const SourcePos& at);
// The target as parse_sweep_target reads it back ("busbw_at >= 300").
std::string target_text(const SweepTarget& t);

}  // namespace ecmpsim
