#include "hashing/suggest.h"

#include <algorithm>

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

std::string unknown_field(std::string_view given) {
  std::string_view sonic = given;
  if (sonic.starts_with(hashing::kSaiFieldPrefix)) sonic.remove_prefix(hashing::kSaiFieldPrefix.size());
  if (sonic.starts_with("INNER_") || given.starts_with("inner-"))
    return "hash field '" + std::string(given) +
           "' is a tunnel field (the encapsulated packet's header): the fabric carries no tunnels";
  if (sonic == "RDMA_BTH_OPCODE")
    return "hash field '" + std::string(given) + "' is not modelled: a flow's BTH opcode changes from packet to packet";
  std::vector<std::string_view> names;
  for (const auto& f : hashing::kFields) names.push_back(f.name);
  return "unknown hash field '" + std::string(given) + "'" + did_you_mean(given, names);
}

}  // namespace ecmpsim
