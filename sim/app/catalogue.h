// The published catalogue's runner: a row of sim/report/published.h run on
// its config by the sweep engine, and the whole catalogue on the shipped
// configs (docs/published.md, `reproduce NAME`, `report --published`).
#pragma once

#include <string>
#include <vector>

#include "sim/config/spec.h"
#include "sim/report/published.h"

namespace ecmpsim::app {

// Runs `e` on `spec` (its config): every case, on one thread, so the result
// never depends on threads. InputError naming the config when the config
// lacks a scenario or size table the row needs.
PublishedResult run_published(const PublishedExperiment& e, const Spec& spec);

// Every row run on its config read under the repository root `root` (and
// named by its repository path, so outputs do not depend on `root`).
std::vector<PublishedResult> run_catalogue(const std::string& root);

}  // namespace ecmpsim::app
