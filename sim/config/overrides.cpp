#include "sim/config/overrides.h"

#include <algorithm>

#include "hashing/hasher.h"
#include "hashing/suggest.h"

namespace ecmpsim {

std::string no_scenario_named(const Spec& spec, std::string_view name) {
  std::vector<std::string_view> names;
  for (const ScenarioSpec& s : spec.scenarios) names.push_back(s.name);
  return "no scenario named '" + std::string(name) + "'" + did_you_mean(name, names);
}

void apply_overrides(Spec& spec, const Overrides& o) {
  if (o.scenario) {
    std::vector<ScenarioSpec> kept;
    for (auto& s : spec.scenarios)
      if (s.name == *o.scenario) kept.push_back(std::move(s));
    if (kept.empty()) throw InputError(option_at("scenario"), no_scenario_named(spec, *o.scenario));
    spec.scenarios = std::move(kept);
  }
  const hashing::Algorithm* algo = o.algo ? hashing::find(*o.algo) : nullptr;
  if (o.algo && !algo) throw InputError(option_at("algo"), unknown_algorithm(*o.algo));
  for (auto& s : spec.scenarios) {
    if (!routing_mode(s.routing).hashes) continue;
    if (algo) s.hash.algo = std::string(algo->name);
    if (o.seed) s.hash.seed = *o.seed;
    if (o.seed_mode) s.hash.seed_mode = *o.seed_mode;
    // The seed reaches every switch: overrides' own seeds give way to it.
    if (o.seed || o.seed_mode)
      for (auto* list : {&s.hash_tiers, &s.hash_switches})
        for (HashOverride& h : *list) h.keys &= ~(kHashSeed | kHashSeedMode);
  }
  for (JobSpec& job : spec.jobs) {
    if (o.sport_base) {
      // The range model must end by port 65535: the range shrinks near the top.
      job.roce.sport = workloads::SportModel::Range;
      job.roce.sport_base = *o.sport_base;
      job.roce.sport_range = std::min(job.roce.sport_range, 65536 - *o.sport_base);
    }
    if (o.qpn_base) job.roce.qpn_base = *o.qpn_base;
    if (o.qps) job.qps_per_connection = *o.qps;
    if (o.placement_seed) {
      job.placement = workloads::Placement::Random;
      job.seed = *o.placement_seed;
    }
  }
}

void check_hash_overrides(const Spec& spec, const Overrides& o) {
  const char* flag = o.algo ? "algo" : o.seed ? "seed" : o.seed_mode ? "seed_mode" : nullptr;
  if (flag == nullptr) return;
  std::string kinds;
  for (const ScenarioSpec& s : spec.scenarios) {
    if (routing_mode(s.routing).hashes) return;
    kinds += (kinds.empty() ? "" : ", ") + std::string("'") + s.name + "' is " +
             std::string(name_of(kRoutingKinds, s.routing));
  }
  throw InputError(option_at(flag), "no scenario hashes (" + kinds + "), so " + option_ref(flag) +
                                         " would change nothing; add an ECMP scenario or drop the flag");
}

std::vector<std::string> override_args(const Overrides& o) {
  std::vector<std::string> a;
  auto add = [&](const char* flag, std::string v) {
    a.emplace_back(flag);
    a.push_back(std::move(v));
  };
  if (o.scenario) add("--scenario", *o.scenario);
  if (o.algo) add("--algo", *o.algo);
  if (o.seed) add("--seed", std::to_string(*o.seed));
  if (o.seed_mode) add("--seed-mode", std::string(name_of(kSeedModes, *o.seed_mode)));
  if (o.placement_seed) add("--placement-seed", std::to_string(*o.placement_seed));
  if (o.qps) add("--qps", std::to_string(*o.qps));
  if (o.qpn_base) add("--qpn-base", std::to_string(*o.qpn_base));
  if (o.sport_base) add("--sport-base", std::to_string(*o.sport_base));
  return a;
}

}  // namespace ecmpsim
