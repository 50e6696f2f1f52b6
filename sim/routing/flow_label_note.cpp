#include "sim/routing/flow_label_note.h"

#include <algorithm>

#include "hashing/hasher.h"
#include "hashing/key.h"

namespace ecmpsim {
namespace {

bool hash_reads_label(const HashSpec& h) {
  const hashing::Algorithm* a = hashing::find(h.algo);
  if (a == nullptr) return false;  // the routing reports the unknown name
  const auto fields = hashing::key_fields(a->layout, hashing::Family::V6, h.fields);
  return std::find(fields.begin(), fields.end(), hashing::Field::FlowLabel) != fields.end();
}

// Whether any switch of the scenario hashes the label: its default hash or
// one of its overrides, each as a switch would combine them.
bool scenario_reads_label(const ScenarioSpec& s, const HashSpec& base) {
  if (hash_reads_label(base)) return true;
  for (const auto* list : {&s.hash_tiers, &s.hash_switches})
    for (const HashOverride& o : *list) {
      HashSpec h = base;
      apply_override(h, o);
      if (hash_reads_label(h)) return true;
    }
  return false;
}

}  // namespace

std::optional<std::string> flow_label_note(const Spec& spec, hashing::Family family,
                                           std::span<const std::string> algos) {
  if (family != hashing::Family::V6) return std::nullopt;
  std::string names;
  for (const ScenarioSpec& s : spec.scenarios) {
    if (!routing_mode(s.routing).hashes || s.sports == SportPlan::Planned) continue;
    bool reads = false;
    if (algos.empty()) reads = scenario_reads_label(s, s.hash);
    for (const std::string& algo : algos) {
      HashSpec h = s.hash;
      h.algo = algo;
      reads = reads || scenario_reads_label(s, h);
    }
    if (reads) names += (names.empty() ? "'" : ", '") + s.name + "'";
  }
  if (names.empty()) return std::nullopt;
  return "the hashes of " + names +
         " read the IPv6 flow label, taken as rdma_calc_flow_label(lqpn, rqpn) as if the hosts set it on "
         "each QP; NCCL leaves it 0 (its packets then carry label 0), so on such hosts these flows would "
         "share one label";
}

}  // namespace ecmpsim
