// `topology FILE...`: a topology file built from the LLDP neighbour tables of
// a running fabric (sim/fabric/discover.h), and with `against` the cabling
// compared with a config's intended fabric. The command line fills
// TopologyRequest from its flags, the Python module (python/) from keyword
// arguments, so both discover, compare and refuse alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/base/error.h"
#include "sim/base/format.h"
#include "sim/base/limits.h"
#include "sim/fabric/discover.h"

namespace ecmpsim::app {

struct TopologyRequest {
  std::vector<std::string> files;  // the LLDP tables, one per device
  std::vector<std::string> tiers;  // PATTERN=TIER, first match wins
  std::string device;              // the one file's device
  std::string lldp_format;         // every file's form ("" recognises each)
  std::string against;             // a config to compare the cabling with ("" none)
  double speed = 400;              // Gb/s of cables the tables give no speed for
  bool no_lags = false;            // infer no port-channels
  Limits limits;                   // the against config's
  // Where the door will write the topology file: refused before the work if
  // it names an input (a table, the config or its own topology file).
  std::string out;
};

struct TopologyReport {
  ecmpsim::TopologyReport discovered;  // the cables, nodes, notes and the topology file (csv)
  std::optional<CablingDiff> diff;     // with `against`
  std::string against, out;
  std::vector<std::string> inputs;  // the files read: what no output may replace
  // Whether the cabling matches the config compared with (true without one).
  bool clean() const { return !diff || diff->clean(); }
  // The options the notes and tiers' reasons name, spelt by the door.
  void spell(OptionSpelling spelling);
  // The shapes `topology` writes (table and JSON); borrows this.
  Result result() const;
};

TopologyReport topology(const TopologyRequest& request);

}  // namespace ecmpsim::app
