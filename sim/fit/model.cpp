#include "sim/fit/model.h"

namespace ecmpsim::fit {

std::vector<hashing::Field> hashed_fields(const Model& m, hashing::Family family) {
  const auto fields = hashing::key_fields(m.algo->layout, family, m.fields);
  return {fields.begin(), fields.end()};
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
  return member_of_hash(hashing::seeded(*model_.algo, model_.seed_as, {key.data(), n}, model_.seed));
}

std::string fields_text(const Model& m, hashing::Family family) {
  std::string s;
  for (hashing::Field f : hashed_fields(m, family)) s += (s.empty() ? "" : ",") + std::string(hashing::field_name(f));
  return hashing::key_layout(m.algo->layout).fixed.empty() ? s : "(kernel) " + s;
}

}  // namespace ecmpsim::fit
