// The knob tables of each config section (one file per section).
#pragma once

#include <vector>

#include "sim/knobs.h"
#include "sim/spec.h"

namespace ecmpsim::config {

const std::vector<Knob<FabricSpec>>& fabric_knobs();
const std::vector<Knob<JobSpec>>& job_knobs();
const std::vector<Knob<ScenarioSpec>>& scenario_knobs();
const std::vector<Knob<HashSpec>>& hash_knobs();
const std::vector<Knob<StaticRoute>>& route_knobs();

}  // namespace ecmpsim::config
