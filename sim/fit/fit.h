// `ecmpsim fit`: every catalogue model consistent with a switch's observed
// members, the GF(2)-affine map when none is, and an honest verdict — how
// much evidence the observations carry against the number of models tried,
// whether one model (or one set of equivalent ones) remains, and how many
// more observations would settle it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/fit/linear.h"
#include "sim/fit/model.h"
#include "sim/fit/observations.h"
#include "sim/fit/search.h"

namespace ecmpsim::fit {

struct FitOptions {
  Group group;
  std::vector<const hashing::Algorithm*> algos;          // empty: the whole catalogue
  std::optional<std::vector<hashing::Field>> fields;     // only this field list (else all subsets)
  std::uint64_t seed_begin = 0, seed_end = 1ULL << 16;   // seeds tried one by one (half-open)
  // Where the seeds searched (and reported) enter: the convention of the
  // vocabulary the user names algorithms in (hashing/vocabulary.h).
  hashing::SeedAs seed_as = hashing::SeedAs::Register;
  // Also run the seed-by-seed search when an affine map already explains the
  // observations beyond chance (normally skipped).
  bool exhaustive = false;
  unsigned threads = 1;
  std::size_t keep = 20;  // models listed
  SearchProgress* progress = nullptr;
};

struct FitResult {
  std::size_t observations = 0;
  hashing::Family family = hashing::Family::V4;  // IPv6 if any observation is (its fixed layouts hash more)
  Group group;
  std::vector<Model> models;         // consistent catalogue models, best first (at most keep)
  std::vector<std::size_t> agree;    // per model: observations it reproduces (checked one by one)
  std::uint64_t candidates = 0;      // consistent catalogue models in all
  std::size_t classified = 0;         // the best candidates grouped by prediction (up to 200)
  std::size_t distinct = 0;          // of the listed ones, of the classified ones, how many predict differently for flows like the observed
  double hypotheses = 0;             // catalogue models tried
  double evidence_bits = 0;          // information in the observed members
  std::optional<LinearFit> linear;
  bool seeds_searched = false;       // the seed-by-seed engine ran
  std::string searched;              // what was searched, one line
  std::string skipped;               // what was not, and why ("" if nothing)
  bool certain = false;              // one model (class) beyond chance
  std::size_t more_needed = 0;       // observations to add when not certain
  bool uses_linear() const noexcept { return models.empty(); }
};

// The best model's member for any flow: the first catalogue model, else the
// linear map (nullopt when the observations do not determine that flow).
class Predictor {
 public:
  explicit Predictor(const FitResult& r);
  std::optional<std::uint32_t> operator()(const hashing::Tuple& t) const;

 private:
  std::optional<Selector> selector_;
  const LinearFit* linear_ = nullptr;
};

// Throws InputError when no model fits (no catalogue model and no consistent
// affine map), naming the file and the contradicting lines.
FitResult fit(const Observations& obs, const FitOptions& opt);

// The families each engine searches for these observations and options.
std::vector<Family> affine_families(const Observations& obs, const FitOptions& opt);
std::vector<Family> seed_families(const Observations& obs, const FitOptions& opt);

}  // namespace ecmpsim::fit
