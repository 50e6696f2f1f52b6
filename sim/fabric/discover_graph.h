// Inside `ecmpsim topology` (discover.h): the devices and cables the tables
// describe, before tiers, port-channels and the file are decided
// (discover_tiers.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/fabric/discover.h"
#include "sim/fabric/lldp/lldp.h"

namespace ecmpsim::discover {

struct Device {
  std::string name;
  std::string file;          // its own table ("" when only seen as a neighbour)
  bool switch_table = false;  // its table is one only a switch prints
  int switch_votes = 0, station_votes = 0;  // what its neighbours heard it advertise
  std::vector<std::size_t> cables;
};

struct Graph {
  std::map<std::string, Device> devices;
  std::vector<Cable> cables;
  std::vector<std::string> notes;
  std::vector<DiscoveredFile> files;
};

// The tables read and merged: one cable per pair of ends.
Graph read_tables(std::span<const LldpFile> files, const DiscoverOptions& o);

// Tiers, port-channels, host NICs and the file (discover_tiers.cpp).
TopologyReport decide(Graph g, const DiscoverOptions& o);

// Natural order ("leaf2" before "leaf10"), for a file that reads as the rack does.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace ecmpsim::discover
