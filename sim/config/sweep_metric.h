// The per-variant metrics of `ecmpsim sweep`, and which way is better.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hashing/named.h"

namespace ecmpsim {

// Over flows per switch-to-switch link (as `ecmpsim run`), plus the flow
// model's predicted slowdown of all flows against their ideal time.
// A variant's values hold these first, then a bus bandwidth per job (sim/sweep/value_table.h).
enum class SweepMetric : std::uint8_t { Fim, MaxMean, Cov, Jain, MaxFlows, Slowdown };
inline constexpr std::size_t kSweepMetrics = 6;

inline constexpr std::array<Named<SweepMetric>, kSweepMetrics> kSweepMetricNames{
    {{SweepMetric::Fim, "fim"},
     {SweepMetric::MaxMean, "max_mean"},
     {SweepMetric::Cov, "cov"},
     {SweepMetric::Jain, "jain"},
     {SweepMetric::MaxFlows, "max_flows"},
     {SweepMetric::Slowdown, "slowdown"}}};

// The metric in slot `m` of SweepValues (the enum's order).
inline std::string_view sweep_metric_name(std::size_t m) noexcept { return kSweepMetricNames[m].name; }
inline std::string_view sweep_metric_name(SweepMetric m) noexcept { return name_of(kSweepMetricNames, m); }

// Jain's fairness index is best at 1, its maximum; every other metric is best when lowest.
constexpr bool higher_is_better(SweepMetric m) noexcept { return m == SweepMetric::Jain; }

}  // namespace ecmpsim
