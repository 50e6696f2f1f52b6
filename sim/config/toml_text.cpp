#include "sim/config/toml_text.h"

#include <algorithm>

#include "sim/base/error.h"

namespace ecmpsim::config {
namespace {

bool bare_key_char(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Walks the text once, iteratively (the point is to survive what recursion does not).
class Scanner {
 public:
  explicit Scanner(std::string_view t) noexcept : t_(t) {}

  std::optional<KeyChain> find(std::uint32_t max_parts) noexcept {
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else if (starts("\"\"\"") || starts("'''")) {
        skip_multiline(t_.substr(i_, 3));
      } else if (c == '"' || c == '\'' || bare_key_char(c)) {
        const KeyChain chain = read_chain();
        if (chain.parts > max_parts) return chain;
      } else {
        advance();
      }
    }
    return std::nullopt;
  }

 private:
  bool starts(std::string_view s) const noexcept { return t_.substr(i_, s.size()) == s; }

  void advance() noexcept {
    if (t_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }

  void skip_multiline(std::string_view quote) noexcept {
    i_ += 3;
    while (i_ < t_.size() && !starts(quote)) {
      if (quote[0] == '"' && t_[i_] == '\\' && i_ + 1 < t_.size()) advance();
      advance();
    }
    i_ = std::min(t_.size(), i_ + 3);
  }

  // One part: a bare key, or a one-line string (a quoted key or a value).
  void read_part() noexcept {
    const char c = t_[i_];
    if (c != '"' && c != '\'') {
      while (i_ < t_.size() && bare_key_char(t_[i_])) ++i_;
      return;
    }
    ++i_;
    while (i_ < t_.size() && t_[i_] != c && t_[i_] != '\n') {
      if (c == '"' && t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;
      ++i_;
    }
    if (i_ < t_.size() && t_[i_] == c) ++i_;
  }

  void skip_blanks() noexcept {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
  }

  KeyChain read_chain() noexcept {
    KeyChain chain{line_, static_cast<std::uint32_t>(i_ - line_start_ + 1), 0};
    for (;;) {
      read_part();
      ++chain.parts;
      const std::size_t after = i_;
      skip_blanks();
      if (i_ >= t_.size() || t_[i_] != '.') {
        i_ = after;
        return chain;
      }
      ++i_;
      skip_blanks();
      if (i_ >= t_.size() || starts("\"\"\"") || starts("'''") ||
          !(t_[i_] == '"' || t_[i_] == '\'' || bare_key_char(t_[i_])))
        return chain;
    }
  }

  std::string_view t_;
  std::size_t i_ = 0, line_start_ = 0;
  std::uint32_t line_ = 1;
};

}  // namespace

std::optional<KeyChain> overlong_key(std::string_view text, std::uint32_t max_parts) noexcept {
  return Scanner(text).find(max_parts);
}

toml::table parse_toml(std::string_view text, const std::string& path) {
  if (const auto k = overlong_key(text, kMaxKeyParts))
    throw InputError({path, k->line, k->column, {}},
                     "a dotted key of " + std::to_string(k->parts) + " parts nests deeper than the limit of " +
                         std::to_string(kMaxKeyParts));
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError({path, b.line, b.column, {}}, std::string(e.description()));
  }
}

}  // namespace ecmpsim::config
