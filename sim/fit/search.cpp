#include "sim/fit/search.h"

#include <algorithm>
#include <bit>
#include <tuple>

#include "sim/base/parallel.h"

namespace ecmpsim::fit {
namespace {

using hashing::Selection;

constexpr std::uint64_t low_mask(unsigned bits) noexcept { return bits >= 64 ? ~0ULL : (1ULL << bits) - 1; }

// Every observation's key for one family, back to back.
struct Keys {
  std::size_t len = 0;
  std::vector<std::uint8_t> bytes;
  hashing::Key at(std::size_t i) const noexcept { return {bytes.data() + i * len, len}; }
};

Keys build_keys(const Family& f, const Observations& obs) {
  Keys k;
  hashing::KeyBuffer buf;
  for (const Observation& o : obs.rows) {
    const std::size_t n = hashing::build_key(f.algo->layout, f.fields, o.tuple, buf);
    k.len = n;
    k.bytes.insert(k.bytes.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return k;
}

// Bit p set when the k bits of h from bit p up (cyclically within `bits`)
// spell m: the window positions a power-of-two group could have read m from.
std::uint64_t window_positions(std::uint64_t h, std::uint32_t m, unsigned k, unsigned bits) noexcept {
  const std::uint64_t all = low_mask(bits);
  h &= all;
  std::uint64_t w = all;
  for (unsigned j = 0; j < k; ++j) w &= hashing::window(((m >> j) & 1) ? h : ~h & all, bits, j);
  return w;
}

// The offsets still alive per selection, as bit masks (bit = offset).
struct Alive {
  std::uint64_t mod = 0, thr = 0, res = 0;
  bool any() const noexcept { return (mod | thr | res) != 0; }
};

// Narrows the alive offsets by one observation's hash and member.
class Checker {
 public:
  Checker(const Group& g, const hashing::Algorithm& a) : g_(g), bits_(a.bits) {
    const unsigned bits = a.bits;
    pow2_ = !g.weighted() && std::has_single_bit(g.members) && g.members >= 2;
    k_ = static_cast<unsigned>(std::countr_zero(g.members));
    std::vector<std::uint32_t> w = g.weights;
    if (w.empty()) w.assign(g.members, 1);
    const std::vector<std::uint64_t> bounds = hashing::threshold_bounds(w, bits);
    for (std::uint32_t m = 0; m < g.members; ++m) {
      lo_.push_back(m == 0 ? 0 : bounds[m - 1] + 1);
      hi_.push_back(m + 1 == g.members ? low_mask(bits) : bounds[m]);
    }
    if (g.weighted()) table_ = hashing::resilient_buckets(w, g.buckets);
    const std::uint64_t all = low_mask(bits < 64 ? bits : 64);
    initial_ = g.weighted() ? Alive{0, all, all} : Alive{all, all, 0};
    // The kernel's multipath selection is hash-threshold with no offset
    // (fib_select_multipath); searching others would only add chance fits.
    if (hashing::key_layout(a.layout).linux_policy >= 0) initial_ = Alive{0, 1, 0};
  }
  Alive initial() const noexcept { return initial_; }
  unsigned combos() const noexcept {
    return static_cast<unsigned>(std::popcount(initial_.mod) + std::popcount(initial_.thr) + std::popcount(initial_.res));
  }

  void narrow(std::uint64_t raw, std::uint32_t m, Alive& a) const noexcept {
    raw &= low_mask(bits_);
    if (pow2_ && k_ <= bits_) {
      const std::uint64_t w = window_positions(raw, m, k_, bits_);
      a.mod &= w;
      a.thr &= hashing::window(w, bits_, bits_ - k_);
      return;
    }
    for (std::uint64_t s = a.mod; s; s &= s - 1) {
      const unsigned off = static_cast<unsigned>(std::countr_zero(s));
      if (hashing::window(raw, bits_, off) % g_.members != m) a.mod &= ~(1ULL << off);
    }
    for (std::uint64_t s = a.thr; s; s &= s - 1) {
      const unsigned off = static_cast<unsigned>(std::countr_zero(s));
      const std::uint64_t h = hashing::window(raw, bits_, off);
      if (h < lo_[m] || h > hi_[m]) a.thr &= ~(1ULL << off);
    }
    for (std::uint64_t s = a.res; s; s &= s - 1) {
      const unsigned off = static_cast<unsigned>(std::countr_zero(s));
      if (table_[hashing::window(raw, bits_, off) % table_.size()] != m) a.res &= ~(1ULL << off);
    }
  }

 private:
  Group g_;
  unsigned bits_;
  bool pow2_ = false;
  unsigned k_ = 0;
  std::vector<std::uint64_t> lo_, hi_;
  std::vector<std::uint32_t> table_;
  Alive initial_;
};

// What rank_before compares, without copying the field list.
auto rank_key(const hashing::Algorithm* algo, const std::vector<hashing::Field>& fields, std::uint32_t seed,
              std::uint32_t offset, Selection select) {
  const bool plain_fields = !hashing::key_layout(algo->layout).fixed.empty() || fields == hashing::default_fields();
  const auto index = static_cast<std::size_t>(algo - hashing::catalogue().data());
  return std::tuple<bool, bool, bool, std::uint32_t, std::size_t, std::size_t, const std::vector<hashing::Field>&,
                    Selection, std::uint32_t>(!plain_fields, offset != 0, select != hashing::default_selection(*algo),
                                              seed, index, fields.size(), fields, select, offset);
}

// A consistent model, compactly, until the search ends.
struct Hit {
  std::uint32_t family;
  std::uint32_t seed;
  std::uint8_t offset;
  Selection select;
  bool seed_class;
};

Model model_of(const Hit& h, const std::vector<Family>& families) {
  const Family& f = families[h.family];
  return Model{f.algo, f.fields, h.seed, f.seed_as, h.offset, h.select, h.seed_class};
}

void add_hits(const Alive& a, std::uint32_t family, std::uint32_t seed, bool seed_class, std::vector<Hit>& out) {
  const std::pair<std::uint64_t, Selection> masks[] = {
      {a.mod, Selection::Modulo}, {a.thr, Selection::Threshold}, {a.res, Selection::Resilient}};
  for (const auto& [mask, sel] : masks)
    for (std::uint64_t s = mask; s; s &= s - 1)
      out.push_back({family, seed, static_cast<std::uint8_t>(std::countr_zero(s)), sel, seed_class});
}

// Keeps each thread's list to its best `keep` by rank, so the merged best
// `keep` are the same for any thread count.
class HitList {
 public:
  HitList(const std::vector<Family>& f, std::size_t keep) : families_(&f), keep_(keep) {}
  std::vector<Hit> hits;
  std::uint64_t found = 0;
  void trim(bool final) {
    if (hits.size() <= (final ? keep_ : 4 * keep_ + 1024)) return;
    auto less = [this](const Hit& a, const Hit& b) {
      const Family& fa = (*families_)[a.family];
      const Family& fb = (*families_)[b.family];
      return rank_key(fa.algo, fa.fields, a.seed, a.offset, a.select) <
             rank_key(fb.algo, fb.fields, b.seed, b.offset, b.select);
    };
    std::nth_element(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(keep_), hits.end(), less);
    hits.resize(keep_);
  }

 private:
  const std::vector<Family>* families_;
  std::size_t keep_;
};

SearchResult finish(std::vector<HitList>& lists, const std::vector<Family>& families, std::size_t keep,
                    double hypotheses) {
  HitList all(families, keep);
  for (HitList& l : lists) {
    all.hits.insert(all.hits.end(), l.hits.begin(), l.hits.end());
    all.found += l.found;
  }
  all.trim(true);
  SearchResult r;
  r.found = all.found;
  r.hypotheses = hypotheses;
  for (const Hit& h : all.hits) r.models.push_back(model_of(h, families));
  std::sort(r.models.begin(), r.models.end(), rank_before);
  return r;
}

// The smallest seed whose effect on the hash reads d at window position p
// (k bits), or nullopt when no seed below 2^24 does.
std::optional<std::uint32_t> class_seed(const Family& f, std::size_t key_len, unsigned p, unsigned k,
                                        std::uint32_t d) {
  const hashing::Algorithm& a = *f.algo;
  const std::vector<std::uint8_t> zero(key_len, 0);
  const hashing::Key key{zero.data(), zero.size()};
  const std::uint64_t base = hashing::seeded(a, f.seed_as, key, 0);
  for (std::uint32_t s = 0; s < (1u << 24); ++s) {
    const std::uint64_t effect = (hashing::seeded(a, f.seed_as, key, s) ^ base) & low_mask(a.bits);
    if ((hashing::window(effect, a.bits, p) & ((1ULL << k) - 1)) == d) return s;
  }
  return std::nullopt;
}

}  // namespace

unsigned offsets_of(const hashing::Algorithm& a) noexcept { return a.bits < 64 ? a.bits : 64; }

bool rank_before(const Model& a, const Model& b) {
  return rank_key(a.algo, a.fields, a.seed, a.offset, a.select) < rank_key(b.algo, b.fields, b.seed, b.offset, b.select);
}

SearchResult search_affine(const Observations& obs, const Group& group, const std::vector<Family>& families,
                           unsigned threads, std::size_t keep) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(group.members));
  std::vector<HitList> lists(std::max(1u, threads), HitList(families, keep));
  double hypotheses = 0;
  for (const Family& f : families) hypotheses += 2.0 * offsets_of(*f.algo) * group.members;
  for_each_timed_chunk(threads, families.size(), [&](unsigned thread, std::uint64_t lo, std::uint64_t hi) {
    HitList& out = lists[thread];
    for (std::uint64_t fi = lo; fi < hi; ++fi) {
      const Family& f = families[fi];
      const unsigned bits = f.algo->bits;
      if (k > bits) continue;
      const Keys keys = build_keys(f, obs);
      const std::uint64_t h0 = hashing::seeded(*f.algo, f.seed_as, keys.at(0), 0);
      std::uint64_t alive = low_mask(offsets_of(*f.algo));
      for (std::size_t i = 1; i < obs.rows.size() && alive; ++i)
        alive &= window_positions(hashing::seeded(*f.algo, f.seed_as, keys.at(i), 0) ^ h0,
                                  obs.rows[i].member ^ obs.rows[0].member, k, bits);
      for (std::uint64_t s = alive; s; s &= s - 1) {
        const unsigned p = static_cast<unsigned>(std::countr_zero(s));
        const std::uint32_t d =
            obs.rows[0].member ^ static_cast<std::uint32_t>(hashing::window(h0 & low_mask(bits), bits, p) & (group.members - 1));
        const auto seed = class_seed(f, keys.len, p, k, d);
        if (!seed) continue;
        const auto family = static_cast<std::uint32_t>(fi);
        out.hits.push_back({family, *seed, static_cast<std::uint8_t>(p), Selection::Modulo, true});
        out.hits.push_back({family, *seed, static_cast<std::uint8_t>((p + k) % bits), Selection::Threshold, true});
        out.found += 2;
      }
      out.trim(false);
    }
    return hi - lo;
  });
  return finish(lists, families, keep, hypotheses);
}

SearchResult search_seeds(const Observations& obs, const Group& group, const std::vector<Family>& families,
                          std::uint64_t seed_begin, std::uint64_t seed_end, unsigned threads, std::size_t keep,
                          SearchProgress* progress) {
  std::vector<Keys> keys;
  std::vector<Checker> checkers;
  double hypotheses = 0;
  for (const Family& f : families) {
    keys.push_back(build_keys(f, obs));
    checkers.emplace_back(group, *f.algo);
    hypotheses += static_cast<double>(checkers.back().combos()) * static_cast<double>(seed_end - seed_begin);
  }
  if (progress != nullptr) progress->total.fetch_add(seed_end - seed_begin);
  std::vector<HitList> lists(std::max(1u, threads), HitList(families, keep));
  const std::size_t n = obs.rows.size();
  for_each_timed_chunk(threads, seed_end - seed_begin, [&](unsigned thread, std::uint64_t lo, std::uint64_t hi) {
    HitList& out = lists[thread];
    for (std::uint64_t s = seed_begin + lo; s < seed_begin + hi; ++s) {
      const auto seed = static_cast<std::uint32_t>(s);
      for (std::size_t fi = 0; fi < families.size(); ++fi) {
        const Family& fam = families[fi];
        const Checker& check = checkers[fi];
        Alive a = check.initial();
        for (std::size_t i = 0; i < n && a.any(); ++i)
          check.narrow(hashing::seeded(*fam.algo, fam.seed_as, keys[fi].at(i), seed), obs.rows[i].member, a);
        if (!a.any()) continue;
        const std::size_t before = out.hits.size();
        add_hits(a, static_cast<std::uint32_t>(fi), seed, false, out.hits);
        out.found += out.hits.size() - before;
        out.trim(false);
      }
    }
    if (progress != nullptr) {
      progress->done.fetch_add(hi - lo, std::memory_order_relaxed);
      if (progress->changed) progress->changed(*progress);
    }
    return hi - lo;
  });
  return finish(lists, families, keep, hypotheses);
}

}  // namespace ecmpsim::fit
