// The report's message-size section (issue 32): when a job asks for sizes
// (-b/-e/--stepfactor or [workload] sizes), nccl-tests' table of each
// scenario and one chart per job of busbw against message size on a log2 x
// axis, as people plot nccl-tests runs: a line per scenario and the ideal
// fabric dashed, so the size at which a collision starts to cost shows.
#pragma once

#include <string>

#include "sim/report/report.h"

namespace ecmpsim::report {

// Whether the page has the section (and its nav entry).
bool has_sizes(const ReportInput& in);
std::string sizes_section(const ReportInput& in);

}  // namespace ecmpsim::report
