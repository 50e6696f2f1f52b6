// The --measure-time section of emulate's table and JSON, for the writers in
// emulate_driver.cpp (internal to sim/emulate).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/emulate/emulate.h"

namespace ecmpsim {

// "1/40000 (400 Gb/s links -> 10 Mb/s)": the scale and what it makes of the fastest link.
std::string scale_line(const Fabric& fabric, double scale);

std::string time_table(const Simulation& sim, const TimeReport& t);
// Adds the headline keys (slowdown_measured, ...) and a "time" object to `doc`.
void add_time_json(const TimeReport& t, nlohmann::ordered_json& doc);
// Per flow: predicted and measured finish (real seconds) and their relative error.
nlohmann::ordered_json flow_time_json(const TimeReport& t, std::size_t flow);

}  // namespace ecmpsim
