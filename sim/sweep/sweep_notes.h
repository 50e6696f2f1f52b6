// Notes that tell the operator when a sweep's seed axis changed nothing, why,
// and which axis would.
//
// The engine can tell from a scenario's compiled routing when a seed cannot
// change which flows share a link: static tables (no hash at all), no switch
// with a choice of next hop, or a hash affine in its seed (the catalogue's
// seed_affine flag: CRCs, XOR folds) selected by plain modulo over groups of
// power-of-two size. There a seed XORs one constant c into every hash a switch
// computes (for keys of one length), (h ^ c) mod 2^k = (h mod 2^k) ^ (c mod 2^k),
// so each switch renames its members m -> m ^ c alike for all its flows. That
// renaming keeps every metric exactly when it is a symmetry of the fabric and
// the workload (the same constant on every leaf of a leaf-spine fabric), but
// not always (a failed cable leaving groups of 1 and 2, per-switch seeds with
// several source leaves per destination), and any other selection (weights,
// resilient buckets, non-power-of-two groups) or a mixing hash breaks it. So a
// note is written only when the reason holds and the swept seeds were also seen
// to give the same metrics for every workload of that scenario and algorithm.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/sweep/sweep.h"

namespace ecmpsim {

// What a seed can change in one scenario's routing.
struct SeedEffect {
  enum class Reach : std::uint8_t {
    Varies,    // a seed can move flows between links
    Static,    // static tables: no hash is computed
    NoChoice,  // no equal-cost group has more than one member
    Renames,   // affine hashes, modulo over power-of-two groups: a seed renames members
  };
  Reach reach = Reach::Varies;
  std::vector<std::string> algos;         // Renames: the algorithms of the switches that choose
  std::vector<std::uint32_t> group_sizes;  // Renames: the sizes of the groups with a choice, ascending
};
SeedEffect seed_effect(const Fabric& fabric, const Forwarding& fwd);

// One note per (scenario, algorithm) of the sweep whose seed axis (of at
// least two seeds) changed no metric of any of its workloads in `values`
// (the variants from index `begin` on) and whose routing says why; in
// combination order. Empty without a seed axis.
std::vector<std::string> seed_notes(const Sweep& sweep, std::uint64_t begin, ValueView values);

}  // namespace ecmpsim
