#include "sim/base/error.h"

#include <algorithm>

#include "sim/base/text.h"

namespace ecmpsim {

namespace {

// Brackets an option key inside a message: control characters no message
// text carries (one_line would print them as \x1e, \x1f).
constexpr char kOptionOpen = '\x1e', kOptionClose = '\x1f';

}  // namespace

SourcePos option_at(std::string_view key, std::string file) {
  SourcePos at;
  at.file = std::move(file);
  at.field = std::string(key);
  at.option = true;
  return at;
}

std::string option_ref(std::string_view key) { return kOptionOpen + std::string(key) + kOptionClose; }

std::string flag_spelling(std::string_view key) {
  std::string out = "--";
  for (const char c : key) out += c == '_' ? '-' : c;
  return out;
}

std::string keyword_spelling(std::string_view key) { return std::string(key) + "="; }

std::string spell_options(std::string_view text, OptionSpelling spell) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t open = text.find(kOptionOpen, i);
    const std::size_t close = open == std::string_view::npos ? open : text.find(kOptionClose, open);
    if (close == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    out += text.substr(i, open - i);
    out += spell(text.substr(open + 1, close - open - 1));
    i = close + 1;
  }
  return out;
}

std::string InputError::describe(OptionSpelling spell) const {
  std::string s;
  if (!where_.file.empty()) {
    s += where_.file;
    if (where_.line > 0) {
      s += ':' + std::to_string(where_.line);
      if (where_.column > 0) s += ':' + std::to_string(where_.column);
    }
    s += ": ";
  }
  if (where_.record > 0) s += "record " + std::to_string(where_.record) + ": ";
  if (!where_.field.empty()) s += (where_.option ? spell(where_.field) : where_.field) + ": ";
  s += spell_options(what(), spell);
  return s;
}

namespace {

// The longest error line printed: a message quoting a 16 MB header or name is cut here.
constexpr std::size_t kMaxErrorLine = 1000;

}  // namespace

// The contract is one short line per error (CLI11's line breaks too), its
// quoted names and paths escaped as every table escapes them.
std::string one_line(std::string_view s) {
  std::string flat(s.substr(0, kMaxErrorLine));
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  std::string out = escape_text(flat);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (s.size() > kMaxErrorLine) out += "... (cut; " + std::to_string(s.size()) + " bytes in all)";
  return out;
}

}  // namespace ecmpsim
