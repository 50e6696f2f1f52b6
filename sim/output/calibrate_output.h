// What `ecmpsim calibrate` prints (the fit and its residual per size, in the
// table, JSON and CSV shapes of sim/base/format.h) and the [calibration]
// snippet it writes for a config to take (docs/prediction.md, "Calibration").
#pragma once

#include <array>
#include <string>

#include "sim/base/format.h"
#include "sim/model/calibrate.h"

namespace ecmpsim {

struct CalibrationReport {
  NcclTestsTable table;
  CalibrationFit fit;
  std::array<std::string, 3> causes;  // bound_causes, by CalibParam
  CalibrationOptions options;
  std::string config, scenario, job;
  double goodput_busbw = 0;  // GB/s: the routed RoCEv2 goodput, before nic_efficiency
  double intra_busbw = 0;    // GB/s: the intra-node hops' cap
};

Result calibration_result(const CalibrationReport& r);
// "SOURCE (all_reduce_perf, float, 32 ranks on 4 nodes, NCCL 2.24.3)": what a table is.
std::string table_summary(const NcclTestsTable& t);
// The table and the job it was priced as, the head of calibrate's and validate's JSON.
Json run_json(const NcclTestsTable& t, const std::string& config, const std::string& scenario, const std::string& job,
              double goodput_busbw, double intra_busbw);
// The fitted parameters, each with its interval, range, bound, whether the
// table constrains it and its flag's cause: calibrate's and validate's "parameters".
Json params_json(const CalibrationFit& f, const std::array<std::string, 3>& causes);
// "nic_efficiency 0.8870 [0.8512, 0.9003], intra_busbw_gbs ..., net_latency_us
// 17.80 [...]": each parameter with its 90% interval, a bound flagged.
std::string fit_summary(const CalibrationFit& f);
// "[calibration]" with the fitted keys, commented with what they were fitted on.
std::string calibration_snippet(const CalibrationReport& r);

}  // namespace ecmpsim
