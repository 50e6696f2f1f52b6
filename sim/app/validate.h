// `validate TABLE... --config C`: scores NCCL's cost model on each table's
// routed job against the measured nccl-tests table, without refitting: the
// host parameters are the config's, a calibration file's over it, or those
// fitted on another table (--fit-on, --fit-sizes), which is then scored
// like any other where listed (docs/prediction.md, "Validation"). The
// report is complete: the doors (sim/cli, python/) only write it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/app/calibrate.h"
#include "sim/base/limits.h"
#include "sim/output/validate_output.h"

namespace ecmpsim::app {

struct ValidateRequest {
  Limits limits;
  // The tables scored, each with its own config (TableRun::config empty:
  // `config` below) and, from the request, the scenario, job and calibration.
  std::vector<TableRun> tables;
  std::string config;       // empty: default_config_path()
  std::string scenario;     // empty: each config's first
  std::string job;          // empty: each config's first priced job matching its table
  std::string calibration;  // a [calibration] file read over every config; empty: none
  std::uint32_t run = 0;    // of each file holding several runs, this one (1-based, as calibrate's); 0: one run
  // Fit the two host parameters on this table (on its config, else `config`)
  // and predict every scored table with them; fit_sizes MIN:MAX as calibrate's.
  TableRun fit_on;
  std::string fit_sizes;
  std::string out;  // where the door will write: refused before the work if it names an input
};

struct ValidateReport {
  ValidationReport report;
  std::vector<std::string> inputs;  // every table, config, file they read, calibration
};

ValidateReport validate(const ValidateRequest& request);

// Adds the tables at `paths` to q.tables with `configs`: none, one (q.config,
// for every table) or one per table in their order; InputError at the config
// option for any other count.
void add_tables(ValidateRequest& q, const std::vector<std::string>& paths, const std::vector<std::string>& configs);

}  // namespace ecmpsim::app
