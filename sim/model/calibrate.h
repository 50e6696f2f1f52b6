// `ecmpsim calibrate`: the host parameters that make NCCL's cost model on the
// config's routed fabric match a real nccl-tests table. Three are fitted, the
// three NCCL's own model leaves to the host: the achievable share of the
// NICs' RoCEv2 goodput (nic_efficiency, which scales every network
// bandwidth), the host's busbw ceiling (intra_busbw_gbs, the cap of the
// intra-node hops, searched up to the hardware's figure) and the network
// plugin's latencyInter (net_latency_us, added per network step). The fit
// minimizes the squared log ratio of predicted to measured time (out-of-place
// column) over the chosen sizes, by a deterministic grid polished by a
// compass search; the ceiling leaves the hardware's figure only where the
// table clearly shows a lower one. Each parameter's uncertainty is the
// spread of the fits to the sizes resampled with replacement (a bootstrap
// over sizes), beside the values that fit exactly as well; a parameter at
// the end of its range, or one the table does not constrain, is flagged
// with its likeliest cause (docs/prediction.md, "Calibration").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/nccl_cost.h"
#include "sim/model/nccl_tests_output.h"
#include "workloads/nccl.h"

namespace ecmpsim {

// The fitted parameters' ranges: the [hosts] knobs' own (nic_efficiency in
// (0, 1]), a ceiling from 1 GB/s to the hardware's, latencyInter up to 100 us.
inline constexpr double kMinEfficiency = 0.01;
inline constexpr double kMinCeilingGbs = 1;
inline constexpr double kMaxLatencyUs = 100;
// Resamples of the bootstrap; the interval is their 5th to 95th percentile.
inline constexpr std::uint32_t kBootstrapResamples = 100;

struct CalibrationRow {
  std::uint64_t size = 0;
  double measured_us = 0;
  double predicted_us = 0;
  double error = 0;  // predicted / measured - 1
  workloads::NcclAlgo algo = workloads::NcclAlgo::Ring;
  workloads::NcclProto proto = workloads::NcclProto::Simple;
  bool fitted = false;  // among the sizes the fit used
};

enum class Bound : std::uint8_t { None, Lower, Upper };

// One fitted parameter.
struct FittedParam {
  double value = 0;
  double min = 0, max = 0;    // the range searched
  double lo = 0, hi = 0;      // 90% bootstrap interval (5th and 95th percentile of the refits)
  Bound bound = Bound::None;  // the value at an end of the range
  // Whether the table constrains it: moving it 5% of its range off its
  // value changes the fit's cost (a ceiling the network never lets the
  // sizes reach does not).
  bool constrains = true;
  // The values that fit exactly as well, the other two held: [value, value]
  // where the table pins it, wider where a stretch of values leaves every
  // size's prediction alike (nic_efficiency where the hosts cap the busbw).
  double alike_lo = 0, alike_hi = 0;
};

// The parameters in their order, named by their [calibration] keys.
enum class CalibParam : std::uint8_t { Efficiency, Ceiling, Latency };
inline constexpr std::array<std::string_view, 3> kCalibParamKeys{"nic_efficiency", "intra_busbw_gbs", "net_latency_us"};

struct CalibrationFit {
  std::array<FittedParam, 3> params;  // by CalibParam
  std::uint32_t resamples = 0;
  std::vector<CalibrationRow> rows;  // every row of the table
  const FittedParam& operator[](CalibParam p) const noexcept { return params[static_cast<std::size_t>(p)]; }
};

// Which sizes the fit uses (both bounds inclusive), NCCL_ALGO / NCCL_PROTO
// when forced, and the bootstrap's resamples.
struct CalibrationOptions {
  std::uint64_t fit_min = 0;
  std::uint64_t fit_max = ~0ULL;
  std::optional<workloads::NcclAlgo> algo;
  std::optional<workloads::NcclProto> proto;
  std::uint32_t resamples = kBootstrapResamples;
};

// `base` is the job as NCCL's tuner sees it with nic_efficiency 1,
// net_latency_us 0 and the hardware's ceiling (its net_busbw the routed
// RoCEv2 goodput, its host.intra_busbw the ceiling's upper end); the
// table's collective must be base's. Needs at least three sizes in the fit
// range (InputError naming fit_sizes otherwise).
CalibrationFit calibrate(const NcclComm& base, const NcclTestsTable& table, const CalibrationOptions& o);

// What the config says of the job beside the fit, for bound_causes.
struct CalibrationContext {
  std::uint32_t nodes = 0;      // NCCL's nodes of the job
  std::uint32_t nics = 0;       // NICs per node
  std::uint32_t nics_used = 0;  // NICs its rings and trees leave a node by
  bool gpu = false;             // [hosts] gpu names the GPU (2-node trees, NVLS and channels derived)
  double line_busbw = 0;        // GB/s: a node's NICs at line rate
  double routed_busbw = 0;      // GB/s: the routed fabric's goodput the fit scales
};

// Per parameter (CalibParam order), the likeliest cause of its flag, or ""
// when it has none: a parameter at an end of its range, or one the table does
// not constrain ("channels use 2 of 16 NICs", "2-node Tree/NVLS exceeds line
// rate: set gpu", "no latency below 1 MiB to fit").
std::array<std::string, 3> bound_causes(const CalibrationFit& fit, const NcclTestsTable& table,
                                        const CalibrationOptions& o, const CalibrationContext& c);

// The rows' predictions with given parameters (CalibParam order): the fit's
// last step, and the check that a snippet reproduces them.
std::vector<CalibrationRow> predict_rows(const NcclComm& base, const NcclTestsTable& table,
                                         const CalibrationOptions& o, const std::array<double, 3>& params);

// The median of |error| over rows of size >= lo and < hi (NaN when none).
double median_abs_error(std::span<const CalibrationRow> rows, std::uint64_t lo, std::uint64_t hi);

}  // namespace ecmpsim
