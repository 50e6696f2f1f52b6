// `ecmpsim report`: one self-contained HTML page (inline CSS and SVG, no
// scripts to fetch, nothing to download) with the fabric drawn per scenario,
// per-link bar charts, the distribution over hash seeds of each swept ECMP
// scenario, the scenario comparison, measured emulation runs beside the
// prediction, and the flows on the hottest link. The key numbers are also
// embedded as JSON in <script type="application/json" id="ecmpsim-data">.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "sim/sweep/sweep.h"
#include "sim/report/report_emulation.h"
#include "sim/report/reproduce.h"
#include "sim/model/simulation.h"
#include "sim/model/size_table.h"

namespace ecmpsim {

struct ReportInput {
  const Simulation* sim = nullptr;
  const std::vector<ScenarioResult>* results = nullptr;  // one per scenario of the spec, in order
  std::span<const std::vector<SizeRow>> sizes;           // one size table per result when wants_sizes
  std::span<const SeedSweep> sweeps;                     // seed distributions, one per swept scenario; optional
  const FlowTracerComparison* flowtracer = nullptr;      // optional
  std::string command;                                   // the command line, shown in the header
  std::size_t max_bars = 40;                             // per-link bar chart rows per scenario
  std::size_t max_hot_flows = 64;                        // rows of the hottest-link table
  const std::vector<EmulationRun>* emulation = nullptr;  // optional: emulate --measure-time runs
};

// The most loaded switch-to-switch link: most flows, then most bytes, then lowest id.
LinkId hottest_link(const Simulation& sim, const ScenarioResult& r);

// The JSON embedded in the page (also its own test surface), written to `w`
// link by link.
void report_data_json(const ReportInput& in, JsonWriter& w);
// The page, handed to `page` piece by piece as it is made (its data last,
// streamed), or collected in a string.
void report_html(const ReportInput& in, const Sink& page);
std::string report_html(const ReportInput& in);

}  // namespace ecmpsim
