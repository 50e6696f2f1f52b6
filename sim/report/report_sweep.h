// The report's seed distributions: one section, and one entry of the
// embedded data, per swept ECMP scenario (each on its own; a distribution
// pooled over scenarios would describe none of them). Statistics of FIM,
// max/mean, the predicted slowdown and every job's bus bandwidth (Gb/s and
// nccl-tests' GB/s), the histograms and CDFs, best and worst, and the notes on
// seeds that changed nothing.
#pragma once

#include <string>

#include "sim/output/metrics_json.h"
#include "sim/report/report.h"

namespace ecmpsim::report {

// The HTML id of sweep i's section: "sweep", then "sweep-2", "sweep-3", ...
std::string sweep_id(std::size_t i);

std::string sweep_section(const ReportInput& in, std::size_t i);
Json sweep_data_json(const ReportInput& in, std::size_t i);

}  // namespace ecmpsim::report
