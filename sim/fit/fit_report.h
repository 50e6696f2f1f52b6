// `ecmpsim fit` output: the ranked table with its verdict and a
// ready-to-paste [scenario.hash] snippet, and the JSON document.
#pragma once

#include <string>

#include "sim/base/format.h"
#include "sim/fit/fit.h"
#include "sim/fit/switches.h"

namespace ecmpsim::fit {

// The [scenario.hash] table that makes `ecmpsim run` hash as `m` does.
std::string hash_toml(const Model& m, const Group& g);

std::string fit_table(const Observations& obs, const FitResult& r);

// {"observations", "models": [{"algo", "fields", "seed", "offset", "select",
// "members", "agree"}...], "linear": {...}, "verdict": {...}}
Json fit_json(const FitResult& r);
// Both shapes, for write(); the arguments outlive it.
Result fit_result(const Observations& obs, const FitResult& r);

// A trace of several switches: each switch's rows and group size, then one
// fit_table per group of switches sharing a model. JSON:
// {"switches": [{"switch", "observations", "members", "members_from",
// "unseen_member_chance", "group"}...], "groups": [{"switches": [...],
// ...fit_json's keys}...]}.
// Where a switch's group size came from: "--members", or "rows (largest seen
// + 1; a member 4 would stay unseen with chance 0.028)".
std::string members_origin(const SwitchRows& s);
std::string switches_table(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups);
Json switches_json(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups);
Result switches_result(const std::vector<SwitchRows>& switches, const std::vector<SwitchGroupFit>& groups);

}  // namespace ecmpsim::fit
