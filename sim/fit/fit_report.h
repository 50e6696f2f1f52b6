// `ecmpsim fit` output: the ranked table with its verdict and a
// ready-to-paste [scenario.hash] snippet, and the JSON document.
#pragma once

#include <string>

#include "sim/base/format.h"
#include "sim/fit/fit.h"

namespace ecmpsim::fit {

// The [scenario.hash] table that makes `ecmpsim run` hash as `m` does.
std::string hash_toml(const Model& m, const Group& g);

std::string fit_table(const Observations& obs, const FitResult& r);

// {"observations", "models": [{"algo", "fields", "seed", "offset", "select",
// "members", "agree"}...], "linear": {...}, "verdict": {...}}
Json fit_json(const FitResult& r);
// Both shapes, for write(); the arguments outlive it.
Result fit_result(const Observations& obs, const FitResult& r);

}  // namespace ecmpsim::fit
