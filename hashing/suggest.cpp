#include "hashing/suggest.h"

#include <algorithm>
#include <array>

#include "hashing/hasher.h"
#include "hashing/key.h"

namespace ecmpsim {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance over three rolling rows.
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& names, std::size_t list_max) {
  const std::size_t limit = std::max<std::size_t>(1, given.size() / 3);
  std::string_view best;
  std::size_t best_d = limit + 1;
  for (std::string_view n : names) {
    const std::size_t d = edit_distance(given, n);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  std::string out;
  if (!best.empty()) out = "did you mean '" + std::string(best) + "'?";
  // Too short to be a typo of a longer name that begins with it as a whole
  // word ("qps" for "qps_per_connection", as the --qps flag spells it).
  std::vector<std::string_view> longer;
  for (std::string_view n : names)
    if (best.empty() && !given.empty() && n.size() > given.size() && n.starts_with(given) &&
        (n[given.size()] == '_' || n[given.size()] == '-'))
      longer.push_back(n);
  for (std::size_t i = 0; i < longer.size(); ++i)
    out += std::string(i == 0 ? "did you mean " : i + 1 == longer.size() ? " or " : ", ") + "'" +
           std::string(longer[i]) + "'" + (i + 1 == longer.size() ? "?" : "");
  if (!names.empty() && names.size() <= list_max) {
    out += out.empty() ? "one of " : " one of ";
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + std::string(names[i]);
  }
  return out.empty() ? out : " (" + out + ")";
}

std::string unknown_algorithm(std::string_view given) {
  if (const hashing::VendorDefined* v = hashing::find_vendor_defined(given))
    return "hash algorithm '" + std::string(given) + "' is ASIC-specific (SAI_HASH_ALGORITHM_" + std::string(v->name) +
           ": " + std::string(v->what) + "); the closest catalogue models are " + std::string(v->closest) +
           ", and `ecmpsim fit` tells which one a switch runs from the members it chose";
  std::vector<std::string_view> names;
  for (const auto& a : hashing::catalogue()) {
    names.push_back(a.name);
    if (!a.sai.empty()) names.push_back(a.sai);
  }
  std::string hint = did_you_mean(given, names, 0);
  // A family's stem ("crc16") is too far from each member to be a typo:
  // offer the members it begins.
  std::vector<std::string_view> family;
  for (const std::string_view n : names)
    if (hint.empty() && given.size() >= 3 && n.size() > given.size() && n.starts_with(given)) family.push_back(n);
  if (!family.empty()) {
    hint = " (did you mean ";
    for (std::size_t i = 0; i < family.size(); ++i)
      hint += std::string(i == 0 ? "" : i + 1 == family.size() ? " or " : ", ") + "'" + std::string(family[i]) + "'";
    hint += "?)";
  }
  if (hint.empty()) hint = " (ecmpsim hash --list shows them)";
  return "unknown hash algorithm '" + std::string(given) + "'" + hint;
}

namespace {

// Fields vendors hash that no RoCEv2 packet carries (or that no flow keeps
// from packet to packet): naming one is an error that says why.
struct Uncarried {
  std::string_view name;  // as the vocabulary spells it; a trailing '*' matches a prefix
  std::string_view why;
};
constexpr std::array<Uncarried, 3> kUncarried{{
    {"gtp-teid",
     "is the GTP-U tunnel endpoint identifier of mobile user-plane traffic (NVUE): no RoCEv2 packet carries a GTP "
     "header"},
    {"MPLS_LABEL_*", "is an MPLS label (SAI): a RoCEv2 fabric routes IP, and its packets carry no label stack"},
    {"RDMA_BTH_OPCODE", "is not modelled: a flow's BTH opcode changes from packet to packet"},
}};

}  // namespace

std::string unknown_field(std::string_view given) {
  std::string_view bare = given;
  if (bare.starts_with(hashing::kSaiFieldPrefix)) bare.remove_prefix(hashing::kSaiFieldPrefix.size());
  for (const Uncarried& u : kUncarried) {
    const bool prefix = u.name.ends_with('*');
    const std::string_view stem = prefix ? u.name.substr(0, u.name.size() - 1) : u.name;
    if (prefix ? bare.starts_with(stem) : bare == stem)
      return "hash field '" + std::string(given) + "' " + std::string(u.why);
  }
  std::vector<std::string_view> names;
  for (const auto& f : hashing::kFields) names.push_back(f.name);
  return "unknown hash field '" + std::string(given) + "'" + did_you_mean(given, names);
}

std::optional<std::string> parse_field_list(std::span<const std::string> names, std::vector<hashing::Field>& out) {
  out.clear();
  for (const std::string& name : names) {
    if (hashing::tunnel_field(name)) continue;
    const auto f = hashing::parse_field(name);
    if (!f) return unknown_field(name);
    out.push_back(*f);
  }
  if (const auto r = hashing::repeated_field(out))
    return "hash field '" + std::string(hashing::field_name(*r)) + "' listed twice";
  if (out.empty() && !names.empty())
    return "every field listed is a tunnel field (INNER_*, inner-*), which non-tunnelled RoCEv2 does not carry: "
           "no key is left to hash";
  return std::nullopt;
}

}  // namespace ecmpsim
