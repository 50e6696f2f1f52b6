// Flat forwarding state for one scenario: what each switch does with a
// packet, compiled from the equal-cost sets and the scenario's routing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/select.h"
#include "sim/fabric.h"
#include "sim/routes.h"
#include "sim/spec.h"

namespace ecmpsim {

// A switch's hash, resolved: algorithm, key fields, seed, bit window, selection.
struct SwitchHash {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields;
  std::uint32_t seed = 0;
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t buckets = 0;

  std::uint64_t hash(const hashing::Tuple& t) const noexcept {
    hashing::KeyBuffer key;
    const std::size_t n = hashing::build_key(algo->layout, fields, t, key);
    return hashing::window(algo->fn({key.data(), n}, seed), algo->bits, offset);
  }
};

// Throws InputError (pointing at the scenario's hash) for an unknown algorithm.
SwitchHash resolve_hash(const HashSpec& spec, const std::string& source);

class Forwarding {
 public:
  Forwarding(const Fabric& fabric, const EqualCostSets& sets, const ScenarioSpec& scenario,
             const std::string& source);

  bool is_static() const noexcept { return !static_next_.empty(); }
  const EqualCostSets& sets() const noexcept { return *sets_; }
  const SwitchHash& hash_of(std::uint32_t switch_index) const { return hashes_[hash_index_[switch_index]]; }
  // Distinct switch hashes and which one each switch uses.
  std::size_t hash_count() const noexcept { return hashes_.size(); }
  const SwitchHash& hash_at(std::size_t i) const { return hashes_[i]; }
  std::uint32_t hash_index(std::uint32_t switch_index) const { return hash_index_[switch_index]; }

  // Member index within group g for hash value h (modulo / threshold / resilient).
  std::uint32_t select(std::uint32_t g, const SwitchHash& hash, std::uint64_t h) const {
    const auto n = static_cast<std::uint32_t>(sets_->members(g).size());
    switch (hash.select) {
      case hashing::Selection::Modulo: return hashing::select_modulo(h, n);
      case hashing::Selection::Threshold:
        return hashing::select_threshold(h, {bounds_.data() + bounds_begin_[g], n});
      case hashing::Selection::Resilient:
        return buckets_[buckets_begin_[g] + h % hash.buckets];
    }
    return 0;
  }

  // Static routing: the next link from a switch towards an endpoint; kNone if no route.
  LinkId static_next(std::uint32_t switch_index, std::uint32_t endpoint) const {
    return static_next_[std::size_t{switch_index} * endpoints_ + endpoint];
  }

 private:
  const EqualCostSets* sets_;
  std::vector<SwitchHash> hashes_;
  std::vector<std::uint32_t> hash_index_;  // per switch
  std::vector<std::uint64_t> bounds_;      // threshold bounds per group (equal weights)
  std::vector<std::uint32_t> bounds_begin_;
  std::vector<std::uint32_t> buckets_;     // resilient bucket tables per group
  std::vector<std::uint32_t> buckets_begin_;
  std::uint32_t endpoints_ = 0;
  std::vector<LinkId> static_next_;        // switch x endpoint, static scenarios only
};

}  // namespace ecmpsim
