#include "sim/fit/model.h"

namespace ecmpsim::fit {

std::vector<hashing::Field> hashed_fields(const Model& m) {
  using enum hashing::Field;
  switch (m.algo->layout) {
    case hashing::KeyLayout::Fields: return m.fields;
    case hashing::KeyLayout::LinuxL3: return {SrcIp, DstIp};
    case hashing::KeyLayout::LinuxL4:
    case hashing::KeyLayout::BondL34: return {SrcIp, DstIp, Proto, SrcPort, DstPort};
  }
  return m.fields;
}

Selector::Selector(const Model& m, const Group& g) : model_(m), members_(g.members) {
  std::vector<std::uint32_t> w = g.weights;
  if (w.empty()) w.assign(g.members, 1);
  if (m.select == hashing::Selection::Threshold) bounds_ = hashing::threshold_bounds(w, m.algo->bits);
  if (m.select == hashing::Selection::Resilient) table_ = hashing::resilient_buckets(w, g.buckets);
}

std::uint32_t Selector::member_of_hash(std::uint64_t raw) const noexcept {
  const std::uint64_t h = hashing::window(raw, model_.algo->bits, model_.offset);
  switch (model_.select) {
    case hashing::Selection::Modulo: return hashing::select_modulo(h, members_);
    case hashing::Selection::Threshold: return hashing::select_threshold(h, bounds_);
    case hashing::Selection::Resilient: return table_[h % table_.size()];
  }
  return 0;
}

std::uint32_t Selector::member(const hashing::Tuple& t) const noexcept {
  hashing::KeyBuffer key;
  const std::size_t n = hashing::build_key(model_.algo->layout, model_.fields, t, key);
  return member_of_hash(model_.algo->fn({key.data(), n}, model_.seed));
}

std::string fields_text(const Model& m) {
  std::string s;
  for (hashing::Field f : hashed_fields(m)) s += (s.empty() ? "" : ",") + std::string(hashing::field_name(f));
  return m.algo->layout == hashing::KeyLayout::Fields ? s : "(kernel) " + s;
}

}  // namespace ecmpsim::fit
