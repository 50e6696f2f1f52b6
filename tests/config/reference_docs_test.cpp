// The generated reference pages (sim/config/reference_docs.h): the committed copies
// in docs/ equal what the tables render, every range the configuration
// reference states is the one the key's reader enforces (the bounds accepted,
// one step beyond them refused), and the hand-written table of
// docs/hash-models.md has a row for every catalogue entry.
#include <doctest/doctest.h>

#include <charconv>
#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>

#include "hashing/hasher.h"
#include "sim/config/config_sections.h"
#include "sim/config/reference_docs.h"

namespace reference_docs_test {

using namespace ecmpsim;

namespace {

std::string read_source(std::string_view path) {
  std::ifstream in(std::string(ECMPSIM_SOURCE_DIR) + "/" + std::string(path), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first line (1-based) where the texts differ; 0 when they are equal.
std::size_t first_difference(std::string_view a, std::string_view b) {
  if (a == b) return 0;
  std::size_t line = 1;
  for (std::size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '\n') ++line;
  return line;
}

// A stated range "[lo, hi]", "(lo, hi]", ">= lo" or "> lo" (a suffix such as
// ", even" after the bracket is ignored); hi empty when there is none.
struct Bounds {
  std::string lo, hi;
  bool lo_open = false, hi_open = false;
};
std::optional<Bounds> parse_bounds(std::string_view r) {
  if (r.starts_with(">= ")) return Bounds{std::string(r.substr(3)), "", false, false};
  if (r.starts_with("> ")) return Bounds{std::string(r.substr(2)), "", true, false};
  const auto comma = r.find(", ");
  const auto close = r.find_first_of("])");
  if (r.empty() || (r[0] != '[' && r[0] != '(') || comma == std::string_view::npos || close == std::string_view::npos ||
      comma > close)
    return std::nullopt;
  return Bounds{std::string(r.substr(1, comma - 1)), std::string(r.substr(comma + 2, close - comma - 2)), r[0] == '(',
                r[close] == ')'};
}

std::optional<std::int64_t> to_int(const std::string& s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

template <class S>
bool accepts(const config::Knob<S>& k, const toml::node& n) {
  S s{};
  try {
    k.read(n, s, SourcePos{"t.toml", 1, 1, std::string(k.key)});
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// One value checked through the knob: scalar, or as the element of an array
// or table when the range is "each in ...".
template <class S, class T>
bool accepts_value(const config::Knob<S>& k, T v, bool each) {
  if (!each) return accepts(k, toml::value<T>(v));
  if (std::string(k.type).starts_with("array")) return accepts(k, toml::array{v});
  return accepts(k, toml::table{{"leaf0-spine1", v}});
}

// The sweep's "0 <= A < B <= N, 1 <= STEP <= M" ranges, through A:B[:STEP] strings.
template <class S>
void check_sweep_range(const config::Knob<S>& k, std::string_view range, std::vector<std::string>& wrong) {
  const auto step_at = range.find(", 1 <= STEP <= ");
  const std::string n(range.substr(14, step_at - 14)), m(range.substr(step_at + 15));
  const auto bump = [](const std::string& s) { return std::to_string(std::stoull(s) + 1); };
  const auto ok = [&](const std::string& text) { return accepts(k, toml::value<std::string>(text)); };
  if (!ok("0:" + n) || !ok("0:" + n + ":" + m) || ok("0:" + bump(n)) || ok("0:" + n + ":" + bump(m)) || ok("0:1:0") ||
      ok("1:1"))
    wrong.push_back(std::string(k.key) + ": range " + std::string(range));
}

// Every knob whose stated range disagrees with its reader, or whose range has
// a form this check does not know.
template <class S>
void check_ranges(std::span<const config::Knob<S>> knobs, std::vector<std::string>& wrong, int& checked) {
  for (const auto& k : knobs) {
    std::string_view range = k.range;
    if (range.empty()) continue;
    ++checked;
    if (range.starts_with("0 <= A < B <= ")) {
      check_sweep_range(k, range, wrong);
      continue;
    }
    const bool each = range.starts_with("each in ");
    if (each) range.remove_prefix(8);
    const auto b = parse_bounds(range);
    const std::string type(k.type);
    const std::string what = std::string(k.key) + ": range " + std::string(k.range);
    if (!b) {
      wrong.push_back(what + " (a form this test does not know)");
    } else if (type.starts_with("integer") || each) {
      // No upper bound stated: the largest TOML integer must be accepted.
      const auto lo = to_int(b->lo), hi = b->hi.empty() ? std::optional(INT64_MAX) : to_int(b->hi);
      const bool good = lo && hi && accepts_value(k, *lo, each) != b->lo_open && !accepts_value(k, *lo - 1, each) &&
                        accepts_value(k, *hi, each) != b->hi_open &&
                        (*hi == INT64_MAX || !accepts_value(k, *hi + 1, each));
      if (!good) wrong.push_back(what);
    } else if (type == "number") {
      const double lo = std::stod(b->lo);
      const bool good = accepts_value(k, lo, false) != b->lo_open && !accepts_value(k, lo - 1, false) &&
                        (b->hi.empty() ? accepts_value(k, 1e300, false)
                                       : accepts_value(k, std::stod(b->hi), false) != b->hi_open &&
                                             !accepts_value(k, std::stod(b->hi) + 1, false));
      if (!good) wrong.push_back(what);
    } else {
      wrong.push_back(what + " (on a key of type " + type + ")");
    }
  }
}

}  // namespace

TEST_CASE("every generated page in docs/ is what the tables render") {
  REQUIRE(generated_pages().size() == 2);
  for (const auto& page : generated_pages()) {
    const std::string committed = read_source(page.path);
    const std::size_t line = first_difference(committed, page.render());
    CHECK_MESSAGE(line == 0, page.path << " differs from the tables from line " << line << ": regenerate it with `"
                                       << kRegenerateDocsCommand << "` and commit the result");
  }
}

TEST_CASE("the page comparison finds the line of a difference (negative control)") {
  const std::string page = config_reference_markdown();
  CHECK(first_difference(page, page) == 0);
  std::string edited = page;
  const auto third = edited.find('\n', edited.find('\n', edited.find('\n') + 1) + 1) + 1;  // start of line 4
  edited[third] = edited[third] == 'x' ? 'y' : 'x';
  CHECK(first_difference(page, edited) == 4);
  CHECK(first_difference(page, page + "one more line\n") > 4);
  CHECK(first_difference("", page) == 1);
}

TEST_CASE("the configuration reference lists every key of every knob table") {
  const std::string page = config_reference_markdown();
  int keys = 0;
  config::for_each_section([&](std::string_view header, auto knobs) {
    CHECK(page.find("## `" + std::string(header) + "`") != std::string::npos);
    for (const auto& k : knobs) {
      ++keys;
      CHECK_MESSAGE(page.find("| `" + std::string(k.key) + "` |") != std::string::npos, k.key);
    }
  });
  CHECK(keys > 40);
}

TEST_CASE("every range the configuration reference states is what the key's reader enforces") {
  std::vector<std::string> wrong;
  int checked = 0;
  config::for_each_section([&](std::string_view, auto knobs) { check_ranges(knobs, wrong, checked); });
  for (const auto& w : wrong) FAIL_CHECK(w);
  CHECK(wrong.empty());
  CHECK(checked >= 30);  // the integer keys alone are more; a check that saw none would pass vacuously

  // Negative control: readers of [1, 10] stated as something else are caught.
  struct T {
    std::uint32_t v = 1;
  };
  auto knob = config::uint_knob<T>("v", "doc", 1, 10, [](auto& s) -> auto& { return s.v; });
  for (const char* stated : {"[1, 11]", "[0, 10]", "[2, 10]", "[1, 9]", "(1, 10]", "[1, 10)", ">= 1", "1..10"}) {
    std::vector<std::string> bad;
    int n = 0;
    knob.range = stated;
    check_ranges(std::span<const config::Knob<T>>(&knob, 1), bad, n);
    CHECK_MESSAGE(bad.size() == 1, stated);
  }
  knob.range = "[1, 10]";
  std::vector<std::string> none;
  int n = 0;
  check_ranges(std::span<const config::Knob<T>>(&knob, 1), none, n);
  CHECK(none.empty());
}

TEST_CASE("docs/hash-models.md has a row for every catalogue entry") {
  const std::string text = read_source("docs/hash-models.md");
  REQUIRE(!text.empty());
  for (const hashing::Algorithm& a : hashing::catalogue())
    CHECK_MESSAGE(text.find("| `" + std::string(a.name) + "` |") != std::string::npos, a.name);
  CHECK(text.find("| `no-such-hash` |") == std::string::npos);
}
}  // namespace reference_docs_test
