// ECMP selection: each switch's resolved hash and, per equal-cost group, the
// table that turns a hash value into a member (plain modulo, WCMP weights as
// replicated members, threshold bounds, resilient buckets). Built once per
// scenario from the equal-cost sets; the per-hop step only reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "hashing/select.h"
#include "hashing/toeplitz.h"
#include "sim/config/routing_spec.h"
#include "sim/fabric/fabric.h"
#include "sim/routing/routes.h"

namespace ecmpsim {

// A switch's hash, resolved: algorithm, key fields, seed, bit window, selection.
struct SwitchHash {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields;
  std::uint32_t seed = 0;
  hashing::SeedAs seed_as = hashing::SeedAs::Register;
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 0;
  std::optional<hashing::RssKey> rss_key;  // toeplitz with a key of its own
  bool per_hop = false;                    // a field changes per hop (hashing::per_hop)

  // The algorithm's output for key bytes with a seed entering as seed_as
  // says, before the window.
  std::uint64_t raw(hashing::Key key, std::uint32_t with_seed) const noexcept {
    return hashing::switch_raw_hash(*algo, rss_key, seed_as, key, with_seed);
  }
  std::uint64_t hash(const hashing::Tuple& t) const noexcept {
    hashing::KeyBuffer key;
    const std::size_t n = hashing::build_key(algo->layout, fields, t, key);
    return hashing::window(raw({key.data(), n}, seed), algo->bits, offset);
  }
};

// Throws InputError (pointing at `where`) for an unknown algorithm or a
// repeated key field.
SwitchHash resolve_hash(const HashSpec& spec, const SourcePos& where);

// The hash spec a switch of `tier` named `name` runs in `scenario`: the
// scenario's [scenario.hash], then its tier's override, then its own.
HashSpec hash_for_switch(const ScenarioSpec& scenario, Tier tier, std::string_view name);

// Which of a node's hashes a decision reads: a switch's ECMP choice among
// next hops, a switch's choice of a port-channel's member, a host bond's.
enum class HashRole : std::uint8_t { Ecmp, Lag, Bond };

class EcmpSelection {
 public:
  EcmpSelection() = default;
  // `source` (the config file) is where an unknown algorithm is reported.
  EcmpSelection(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                const std::string& source);

  // One hash per switch (dense switch index).
  const SwitchHash& hash_of(std::uint32_t switch_index) const { return hashes_[switch_index]; }
  // The hash `role` reads: the switch's ECMP or LAG hash, or (Bond, any
  // index) the hosts' bond hash.
  const SwitchHash& hash_for(std::uint32_t switch_index, HashRole role) const {
    return role == HashRole::Ecmp ? hashes_[switch_index] : role == HashRole::Lag ? lag_hashes_[switch_index] : bond_;
  }

  // Group g's next hops: its members, those of one port-channel counted as
  // one (in member order). Without port-channels (plain()) every member is one.
  bool plain() const noexcept { return nh_first_.empty(); }
  std::uint32_t next_hops(std::uint32_t g, std::uint32_t members) const {
    return plain() ? members : nh_first_[g + 1] - nh_first_[g];
  }
  std::span<const LinkId> next_hop(std::uint32_t g, std::uint32_t i) const {
    const std::uint32_t k = nh_first_[g] + i;
    return {nh_links_.data() + nh_begin_[k], nh_links_.data() + nh_begin_[k + 1]};
  }

  // Member index within group g (of `members` members) for hash value h,
  // honouring member weights.
  std::uint32_t select(std::uint32_t g, std::uint32_t members, const SwitchHash& hash, std::uint64_t h) const {
    switch (hash.select) {
      case hashing::Selection::Modulo:
        if (table_size_[g] == 0) return hashing::select_modulo(h, members);
        return table_[table_begin_[g] + h % table_size_[g]];
      case hashing::Selection::Threshold:
        return hashing::select_threshold(h, {bounds_.data() + bounds_begin_[g], members});
      case hashing::Selection::Resilient:
        return table_[table_begin_[g] + h % table_size_[g]];
    }
    return 0;
  }
  // Whether group g selects through a table (WCMP weights replicated as
  // members, or resilient buckets) rather than plain arithmetic on the hash.
  bool has_table(std::uint32_t g) const { return table_size_[g] != 0; }

 private:
  void build_tables(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario);
  void build_next_hops(const Fabric& fabric, const EqualCostSets& sets);

  std::vector<SwitchHash> hashes_;     // per switch
  std::vector<SwitchHash> lag_hashes_;  // per switch: its hash with [scenario.hash.lag] over it
  SwitchHash bond_;                     // hosts' bonds
  // Next hops when the fabric has port-channels: group g's are k in
  // [nh_first_[g], nh_first_[g + 1]), next hop k's links nh_links_[nh_begin_[k]
  // .. nh_begin_[k + 1]). Empty when the fabric has none.
  std::vector<std::uint32_t> nh_first_, nh_begin_;
  std::vector<LinkId> nh_links_;
  std::vector<std::uint64_t> bounds_;  // threshold bounds per group
  std::vector<std::uint32_t> bounds_begin_;
  std::vector<std::uint32_t> table_;  // weighted-modulo or resilient tables per group
  std::vector<std::uint32_t> table_begin_, table_size_;
};

}  // namespace ecmpsim
