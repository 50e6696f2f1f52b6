#include "sim/config/ranges.h"

#include "sim/base/parse.h"

namespace ecmpsim {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto p = s.find(sep);
    parts.push_back(s.substr(0, p));
    if (p == std::string_view::npos) return parts;
    s.remove_prefix(p + 1);
  }
}

}  // namespace

UintRange parse_range(std::string_view text, std::uint64_t max, const SourcePos& at) {
  const auto parts = split(text, ':');
  if (parts.size() < 2 || parts.size() > 3)
    throw InputError(at, "expected a range A:B or A:B:STEP, got '" + std::string(text) + "'");
  std::uint64_t v[3] = {0, 0, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // The end is exclusive, so it may be one past the largest value.
    const std::uint64_t limit = i == 1 ? max + 1 : max;
    const auto x = parse_uint(parts[i], limit);
    if (!x)
      throw InputError(at, "'" + std::string(parts[i]) + "' in range '" + std::string(text) +
                               "' is not an integer in [0, " + std::to_string(limit) + "]");
    v[i] = *x;
  }
  if (v[2] == 0) throw InputError(at, "range '" + std::string(text) + "' has step 0");
  if (v[1] < v[0]) throw InputError(at, "range '" + std::string(text) + "' is reversed (end before start)");
  if (v[1] == v[0]) throw InputError(at, "range '" + std::string(text) + "' is empty (the end is exclusive)");
  return {v[0], v[1], v[2]};
}

std::vector<std::uint32_t> parse_uint_list(std::string_view text, std::uint32_t lo, std::uint32_t hi,
                                           const SourcePos& at) {
  std::vector<std::uint32_t> out;
  for (std::string_view p : split(text, ',')) {
    const auto x = parse_uint(p, hi);
    if (!x || *x < lo)
      throw InputError(at, "'" + std::string(p) + "' is not an integer in [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "]");
    out.push_back(static_cast<std::uint32_t>(*x));
  }
  return out;
}

std::vector<std::string> parse_name_list(std::string_view text, const SourcePos& at) {
  std::vector<std::string> out;
  for (std::string_view p : split(text, ',')) {
    if (p.empty()) throw InputError(at, "empty name in list '" + std::string(text) + "'");
    out.emplace_back(p);
  }
  return out;
}

std::string format_range(const UintRange& r) {
  std::string s = std::to_string(r.first) + ":" + std::to_string(r.end);
  if (r.step != 1) s += ":" + std::to_string(r.step);
  return s;
}

}  // namespace ecmpsim
