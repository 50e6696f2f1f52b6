#include "sim/fit/linear.h"

#include <algorithm>
#include <bit>

namespace ecmpsim::fit {
namespace {

void set_bit(BitRow& r, unsigned b) noexcept { r[b / 64] |= 1ULL << (b % 64); }

}  // namespace

bool LinearFit::row_of(const hashing::Tuple& t, BitRow& r) const noexcept {
  hashing::KeyBuffer key;
  if (hashing::build_key(hashing::KeyLayout::Fields, fields_, t, key) != key_len_) return false;
  r = BitRow{};
  // Byte i's bit b is column 8i + b: any fixed bijection of the key bits
  // serves, the map being affine in each of them.
  for (std::size_t i = 0; i < key_len_; ++i) r[i / 8] |= static_cast<std::uint64_t>(key[i]) << (8 * (i % 8));
  set_bit(r, columns_ - 1);
  return true;
}

unsigned LinearFit::reduce(BitRow& r, std::uint32_t& rhs, BitRow* combo) const noexcept {
  for (std::size_t w = 0; w < words_; ++w) {
    while (r[w] != 0) {
      const auto p = static_cast<unsigned>(64 * w + static_cast<unsigned>(std::countr_zero(r[w])));
      const Basis& b = basis_[p];
      if (!b.used) return p;
      // The pivot row has no bits below p, so the words before w stay zero.
      for (std::size_t i = w; i < words_; ++i) r[i] ^= b.row[i];
      rhs ^= b.rhs;
      if (combo != nullptr)
        for (std::size_t i = 0; i < words_; ++i) (*combo)[i] ^= b.combo[i];
    }
  }
  return columns_;
}

LinearFit::LinearFit(const Observations& obs, const Group& group) : fields_(obs.fields) {
  if (group.weighted() || group.members < 2 || !std::has_single_bit(group.members)) {
    why_not_ = group.weighted() ? "weighted selection is not affine in the hash bits"
                                : "the member is affine in the key bits only when the group has 2^k members";
    return;
  }
  hashing::KeyBuffer key;
  key_len_ = hashing::build_key(hashing::KeyLayout::Fields, fields_, obs.rows.front().tuple, key);
  columns_ = static_cast<unsigned>(8 * key_len_ + 1);
  words_ = (columns_ + 63) / 64;
  BitRow first{}, r{}, varying{};
  row_of(obs.rows.front().tuple, first);
  for (const Observation& o : obs.rows) {
    if (!row_of(o.tuple, r)) {
      why_not_ = "the observations mix IPv4 and IPv6 flows (keys of different lengths)";
      return;
    }
    for (std::size_t i = 0; i < words_; ++i) varying[i] |= r[i] ^ first[i];
  }
  applicable_ = true;
  bits_ = static_cast<unsigned>(std::countr_zero(group.members));
  basis_.resize(columns_);
  unknowns_ = 1;
  for (std::size_t i = 0; i < words_; ++i) unknowns_ += static_cast<std::size_t>(std::popcount(varying[i]));
  for (const Observation& o : obs.rows) {
    ++used_;
    row_of(o.tuple, r);
    std::uint32_t rhs = o.member;
    BitRow combo{};
    const unsigned p = reduce(r, rhs, &combo);
    if (p < columns_) {
      Basis& b = basis_[p];
      b.row = r;
      b.rhs = rhs;
      b.combo = combo;
      set_bit(b.combo, static_cast<unsigned>(rank_));
      b.used = true;
      slot_line_.push_back(o.line);
      ++rank_;
      continue;
    }
    if (rhs == 0) continue;  // a dependent observation that confirms the fit
    for (unsigned s = 0; s < rank_; ++s)
      if ((combo[s / 64] >> (s % 64)) & 1) contradiction_.push_back(slot_line_[s]);
    contradiction_.push_back(o.line);
    std::sort(contradiction_.begin(), contradiction_.end());
    return;
  }
}

std::optional<std::uint32_t> LinearFit::predict(const hashing::Tuple& t) const {
  if (!applicable_ || !consistent()) return std::nullopt;
  BitRow r;
  if (!row_of(t, r)) return std::nullopt;
  std::uint32_t rhs = 0;
  if (reduce(r, rhs, nullptr) < columns_) return std::nullopt;
  return rhs;
}

}  // namespace ecmpsim::fit
