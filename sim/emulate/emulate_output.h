// The writers of `ecmpsim emulate`: its table and JSON document (the shapes
// sim/base/format.h writes), the observed hops as CSV for `ecmpsim fit`, and
// the --measure-time section of both (emulate_time_output.cpp).
#pragma once

#include <cstddef>
#include <string>

#include "sim/base/format.h"
#include "sim/emulate/emulate.h"

namespace ecmpsim {

std::string emulate_table(const Simulation& sim, const EmulateReport& r);
Json emulate_json(const Simulation& sim, const EmulateReport& r);
// Both shapes, for write() (sim/base/format.h); the arguments outlive it.
Result emulate_result(const Simulation& sim, const EmulateReport& r);
// The observed hops as `ecmpsim fit` reads them:
// src,dst,proto,sport,dport,switch,member (switch by name).
std::string emulate_observations_csv(const Simulation& sim, const EmulateReport& r);

std::string time_table(const Simulation& sim, const TimeReport& t);
// Adds the headline keys (slowdown_measured, ...) and a "time" object to `doc`.
void add_time_json(const TimeReport& t, Json& doc);
// Per flow: predicted and measured finish (real seconds) and their relative error.
Json flow_time_json(const TimeReport& t, std::size_t flow);

}  // namespace ecmpsim
