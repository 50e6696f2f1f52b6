// The per-variant metrics of `ecmpsim sweep`, and which way is better.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

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

}  // namespace ecmpsim
