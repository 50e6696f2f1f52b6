// The per-variant metrics of `ecmpsim sweep`, and which way is better.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ecmpsim {

// Over flows per switch-to-switch link (as `ecmpsim run`), plus the flow
// model's predicted slowdown of all flows against their ideal time.
enum class SweepMetric : std::uint8_t { Fim, MaxMean, Cov, Jain, MaxFlows, Slowdown };
inline constexpr std::size_t kSweepMetrics = 6;
using SweepValues = std::array<double, kSweepMetrics>;

inline constexpr std::array<std::string_view, kSweepMetrics> kSweepMetricNames{"fim",  "max_mean",  "cov",
                                                                               "jain", "max_flows", "slowdown"};
inline constexpr std::string_view kSweepMetricChoices =
    "\"fim\" | \"max_mean\" | \"cov\" | \"jain\" | \"max_flows\" | \"slowdown\"";

inline std::string_view sweep_metric_name(std::size_t m) noexcept { return kSweepMetricNames[m]; }
inline std::string_view sweep_metric_name(SweepMetric m) noexcept { return kSweepMetricNames[static_cast<std::size_t>(m)]; }

inline std::optional<SweepMetric> parse_sweep_metric(std::string_view s) noexcept {
  for (std::size_t m = 0; m < kSweepMetrics; ++m)
    if (kSweepMetricNames[m] == s) return static_cast<SweepMetric>(m);
  return std::nullopt;
}

// Jain's fairness index is best at 1, its maximum; every other metric is best when lowest.
constexpr bool higher_is_better(SweepMetric m) noexcept { return m == SweepMetric::Jain; }

}  // namespace ecmpsim
