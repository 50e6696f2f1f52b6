// A simulation's results completed with what their writers print (size
// tables, split paths: sim/output/run_data.h), computed once for every
// command that prints a run (run, report, reproduce, Python's run()).
#pragma once

#include <memory>
#include <optional>

#include "sim/app/progress.h"
#include "sim/output/run_data.h"
#include "workloads/import/import.h"

namespace ecmpsim::app {

// Builds the simulation of `spec` (with `imported` flows instead of its
// workload, when given), runs every scenario (the flow model unless
// !model) and completes the results.
std::shared_ptr<RunData> simulate(Spec spec, const workloads::ImportedFlows* imported, bool model,
                                  const Progress& progress = {});

// Each result's size table (when the spec asks for sizes) and, for a
// scenario whose flows split, every flow's paths.
void complete(RunData& data);

}  // namespace ecmpsim::app
