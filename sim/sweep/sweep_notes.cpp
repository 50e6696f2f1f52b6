#include "sim/sweep/sweep_notes.h"

#include <algorithm>
#include <cmath>

#include "hashing/key.h"
#include "sim/base/text.h"

namespace ecmpsim {
namespace {

using Reach = SeedEffect::Reach;

bool power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// Count metrics are integers and compare exactly; the flow model's slowdown
// may differ in its last bits when a renaming reorders the links it visits.
bool same_values(std::span<const double> a, std::span<const double> b) {
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::abs(a[k] - b[k]) > 1e-9 * std::max(std::abs(a[k]), std::abs(b[k]))) return false;
  return true;
}

// Per combination: the largest number of seeds seen in one workload, or 0
// when some workload's seeds disagreed.
std::vector<std::uint64_t> flat_seed_counts(const Sweep& sweep, std::uint64_t begin,
                                            ValueView values) {
  const VariantSpace& space = sweep.space();
  std::vector<std::uint64_t> seen(space.combos(), 0);
  std::vector<std::uint8_t> varied(space.combos(), 0);
  std::uint64_t block_start = 0, in_block = 0;
  for (std::uint64_t i = 0; i < values.size(); ++i) {
    const VariantSpace::Coord c = space.coord(begin + i);
    if (in_block == 0 || c.seed == 0) {
      block_start = i;
      in_block = 0;
    }
    ++in_block;
    if (!same_values(values[i], values[block_start])) varied[c.combo] = 1;
    seen[c.combo] = std::max(seen[c.combo], in_block);
  }
  for (std::size_t c = 0; c < seen.size(); ++c)
    if (varied[c]) seen[c] = 0;
  return seen;
}

bool hashes(const Forwarding& fwd, const Fabric& fabric, hashing::Field field) {
  for (std::uint32_t s = 0; s < fabric.switches().size(); ++s) {
    const auto& fields = fwd.hash_of(s).fields;
    if (std::find(fields.begin(), fields.end(), field) != fields.end()) return true;
  }
  return false;
}

// The axes that do move flows between links here, in words.
std::string what_varies(const Spec& spec, const Fabric& fabric, const Forwarding& fwd) {
  using workloads::SportModel;
  bool port_base = false, from_qpns = false, random_placement = false;
  for (const JobSpec& j : spec.jobs) {
    const SportModel m = j.roce.sport;
    port_base = port_base || m == SportModel::Range || m == SportModel::Fixed || m == SportModel::Random;
    from_qpns = from_qpns || m == SportModel::Linux || m == SportModel::Mlx4;
    random_placement = random_placement || j.placement == workloads::Placement::Random;
  }
  const bool sport = hashes(fwd, fabric, hashing::Field::SrcPort);
  std::vector<std::string> axes;
  if (sport && port_base) axes.push_back("the source ports (--sport-base)");
  if ((sport && from_qpns) || hashes(fwd, fabric, hashing::Field::DstQp))
    axes.push_back("the QP numbers (--qpn-base)");
  if (random_placement) axes.push_back("the placement (--placement-seeds)");
  axes.push_back("a hash that mixes its seed (--algos xxh3)");
  return "To see a spread, sweep " + or_list(axes) + ".";
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string why(const SeedEffect& e) {
  switch (e.reach) {
    case Reach::Static: return "it routes by static tables, so no hash and no seed enters.";
    case Reach::NoChoice: return "no switch has more than one equal-cost next hop, so no hash is ever consulted.";
    case Reach::Renames: {
      std::string sizes;
      for (std::uint32_t n : e.group_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(n);
      return joined(e.algos) + (e.algos.size() > 1 ? " are" : " is") +
             " affine in the seed (a seed XORs one constant into every hash a switch computes), and modulo "
             "selection over groups of " + sizes + " members (powers of two) turns that into a renaming of each "
             "switch's members, which leaves this fabric's and workload's metrics as they were.";
    }
    case Reach::Varies: break;
  }
  return {};
}

}  // namespace

SeedEffect seed_effect(const Fabric& fabric, const Forwarding& fwd) {
  SeedEffect e;
  if (fwd.is_static()) {
    e.reach = Reach::Static;
    return e;
  }
  // A port-channel's member choice reads a hash too: no claim about its seed.
  if (!fwd.plain()) return {};
  const EqualCostSets& sets = fwd.sets();
  for (std::uint32_t g = 0; g < sets.groups(); ++g) {
    const auto members = sets.members(g);
    if (members.size() < 2) continue;
    const SwitchHash& h = fwd.hash_of(fabric.switch_index(fabric.link(members[0]).from));
    if (!h.algo->seed_affine || h.select != hashing::Selection::Modulo || fwd.has_table(g) ||
        !power_of_two(members.size()))
      return {};
    const auto size = static_cast<std::uint32_t>(members.size());
    if (std::find(e.group_sizes.begin(), e.group_sizes.end(), size) == e.group_sizes.end())
      e.group_sizes.push_back(size);
    const std::string name(h.algo->name);
    if (std::find(e.algos.begin(), e.algos.end(), name) == e.algos.end()) e.algos.push_back(name);
  }
  std::sort(e.group_sizes.begin(), e.group_sizes.end());
  e.reach = e.group_sizes.empty() ? Reach::NoChoice : Reach::Renames;
  return e;
}

std::vector<std::string> seed_notes(const Sweep& sweep, std::uint64_t begin, ValueView values) {
  const VariantSpace& space = sweep.space();
  const auto& seeds = space.axes().seeds;
  std::vector<std::string> notes;
  if (!seeds || seeds->size() < 2 || space.combos() == 0) return notes;
  const std::vector<std::uint64_t> flat = flat_seed_counts(sweep, begin, values);
  for (std::uint64_t c = 0; c < space.combos(); ++c) {
    const bool several_workloads = space.combo_size(c) / seeds->size() > 1;
    if (flat[c] < 2) continue;
    const SweepPlan& plan = sweep.plan(c);
    const Fabric& fabric = plan.base().fabric();
    const SeedEffect e = seed_effect(fabric, plan.forwarding());
    if (e.reach == Reach::Varies) continue;
    const Overrides o = space.at(space.first_of_combo(c));
    std::string note = "seeds changed nothing for scenario '" + *o.scenario + "'" +
                       (o.algo ? " with " + *o.algo : std::string()) + ": " +
                       (flat[c] == seeds->size() ? "all " : "the first ") + std::to_string(flat[c]) +
                       " seeds gave the same metrics" + (several_workloads ? " for each workload" : "") + "; " +
                       why(e);
    if (e.reach == Reach::Renames) note += " " + what_varies(plan.base().spec(), fabric, plan.forwarding());
    notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace ecmpsim
