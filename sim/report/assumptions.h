// What an experiment assumes, in words, generated from its Spec: the fabric,
// NICs, the collective and its connections, the hash and the static policy.
// `ecmpsim reproduce` prints these under its table and the report lists them,
// so the text can never drift from the config that produced the numbers.
#pragma once

#include <string>
#include <vector>

#include "sim/config/spec.h"

namespace ecmpsim {

struct Assumption {
  std::string topic;  // e.g. "fabric", "hash (ecmp)"
  std::string text;
};

std::vector<Assumption> assumptions(const Spec& spec);

// The routing of a scenario in a few words, e.g. "ECMP crc16-ccitt, seed 0".
std::string routing_summary(const ScenarioSpec& s);

}  // namespace ecmpsim
