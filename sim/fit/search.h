// The catalogue search: which (algorithm, key fields, seed, offset,
// selection) reproduce every observed member. Two engines:
//  - seed-affine algorithms (CRCs, XOR folds, Linux bonding) in a group of
//    2^k equal members: a seed XORs one constant into every hash of a key
//    length, so the k member bits read at window position p are the unseeded
//    hash's bits XOR a constant d. One pass over the observations finds every
//    (p, d) that fits; each is an equivalence class of seeds, reported by its
//    smallest seed. No seed is enumerated.
//  - every other case: each seed of a range is tried against the
//    observations in turn, keeping a bit mask of the offsets (and selections)
//    still alive and rejecting the seed as soon as the mask is empty; the
//    range is split over threads (sim/base/parallel.h).
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <vector>

#include "sim/fit/model.h"
#include "sim/fit/observations.h"

namespace ecmpsim::fit {

// An algorithm and the fields its key reads (empty for the fixed layouts).
struct Family {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields;
  hashing::SeedAs seed_as = hashing::SeedAs::Register;  // the convention seeds are searched in
};

// Seeds (or families) finished and to do, handed to `changed` by the
// searching threads (concurrently) as chunks finish, for a front door's
// progress display (sim/app/progress.h).
struct SearchProgress {
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> total{0};
  std::function<void(const SearchProgress&)> changed;
};

struct SearchResult {
  std::vector<Model> models;  // the best-ranked `keep` of those found (rank_before order)
  std::uint64_t found = 0;    // consistent models in all
  double hypotheses = 0;      // models tried: (family, seed or seed class, offset, selection)
};

// Every offset of a window within `bits` bits (offsets past the width repeat).
unsigned offsets_of(const hashing::Algorithm& a) noexcept;

// Ranks models by how little they assume: the published defaults first
// (the full five-tuple in order, offset 0, the algorithm's own selection, a
// small seed), then catalogue order.
bool rank_before(const Model& a, const Model& b);

// The seed-affine engine; requires an unweighted group of 2^k members and
// seed-affine algorithms.
SearchResult search_affine(const Observations& obs, const Group& group, const std::vector<Family>& families,
                           unsigned threads, std::size_t keep);

// The seed-by-seed engine over seeds [seed_begin, seed_end).
SearchResult search_seeds(const Observations& obs, const Group& group, const std::vector<Family>& families,
                          std::uint64_t seed_begin, std::uint64_t seed_end, unsigned threads, std::size_t keep,
                          SearchProgress* progress = nullptr);

}  // namespace ecmpsim::fit
