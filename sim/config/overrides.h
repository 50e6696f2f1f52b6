// One point of a sweep as changes to a Spec: the same overrides `ecmpsim run`
// takes as flags, so any sweep variant can be evaluated on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/spec.h"

namespace ecmpsim {

struct Overrides {
  std::optional<std::string> scenario;           // --scenario: keep only this scenario
  std::optional<std::string> algo;               // --algo: hash algorithm of every ECMP scenario
  std::optional<std::uint32_t> seed;             // --seed: hash seed of every switch of every ECMP scenario
  std::optional<SeedMode> seed_mode;             // --seed-mode
  // Workload overrides apply to every job.
  std::optional<std::uint32_t> sport_base;       // --sport-base: sport_model "range" from this base
  std::optional<std::uint32_t> qpn_base;         // --qpn-base
  std::optional<std::uint32_t> qps;              // --qps: QPs per connection
  std::optional<std::uint64_t> placement_seed;   // --placement-seed: placement "random", job seed = this
};

// "no scenario named 'x' (did you mean 'y'? one of ...)".
std::string no_scenario_named(const Spec& spec, std::string_view name);

// Throws InputError naming the flag for an unknown scenario or algorithm.
void apply_overrides(Spec& spec, const Overrides& o);

// After apply_overrides: --algo, --seed or --seed-mode given when no scenario
// left in `spec` hashes (all static) would change nothing, so it is an
// InputError naming the flag rather than a silent no-op. Not for sweeps,
// which explain a flat axis in their notes instead.
void check_hash_overrides(const Spec& spec, const Overrides& o);

// The `ecmpsim run` flags that reproduce `o`, in a fixed order.
std::vector<std::string> override_args(const Overrides& o);

}  // namespace ecmpsim
