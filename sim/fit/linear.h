// Learning a hash that is not in the catalogue: when a group of 2^k members
// picks by k bits of a GF(2)-affine hash (any CRC, whatever its polynomial,
// initial value, reflection or seed; any XOR fold; any Toeplitz key) with
// modulo or equal-weight threshold selection, each member bit is an affine
// function of the key bits, whatever the field order. Gaussian elimination
// over the observations finds that function, says how many observations were
// independent, and whether it is fully determined; a new flow is predicted
// exactly when its key bits are a combination of observed ones.
//
// The unknowns are the bits of the key the observed fields pack into
// (hashing/key.h: IPv4 or IPv6 addresses, the flow label, ...), up to
// kMaxKeyBytes, plus the constant term; rows are as many 64-bit words as the
// key needs, so an IPv4 five-tuple (104 bits) costs two words and an IPv6 one
// with its flow label (328 bits) six. One family per fit: every observation's
// key has the same length (the reader rejects mixed files).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hashing/key.h"
#include "sim/fit/model.h"
#include "sim/fit/observations.h"

namespace ecmpsim::fit {

// One GF(2) row: the key's bits and the constant term; only the first
// `words` of a fit are used.
inline constexpr std::size_t kRowWords = (hashing::kMaxKeyBytes * 8 + 1 + 63) / 64;
using BitRow = std::array<std::uint64_t, kRowWords>;

class LinearFit {
 public:
  // Learns from every observation (stopping at the first contradiction).
  LinearFit(const Observations& obs, const Group& group);

  bool applicable() const noexcept { return applicable_; }
  const std::string& why_not() const noexcept { return why_not_; }
  unsigned member_bits() const noexcept { return bits_; }
  std::size_t unknowns() const noexcept { return unknowns_; }  // key bits that vary + the constant
  std::size_t rank() const noexcept { return rank_; }          // independent observations
  std::size_t used() const noexcept { return used_; }          // observations taken in
  bool consistent() const noexcept { return contradiction_.empty(); }
  bool determined() const noexcept { return applicable_ && consistent() && rank_ == unknowns_; }
  // Lines whose key bits XOR to zero while their members do not (empty if consistent).
  const std::vector<std::uint32_t>& contradiction() const noexcept { return contradiction_; }
  // The member, when the observations determine it for this tuple (nullopt
  // too for a tuple whose key length differs: the other address family).
  std::optional<std::uint32_t> predict(const hashing::Tuple& t) const;

 private:
  struct Basis {
    BitRow row{};
    std::uint32_t rhs = 0;
    BitRow combo{};  // which basis observations (by slot) XOR to this row
    bool used = false;
  };
  // The key bits of `t` and the constant; false when its key length differs.
  bool row_of(const hashing::Tuple& t, BitRow& r) const noexcept;
  // Reduces r by the basis (and rhs, and combo when given); returns r's lowest column left.
  unsigned reduce(BitRow& r, std::uint32_t& rhs, BitRow* combo) const noexcept;

  bool applicable_ = false;
  std::string why_not_;
  unsigned bits_ = 0;
  std::size_t unknowns_ = 0, rank_ = 0, used_ = 0;
  std::vector<hashing::Field> fields_;
  std::size_t key_len_ = 0;   // bytes of every observation's key
  unsigned columns_ = 0;      // key bits + the constant (the last column)
  std::size_t words_ = 0;     // of a BitRow in use
  std::vector<Basis> basis_;  // by pivot column
  std::vector<std::uint32_t> slot_line_;  // line of the observation in each basis slot
  std::vector<std::uint32_t> contradiction_;
};

}  // namespace ecmpsim::fit
