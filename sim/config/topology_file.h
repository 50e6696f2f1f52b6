// Reading a topology file (docs/fabrics-and-routing.md#fabric-kinds): the
// reader `[fabric] file` uses, declared apart from the config's sections so a
// stage that only writes or checks topology files (`ecmpsim topology`,
// sim/fabric/discover.h) sees the fabric's vocabulary and not the whole Spec.
#pragma once

#include <string>

#include "sim/config/fabric_spec.h"

namespace ecmpsim::config {

// The topology in `text`, read as `path` names it (errors name it; its
// ending, .csv or otherwise TOML, picks the format); InputError naming the
// line and column of a bad row.
TopologySpec parse_topology(const std::string& path, const std::string& text);

}  // namespace ecmpsim::config
