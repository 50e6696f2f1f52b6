// `ecmpsim topology`'s report in its shapes (the table text and the JSON
// document) for sim/base/format.h to write; the topology file itself is the
// report's csv, written where --out says.
#pragma once

#include <optional>
#include <string>

#include "sim/base/format.h"
#include "sim/fabric/discover.h"

namespace ecmpsim {

struct TopologyOutput {
  const TopologyReport* report = nullptr;
  const CablingDiff* against = nullptr;  // --against: the comparison, else nullptr
  std::string against_name;              // the config compared with
  std::string out;                       // where the topology file went ("" when not written)
};

Result topology_result(const TopologyOutput& t);

}  // namespace ecmpsim
