// What a path tracer saw at one switch: flows (five-tuple plus the optional
// dst_qp, flow_label and in_port) and the member of the equal-cost group each
// left on. `ecmpsim fit` learns the switch's hash from these; they come from
// FlowTracer-style tools or from `ecmpsim emulate --observations`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hashing/key.h"

namespace ecmpsim::fit {

struct Observation {
  hashing::Tuple tuple;
  std::uint32_t member = 0;  // 0-based index in the group's member order
  std::uint32_t line = 0;    // in the file, for messages
  std::uint32_t sw = 0;      // index in Observations::switch_names (0 without a switch column)
};

struct Observations {
  std::string source;                  // the file name messages cite
  std::vector<Observation> rows;
  std::vector<hashing::Field> fields;  // the five-tuple, then the optional fields the file has
  // The switch column's names in order of first appearance; empty when the
  // file has no such column.
  std::vector<std::string> switch_names;
  // Whose rows these are, for messages and reports: "" (the whole file),
  // "switch 'leaf0'" or "switches leaf0, leaf1" (sim/fit/switches.h).
  std::string whose;
};

// Parses the CSV: a header naming the columns src, dst, proto, sport, dport and
// member (any order) and optionally dst_qp, flow_label, in_port and switch,
// then one row per observation. With `only_switch` non-empty, keeps the rows
// whose switch column says so (the file must have that column). Throws
// InputError "FILE:LINE:COLUMN: why" for the first bad value.
Observations read_observations(std::string_view text, const std::string& name, std::string_view only_switch = {});

// Throws InputError for a member >= members, and for one tuple observed with
// two members (one switch cannot send a flow two ways), naming both lines and
// `obs.whose` when set.
void check_observations(const Observations& obs, std::uint32_t members);

// "switch 'leaf0': " for messages about `obs`, "" for a whole file.
std::string whose_prefix(const Observations& obs);

}  // namespace ecmpsim::fit
