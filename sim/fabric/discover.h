// `ecmpsim topology`: a topology file (docs/fabrics-and-routing.md) built
// from the LLDP neighbour tables of a running fabric (sim/fabric/lldp/), and
// the discovered cabling compared with a config's intended fabric. The
// library side of the command: the CLI registers flags and prints the report.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/config/fabric_spec.h"

namespace ecmpsim {

class Fabric;

struct LldpFile {
  std::string name;  // as given; a file that names no device of its own is that device by its file name
  std::string text;
};

// --tier PATTERN=TIER: devices whose name matches the glob (* and ?) get that tier.
struct TierRule {
  std::string pattern;
  Tier tier = Tier::Leaf;
};

struct DiscoverOptions {
  std::string device;           // --device: the one file's device
  std::string format;           // --lldp-format: every file's form ("" detects each)
  std::vector<TierRule> tiers;  // first match wins
  double speed_gbps = 400;      // cables whose tables give no speed
  bool lags = true;             // infer MLAG peer links and the port-channels to MLAG pairs
};

struct CableEnd {
  std::string device;  // the topology's node name (a host's NIC: HOST.PORT when it has several)
  std::string port;    // "" when unknown (an intended cable)
};

struct Cable {
  CableEnd a, b;
  double speed_gbps = 0;
  bool speed_from_table = false;
  bool both_sides = false;  // each end's table lists the other
  std::string lag;          // a's port-channel ("" for none)
  std::string where;        // the file and line (or JSON path) it was read at
};

struct DiscoveredNode {
  std::string name;
  Tier tier = Tier::Leaf;
  std::string why;     // how the tier was decided
  std::string server;  // endpoints: the host whose NIC it is, when the host has several
  std::string file;    // the table it was read from ("" for a device only seen as a neighbour)
};

struct DiscoveredFile {
  std::string name, format, device;
  std::size_t neighbours = 0, management = 0;
};

struct TopologyReport {
  std::vector<DiscoveredFile> files;
  std::vector<DiscoveredNode> nodes;  // in the topology file's order
  std::vector<Cable> cables;
  std::vector<std::string> notes;
  TopologySpec topology;  // what the file holds, as the config reader would read it
  std::string csv;        // the topology file
};

// Every table read and merged into one fabric. InputError naming the file
// and line (or JSON path) for a table that cannot be read, a device listed by
// two files, two tables that disagree about one port, or --device with
// several files.
TopologyReport discover_topology(std::span<const LldpFile> files, const DiscoverOptions& o);

// --against CONFIG: the discovered cabling against the intended fabric, by
// device name. A cable found where none is intended but one end misses an
// intended cable is miswired (found, intended); the rest are extra or missing.
struct CablingDiff {
  std::size_t intended = 0, found = 0, matched = 0;
  std::vector<Cable> missing, extra;
  std::vector<std::pair<Cable, Cable>> miswired;  // (found, intended)
  bool clean() const noexcept { return missing.empty() && extra.empty() && miswired.empty(); }
};
CablingDiff compare_cabling(std::span<const Cable> found, const Fabric& intended);

}  // namespace ecmpsim
