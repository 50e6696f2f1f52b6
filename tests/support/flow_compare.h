// Comparing two runs of a flow model (tests/model/): the bound is
// 1e-9 relative on every flow's start rate and finish time and on every
// job's completion. Shared by the reference, grouping and local re-solve
// comparisons.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/model/flow_model.h"

namespace ecmpsim::test_support {

// Equal within 1e-9 relative; infinite only when both are.
inline bool close(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

// Flows (and jobs, by the job id given per flow; one job when none is given)
// whose start rate, finish time or completion differ beyond 1e-9 relative; a
// different flow count counts as one.
inline std::size_t disagreements(const FlowTimes& a, const FlowTimes& b, const std::vector<std::uint16_t>& job = {}) {
  if (a.finish.size() != b.finish.size()) return 1;
  std::size_t bad = 0;
  std::vector<double> done_a, done_b;
  for (std::size_t f = 0; f < a.finish.size(); ++f) {
    bad += !close(a.finish[f].value, b.finish[f].value) || !close(a.start_rate[f].value, b.start_rate[f].value);
    const std::size_t j = job.empty() ? 0 : job[f];
    done_a.resize(std::max(done_a.size(), j + 1), 0.0);
    done_b.resize(done_a.size(), 0.0);
    done_a[j] = std::max(done_a[j], a.finish[f].value);
    done_b[j] = std::max(done_b[j], b.finish[f].value);
  }
  for (std::size_t j = 0; j < done_a.size(); ++j) bad += !close(done_a[j], done_b[j]);
  return bad;
}

}  // namespace ecmpsim::test_support
