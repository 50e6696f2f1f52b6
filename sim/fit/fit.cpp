#include "sim/fit/fit.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <stdexcept>
#include <tuple>

#include "sim/base/error.h"
#include "sim/base/splitmix.h"

namespace ecmpsim::fit {
namespace {

// Bits of evidence against a chance fit required before a model is called certain.
constexpr double kMarginBits = 10;
// Confirmations (dependent observations x member bits) after which an affine
// map explains the observations beyond chance, so a non-affine hash cannot.
constexpr double kAffineBits = 30;
// Consistent models checked one by one and grouped by their predictions
// (the first of them by rank); more than this many is never certain.
constexpr std::size_t kClassified = 200;

bool affine_eligible(const hashing::Algorithm& a, const Group& g) {
  return a.seed_affine && !g.weighted() && g.members >= 2 && std::has_single_bit(g.members);
}

std::vector<const hashing::Algorithm*> algorithms(const FitOptions& opt) {
  if (!opt.algos.empty()) return opt.algos;
  std::vector<const hashing::Algorithm*> all;
  for (const hashing::Algorithm& a : hashing::catalogue()) all.push_back(&a);
  return all;
}

// Every ordered selection of at least one of `fields`.
void orders(const std::vector<hashing::Field>& fields, std::vector<hashing::Field>& prefix, std::uint32_t used,
            std::vector<std::vector<hashing::Field>>& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (used & (1u << i)) continue;
    prefix.push_back(fields[i]);
    out.push_back(prefix);
    orders(fields, prefix, used | (1u << i), out);
    prefix.pop_back();
  }
}

std::vector<std::vector<hashing::Field>> field_lists(const Observations& obs, const FitOptions& opt, bool all_orders) {
  if (opt.fields) return {*opt.fields};
  std::vector<std::vector<hashing::Field>> out;
  if (all_orders) {
    std::vector<hashing::Field> prefix;
    orders(obs.fields, prefix, 0, out);
    return out;
  }
  for (std::uint32_t mask = 1; mask < (1u << obs.fields.size()); ++mask) {
    std::vector<hashing::Field> list;
    for (std::size_t i = 0; i < obs.fields.size(); ++i)
      if (mask & (1u << i)) list.push_back(obs.fields[i]);
    out.push_back(std::move(list));
  }
  return out;
}

std::vector<Family> families(const Observations& obs, const FitOptions& opt, bool affine) {
  std::vector<Family> out;
  std::vector<std::vector<hashing::Field>> lists;
  for (const hashing::Algorithm* a : algorithms(opt)) {
    if (affine_eligible(*a, opt.group) != affine) continue;
    if (!hashing::key_layout(a->layout).fixed.empty()) {
      out.push_back({a, {}, opt.seed_as});
      continue;
    }
    if (lists.empty()) lists = field_lists(obs, opt, affine);
    for (const auto& l : lists) out.push_back({a, l, opt.seed_as});
  }
  return out;
}

// Flows like the observed ones: each field copied from an observation drawn
// at random (SplitMix64 from a fixed seed), so bits that never varied stay as
// they were. Models that agree on all of them are told apart by no
// observation of this kind: the user cannot settle them, nor needs to. 4096
// of them catch a difference on 1 flow in 500 with probability 0.9997
// (threshold selection makes near neighbours: hashes that differ in low bits
// pick differently only near a bound).
std::vector<hashing::Tuple> probes(const Observations& obs) {
  constexpr std::size_t kProbes = 4096;
  SplitMix64 draw{kSplitMixGamma};
  auto pick = [&]() -> const hashing::Tuple& { return obs.rows[draw.below(obs.rows.size())].tuple; };
  std::vector<hashing::Tuple> out(kProbes);
  for (hashing::Tuple& t : out) {
    t.src_ip = pick().src_ip;
    t.dst_ip = pick().dst_ip;
    t.proto = pick().proto;
    t.sport = pick().sport;
    t.dport = pick().dport;
    t.flow_label = pick().flow_label;
    t.in_port = pick().in_port;
    t.dst_qp = pick().dst_qp;
  }
  return out;
}

double evidence(const Observations& obs, const Group& g) {
  if (!g.weighted()) return static_cast<double>(obs.rows.size()) * std::log2(static_cast<double>(g.members));
  double total = 0, bits = 0;
  for (std::uint32_t w : g.weights) total += w;
  for (const Observation& o : obs.rows) bits += std::log2(total / g.weights[o.member]);
  return bits;
}

void judge(FitResult& r) {
  const double per_obs = r.evidence_bits / static_cast<double>(std::max<std::size_t>(1, r.observations));
  if (!r.models.empty()) {
    const double needed = std::log2(std::max(1.0, r.hypotheses)) + kMarginBits;
    const bool all_listed = r.candidates == r.classified;
    const double classes = all_listed ? static_cast<double>(r.distinct) : static_cast<double>(r.candidates);
    r.certain = all_listed && r.distinct == 1 && r.evidence_bits >= needed;
    if (!r.certain) {
      const double short_bits = std::max(needed - r.evidence_bits, std::log2(std::max(1.0, classes)));
      r.more_needed = static_cast<std::size_t>(std::ceil(std::max(short_bits, 1.0) / per_obs));
    }
    return;
  }
  // The affine map predicts a flow exactly when its key bits combine
  // observed ones and refuses the others, so it is certain once the
  // observations are affine beyond chance; "determined" says whether it
  // places every flow.
  const LinearFit& l = *r.linear;
  const double confirmed = static_cast<double>(r.observations - l.rank()) * l.member_bits();
  r.certain = l.consistent() && confirmed >= 2 * kMarginBits;
  if (!r.certain)
    r.more_needed = static_cast<std::size_t>(std::ceil((2 * kMarginBits - confirmed) / l.member_bits()));
  else if (!l.determined())
    r.more_needed = l.unknowns() - l.rank();
}

std::string range_text(std::uint64_t a, std::uint64_t b) { return std::to_string(a) + ".." + std::to_string(b - 1); }

[[noreturn]] void no_model(const Observations& obs, const FitResult& r, const FitOptions& opt) {
  std::string why = whose_prefix(obs) + "no model fits the " + std::to_string(obs.rows.size()) +
                    " observations: no catalogue model (" + r.searched + ")";
  const LinearFit& l = *r.linear;
  if (!l.applicable()) {
    why += ", and no affine map was tried (" + l.why_not() + ")";
  } else {
    why += ", and lines";
    for (std::size_t i = 0; i < l.contradiction().size() && i < 8; ++i)
      why += (i == 0 ? " " : ", ") + std::to_string(l.contradiction()[i]);
    if (l.contradiction().size() > 8) why += " and " + std::to_string(l.contradiction().size() - 8) + " more";
    why += " contradict every affine hash (their key bits cancel, their members do not)";
  }
  if (!r.seeds_searched) why += "; " + r.skipped;
  else if (opt.seed_end - opt.seed_begin < (1ULL << 32))
    why += "; seeds outside " + range_text(opt.seed_begin, opt.seed_end) + " were not tried (" + option_ref("seeds") + " widens)";
  throw InputError({obs.source, 0, 0, {}}, why);
}

}  // namespace

