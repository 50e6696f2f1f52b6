#include "sim/fit/linear.h"

#include <algorithm>
#include <bit>

namespace ecmpsim::fit {
namespace {

constexpr unsigned kConstantColumn = 164;  // after every field's bits (22 + 20 bits)

unsigned width(hashing::Field f) noexcept {
  switch (f) {
    case hashing::Field::SrcIp:
    case hashing::Field::DstIp: return 32;
    case hashing::Field::Proto: return 8;
    case hashing::Field::FlowLabel: return 20;
    case hashing::Field::DstQp: return 24;
    default: return 16;
  }
}

std::uint64_t value(hashing::Field f, const hashing::Tuple& t) noexcept {
  switch (f) {
    case hashing::Field::SrcIp: return t.src_ip.v4();  // IPv4 only: the learner declines IPv6
    case hashing::Field::DstIp: return t.dst_ip.v4();
    case hashing::Field::Proto: return t.proto;
    case hashing::Field::SrcPort: return t.sport;
    case hashing::Field::DstPort: return t.dport;
    case hashing::Field::FlowLabel: return t.flow_label & 0xFFFFF;
    case hashing::Field::InPort: return t.in_port;
    case hashing::Field::DstQp: return t.dst_qp & 0xFFFFFF;
    // Per-hop Ethernet fields are no observation column (observations.cpp), so never fitted.
    case hashing::Field::SrcMac:
    case hashing::Field::DstMac:
    case hashing::Field::EtherType:
    case hashing::Field::VlanId: return 0;
  }
  return 0;
}

void set_bit(BitRow& r, unsigned b) noexcept { r[b / 64] |= 1ULL << (b % 64); }
bool zero(const BitRow& r) noexcept { return (r[0] | r[1] | r[2]) == 0; }
void xor_into(BitRow& a, const BitRow& b) noexcept {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] ^= b[i];
}
unsigned lowest(const BitRow& r) noexcept {
  for (unsigned i = 0; i < 3; ++i)
    if (r[i]) return 64 * i + static_cast<unsigned>(std::countr_zero(r[i]));
  return 192;
}
unsigned popcount(const BitRow& r) noexcept {
  return static_cast<unsigned>(std::popcount(r[0]) + std::popcount(r[1]) + std::popcount(r[2]));
}

}  // namespace

BitRow LinearFit::row_of(const hashing::Tuple& t) const noexcept {
  BitRow r{};
  unsigned at = 0;
  for (hashing::Field f : fields_) {
    const unsigned w = width(f);
    const std::uint64_t v = value(f, t);
    for (unsigned b = 0; b < w; ++b)
      if ((v >> b) & 1) set_bit(r, at + b);
    at += w;
  }
  set_bit(r, kConstantColumn);
  return r;
}

LinearFit::LinearFit(const Observations& obs, const Group& group) : fields_(obs.fields) {
  if (group.weighted() || group.members < 2 || !std::has_single_bit(group.members)) {
    why_not_ = group.weighted() ? "weighted selection is not affine in the hash bits"
                                : "the member is affine in the key bits only when the group has 2^k members";
    return;
  }
  const bool v6 = std::any_of(obs.rows.begin(), obs.rows.end(), [](const Observation& o) {
    return !o.tuple.src_ip.is_v4() || !o.tuple.dst_ip.is_v4();
  });
  if (v6) {
    why_not_ = "IPv6 addresses make the key wider than the learner's 192 bits";
    return;
  }
  applicable_ = true;
  bits_ = static_cast<unsigned>(std::countr_zero(group.members));
  basis_.resize(192);
  BitRow varying{};
  const BitRow first = row_of(obs.rows.front().tuple);
  for (const Observation& o : obs.rows) {
    BitRow r = row_of(o.tuple);
    xor_into(r, first);
    for (std::size_t i = 0; i < 3; ++i) varying[i] |= r[i];
  }
  unknowns_ = popcount(varying) + 1;
  for (const Observation& o : obs.rows) {
    ++used_;
    BitRow r = row_of(o.tuple);
    std::uint32_t rhs = o.member;
    BitRow combo{};
    for (unsigned p; (p = lowest(r)) < 192 && basis_[p].used;) {
      xor_into(r, basis_[p].row);
      rhs ^= basis_[p].rhs;
      xor_into(combo, basis_[p].combo);
    }
    if (!zero(r)) {
      Basis& b = basis_[lowest(r)];
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
  BitRow r = row_of(t);
  std::uint32_t rhs = 0;
  for (unsigned p; (p = lowest(r)) < 192 && basis_[p].used;) {
    xor_into(r, basis_[p].row);
    rhs ^= basis_[p].rhs;
  }
  if (!zero(r)) return std::nullopt;
  return rhs;
}

}  // namespace ecmpsim::fit
