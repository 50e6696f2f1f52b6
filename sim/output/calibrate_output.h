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
// "[calibration]" with the fitted keys, commented with what they were fitted on.
std::string calibration_snippet(const CalibrationReport& r);

}  // namespace ecmpsim
