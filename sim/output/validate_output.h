// What `ecmpsim validate` prints: per measured table the predicted and
// measured time and busbw per size with their errors, and per band of
// sizes the median and largest |error|, for each table and over all of
// them (table, summary, JSON and CSV; docs/prediction.md, "Validation").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/model/validate.h"
#include "sim/output/calibrate_output.h"

namespace ecmpsim {

using BandSummary = std::array<BandErrors, kSizeBands.size()>;

struct ValidatedTable {
  NcclTestsTable table;
  std::string config, scenario, job;
  double goodput_busbw = 0;  // GB/s: the routed RoCEv2 goodput, before nic_efficiency
  double intra_busbw = 0;    // GB/s
  double nic_efficiency = 1, net_latency_us = 0;  // the parameters predicted with
  std::vector<ValidationRow> rows;
  BandSummary bands;
};

// Where the two host parameters came from: each table's config, a
// calibration file read over each config, or a fit on one table.
enum class ParamsFrom : std::uint8_t { Config, Calibration, Fit };
inline constexpr std::array<Named<ParamsFrom>, 3> kParamsFrom{{
    {ParamsFrom::Config, "config", "each table's config"},
    {ParamsFrom::Calibration, "calibration", "a calibration file over each config"},
    {ParamsFrom::Fit, "fit", "fitted on"},
}};

struct ValidationReport {
  ParamsFrom from = ParamsFrom::Config;
  std::string calibration;               // the file, for ParamsFrom::Calibration
  std::optional<CalibrationReport> fit;  // for ParamsFrom::Fit
  std::vector<ValidatedTable> tables;
  BandSummary bands;  // over every table's rows
};

Result validation_result(const ValidationReport& r);

}  // namespace ecmpsim
