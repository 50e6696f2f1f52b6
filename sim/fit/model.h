// A fitted catalogue model (algorithm, key fields, seed, bit window,
// selection) and the member it picks for a flow: the same steps as a
// switch's ECMP decision (hashing/key.h, hasher.h, select.h), composed here
// because the fit stage sits below routing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "hashing/select.h"

namespace ecmpsim::fit {

// The group a model chooses in: its size and, for weighted threshold and
// resilient selection, the member weights and bucket count.
struct Group {
  std::uint32_t members = 2;
  std::vector<std::uint32_t> weights;  // empty: equal
  std::uint32_t buckets = 128;         // resilient
  bool weighted() const noexcept { return !weights.empty(); }
};

struct Model {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields;  // KeyLayout::Fields only; empty for the Linux layouts
  std::uint32_t seed = 0;
  hashing::SeedAs seed_as = hashing::SeedAs::Register;  // where `seed` enters
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  // For a seed-affine algorithm: `seed` is the smallest of every seed giving
  // the same members (they differ only in bits the selection never reads).
  bool seed_class = false;
};

// The fields a model's key reads, for display: its list, or what the Linux
// layouts hash for that address family (IPv6's policy 0 adds the flow label).
std::vector<hashing::Field> hashed_fields(const Model& m, hashing::Family family);

// Member selection for one model and group, with its tables built once.
class Selector {
 public:
  Selector(const Model& m, const Group& g);
  std::uint32_t member(const hashing::Tuple& t) const noexcept;
  // The member for a raw algorithm output (before the window).
  std::uint32_t member_of_hash(std::uint64_t raw) const noexcept;

 private:
  Model model_;
  std::uint32_t members_;
  std::vector<std::uint64_t> bounds_;
  std::vector<std::uint32_t> table_;
};

// "src-ip,dst-ip,proto" or "(kernel flow_keys: src-ip,dst-ip,...)".
std::string fields_text(const Model& m, hashing::Family family);

}  // namespace ecmpsim::fit
