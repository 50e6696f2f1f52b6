#include "sim/base/csv_reader.h"

#include <charconv>

namespace ecmpsim {

namespace {

bool blank(char c) noexcept { return c == ' ' || c == '\t'; }

}  // namespace

std::string_view take_line(std::string_view& rest) noexcept {
  const auto nl = rest.find('\n');
  std::string_view line = rest.substr(0, nl);
  rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool CsvReader::skipped(std::string_view text) const noexcept {
  if (style_ == CsvStyle::Strict) return number_ > 1 && text.empty();
  std::size_t first = 0;
  while (first < text.size() && blank(text[first])) ++first;
  return first == text.size() || text[first] == '#';
}

bool CsvReader::next(CsvLine& line) {
  const bool trim = style_ == CsvStyle::Lenient;
  while (!rest_.empty()) {
    const std::string_view text = take_line(rest_);
    ++number_;
    if (skipped(text)) continue;
    line.number = number_;
    line.end_column = static_cast<std::uint32_t>(text.size() + 1);
    line.fields.clear();
    std::size_t start = 0;
    for (;;) {
      const auto comma = text.find(',', start);
      const std::size_t stop = comma == std::string_view::npos ? text.size() : comma;
      std::size_t b = start, e = stop;
      while (trim && b < e && blank(text[b])) ++b;
      while (trim && e > b && blank(text[e - 1])) --e;
      line.fields.push_back({text.substr(b, e - b), static_cast<std::uint32_t>(b + 1)});
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return true;
  }
  return false;
}

std::optional<std::uint64_t> parse_uint_text(std::string_view s, std::uint64_t max) noexcept {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '+' || s[0] == '-') return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc{} || p != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

}  // namespace ecmpsim