std::vector<Family> affine_families(const Observations& obs, const FitOptions& opt) { return families(obs, opt, true); }
std::vector<Family> seed_families(const Observations& obs, const FitOptions& opt) { return families(obs, opt, false); }

FitResult fit(const Observations& obs, const FitOptions& opt) {
  check_observations(obs, opt.group.members);
  FitResult r;
  r.observations = obs.rows.size();
  for (const Observation& o : obs.rows)
    if (!o.tuple.src_ip.is_v4()) r.family = hashing::Family::V6;
  r.group = opt.group;
  r.evidence_bits = evidence(obs, opt.group);
  r.linear.emplace(obs, opt.group);
  const LinearFit& l = *r.linear;

  const std::vector<Family> affine = affine_families(obs, opt);
  const std::vector<Family> seeded = seed_families(obs, opt);
  std::vector<SearchResult> parts;
  if (!affine.empty()) parts.push_back(search_affine(obs, opt.group, affine, opt.threads, kClassified));
  r.searched = std::to_string(affine.size()) + " seed-affine families as seed classes";
  const double confirmed = l.consistent() ? static_cast<double>(r.observations - l.rank()) * l.member_bits() : 0;
  const bool affine_explains = l.applicable() && l.consistent() && confirmed >= kAffineBits;
  if (!seeded.empty() && (opt.exhaustive || !affine_explains)) {
    parts.push_back(search_seeds(obs, opt.group, seeded, opt.seed_begin, opt.seed_end, opt.threads, kClassified, opt.progress));
    r.seeds_searched = true;
    r.searched += ", " + std::to_string(seeded.size()) + " others with seeds " + range_text(opt.seed_begin, opt.seed_end);
  } else if (!seeded.empty()) {
    r.skipped = std::to_string(seeded.size()) + " non-affine families not searched: an affine map reproduces every "
                "observation with " + std::to_string(static_cast<long>(confirmed)) +
                " bits to spare, which no non-affine hash does by chance (" + option_ref("exhaustive") + " searches them)";
  }
  for (const SearchResult& p : parts) {
    r.models.insert(r.models.end(), p.models.begin(), p.models.end());
    r.candidates += p.found;
    r.hypotheses += p.hypotheses;
  }
  std::sort(r.models.begin(), r.models.end(), rank_before);
  if (r.models.size() > kClassified) r.models.resize(kClassified);
  const std::vector<hashing::Tuple> probe = probes(obs);
  std::set<std::vector<std::uint32_t>> predictions;
  for (const Model& m : r.models) {
    const Selector sel(m, opt.group);
    std::size_t agree = 0;
    for (const Observation& o : obs.rows) agree += sel.member(o.tuple) == o.member;
    if (agree != obs.rows.size()) throw std::logic_error("fit: a model the search kept does not reproduce the observations");
    r.agree.push_back(agree);
    std::vector<std::uint32_t> p;
    for (const hashing::Tuple& t : probe) p.push_back(sel.member(t));
    predictions.insert(std::move(p));
  }
  r.distinct = predictions.size();
  r.classified = r.models.size();
  if (r.models.size() > opt.keep) {
    r.models.resize(opt.keep);
    r.agree.resize(opt.keep);
  }
  if (r.models.empty() && !(l.applicable() && l.consistent())) no_model(obs, r, opt);
  judge(r);
  return r;
}

Predictor::Predictor(const FitResult& r) {
  if (!r.models.empty()) selector_.emplace(r.models.front(), r.group);
  else if (r.linear) linear_ = &*r.linear;
}

std::optional<std::uint32_t> Predictor::operator()(const hashing::Tuple& t) const {
  if (selector_) return selector_->member(t);
  return linear_ != nullptr ? linear_->predict(t) : std::nullopt;
}

}  // namespace ecmpsim::fit
