// Writers for `ecmpsim sweep`: table, JSON and CSV (one row per variant).
#pragma once

#include <span>
#include <string>

#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_stats.h"

namespace ecmpsim {

struct SweepReport {
  const Sweep& sweep;
  const SweepRun& run;
  const SweepSummary& summary;
  std::span<const std::string> notes = {};  // what the axes did not change (sim/sweep/sweep_notes.h)
};

std::string sweep_json(const SweepReport& r);
std::string sweep_table(const SweepReport& r);
std::string sweep_csv(const SweepReport& r);

}  // namespace ecmpsim
