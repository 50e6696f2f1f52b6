#include "sim/variant.h"

#include "hashing/hasher.h"
#include "sim/seeds.h"

namespace ecmpsim {

void apply_overrides(Spec& spec, const Overrides& o) {
  if (o.scenario) {
    std::vector<ScenarioSpec> kept;
    for (auto& s : spec.scenarios)
      if (s.name == *o.scenario) kept.push_back(std::move(s));
    if (kept.empty()) throw InputError({{}, 0, 0, "--scenario"}, "no scenario named '" + *o.scenario + "'");
    spec.scenarios = std::move(kept);
  }
  if (o.algo && !hashing::find(*o.algo))
    throw InputError({{}, 0, 0, "--algo"}, "unknown hash algorithm '" + *o.algo + "'");
  for (auto& s : spec.scenarios) {
    if (s.routing != RoutingKind::Ecmp) continue;
    if (o.algo) s.hash.algo = *o.algo;
    if (o.seed) s.hash.seed = *o.seed;
    if (o.seed_mode) s.hash.seed_mode = *o.seed_mode;
  }
  WorkloadSpec& w = spec.workload;
  if (o.sport_base) {
    w.sport = SportModel::Range;
    w.sport_base = *o.sport_base;
  }
  if (o.qpn_base) w.qpn_base = *o.qpn_base;
  if (o.qps) w.qps_per_connection = *o.qps;
  if (o.placement_seed) {
    w.placement = workloads::Placement::Random;
    w.placement_seed = *o.placement_seed;
  }
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
  if (o.seed_mode) add("--seed-mode", std::string(seed_mode_name(*o.seed_mode)));
  if (o.placement_seed) add("--placement-seed", std::to_string(*o.placement_seed));
  if (o.qps) add("--qps", std::to_string(*o.qps));
  if (o.qpn_base) add("--qpn-base", std::to_string(*o.qpn_base));
  if (o.sport_base) add("--sport-base", std::to_string(*o.sport_base));
  return a;
}

}  // namespace ecmpsim
