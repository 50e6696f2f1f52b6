// `ecmpsim fit` over a trace of several switches (the observations' `switch`
// column, as `ecmpsim emulate --observations` and path tracers write it):
// each switch has its own group size and may run its own hash, so rows of two
// switches are never one switch's contradiction. The switches of one group
// size are first fitted together, as one fabric usually hashes alike; when no
// one model explains them all, each switch is fitted alone and the switches
// whose best models agree are fitted together again, for the evidence of all
// their rows. docs/fit.md ("Several switches") says why and how.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/fit/fit.h"

namespace ecmpsim::fit {

// `--members`: "N" for every switch, "NAME=N,..." per switch, or both
// ("4,spine0=2"); a switch given no count takes it from its rows.
struct MembersSpec {
  std::optional<std::uint32_t> all;
  std::map<std::string, std::uint32_t, std::less<>> named;
};

// Throws InputError (field --members) for a malformed item, a count outside
// 2..65536, a name given twice or two plain counts.
MembersSpec parse_members(std::string_view text);

// One switch's rows and its group size.
struct SwitchRows {
  std::string name;
  Observations obs;          // whose = "switch 'NAME'"
  std::uint32_t members = 0;
  bool members_from_rows = false;
  // With members from the rows: the chance that a group one member larger
  // would never have shown that member in these rows, ((N / (N + 1))^rows,
  // under uniform hashing).
  double unseen_member_chance = 0;
};

// The file's rows split by switch, in order of first appearance, each with
// its group size. Throws InputError naming --members for a named switch the
// file does not have, and the switch for rows that cannot give a count (all
// on member 0).
std::vector<SwitchRows> split_switches(const Observations& all, const MembersSpec& members);

// Switches fitted as one: their names, rows (pooled) and result.
struct SwitchGroupFit {
  std::vector<std::string> switches;
  Observations obs;
  FitResult result;
};

// Fits every switch; `base` gives everything but the group size. Throws
// InputError naming the switch when its own rows contradict themselves or no
// model fits them.
std::vector<SwitchGroupFit> fit_switches(const std::vector<SwitchRows>& switches, const FitOptions& base);

}  // namespace ecmpsim::fit
