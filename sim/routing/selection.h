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
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 0;
  std::optional<hashing::RssKey> rss_key;  // toeplitz with a key of its own
  bool per_hop = false;                    // a field changes per hop (hashing::per_hop)

  // The algorithm's output for key bytes, before the window.
  std::uint64_t raw(hashing::Key key, std::uint32_t with_seed) const noexcept {
    return rss_key ? hashing::toeplitz_hash(key, *rss_key, with_seed) : algo->fn(key, with_seed);
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

class EcmpSelection {
 public:
  EcmpSelection() = default;
  // `source` (the config file) is where an unknown algorithm is reported.
  EcmpSelection(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
                const std::string& source);

  // One hash per switch (dense switch index).
  const SwitchHash& hash_of(std::uint32_t switch_index) const { return hashes_[switch_index]; }

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

  std::vector<SwitchHash> hashes_;     // per switch
  std::vector<std::uint64_t> bounds_;  // threshold bounds per group
  std::vector<std::uint32_t> bounds_begin_;
  std::vector<std::uint32_t> table_;  // weighted-modulo or resilient tables per group
  std::vector<std::uint32_t> table_begin_, table_size_;
};

}  // namespace ecmpsim
