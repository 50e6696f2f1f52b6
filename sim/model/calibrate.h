// `ecmpsim calibrate`: the host parameters that make NCCL's cost model on the
// config's routed fabric match a real nccl-tests table. Two are fitted, the
// two NCCL's own model leaves to the host: the achievable share of the NICs'
// RoCEv2 goodput (nic_efficiency, which scales every bandwidth) and the
// network plugin's latencyInter (net_latency_us, added per network step).
// The fit minimizes the squared log ratio of predicted to measured time
// (out-of-place column) over the chosen sizes, by a deterministic grid that
// narrows around its best cell (docs/prediction.md, "Calibration").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/model/nccl_cost.h"
#include "sim/model/nccl_tests_output.h"
#include "workloads/nccl.h"

namespace ecmpsim {

// The fitted parameters' ranges: the [hosts] knobs' own (nic_efficiency in
// (0, 1]), latencyInter up to 100 us per step.
inline constexpr double kMinEfficiency = 0.01;
inline constexpr double kMaxLatencyUs = 100;

struct CalibrationRow {
  std::uint64_t size = 0;
  double measured_us = 0;
  double predicted_us = 0;
  double error = 0;  // predicted / measured - 1
  workloads::NcclAlgo algo = workloads::NcclAlgo::Ring;
  workloads::NcclProto proto = workloads::NcclProto::Simple;
  bool fitted = false;  // among the sizes the fit used
};

struct CalibrationFit {
  double nic_efficiency = 1;
  double net_latency_us = 0;
  bool efficiency_at_bound = false;  // the fit wanted more than 1 (the model's fabric is slower than measured)
  std::vector<CalibrationRow> rows;  // every row of the table
};

// Which sizes the fit uses (both bounds inclusive) and NCCL_ALGO / NCCL_PROTO when forced.
struct CalibrationOptions {
  std::uint64_t fit_min = 0;
  std::uint64_t fit_max = ~0ULL;
  std::optional<workloads::NcclAlgo> algo;
  std::optional<workloads::NcclProto> proto;
};

// `base` is the job as NCCL's tuner sees it with nic_efficiency 1 and
// net_latency_us 0 (its net_busbw the routed RoCEv2 goodput); the table's
// collective must be base's. Needs at least two sizes in the fit range.
CalibrationFit calibrate(const NcclComm& base, const NcclTestsTable& table, const CalibrationOptions& o);

// The rows' predictions with given parameters (the fit's last step, and the
// check that a snippet reproduces them).
std::vector<CalibrationRow> predict_rows(const NcclComm& base, const NcclTestsTable& table,
                                         const CalibrationOptions& o, double efficiency, double latency_us);

// The median of |error| over rows of size >= lo and < hi (NaN when none).
double median_abs_error(std::span<const CalibrationRow> rows, std::uint64_t lo, std::uint64_t hi);

}  // namespace ecmpsim
