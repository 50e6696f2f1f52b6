// User-facing errors: a value that says where the bad input is and why.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ecmpsim {

struct SourcePos {
  std::string file;    // empty when the input has no file (a flag, a value)
  std::uint32_t line = 0;  // 1-based; 0 when unknown
  std::uint32_t column = 0;
  std::string field;   // config key or flag name, when it helps
  std::uint32_t record = 0;  // 1-based record (packet, JSON element) of a file read by records; 0 for text
  bool option = false;       // `field` is a command's option key (option_at), spelt by the door
};

// Options of a command are named by their key below the front doors
// (`max_flows`, `seed_mode`: the request's field); each door spells a key its
// own way: `--max-flows` on the command line, `max_flows=` in Python.
// Where an error lies in an option: its key, as the field.
SourcePos option_at(std::string_view key, std::string file = {});
// An option named inside a message's text; describe() spells it.
std::string option_ref(std::string_view key);
// A door's spelling of an option key.
using OptionSpelling = std::string (*)(std::string_view key);
// The command line's: "--" and the key with '-' for '_' (max_flows: --max-flows).
std::string flag_spelling(std::string_view key);
// Python's: the keyword, "max_flows=".
std::string keyword_spelling(std::string_view key);
// `text` with every option_ref spelt by `spell`.
std::string spell_options(std::string_view text, OptionSpelling spell);

// Bad input from the user: the CLI prints `ecmpsim: <where>: <message>` and exits 2.
class InputError : public std::runtime_error {
 public:
  InputError(SourcePos where, const std::string& message)
      : std::runtime_error(message), where_(std::move(where)) {}
  const SourcePos& where() const noexcept { return where_; }
  // "FILE:LINE:COL: message", "FILE: record N: field: message" or "field: message",
  // options (the field, and those the message names) spelt by `spell`.
  std::string describe(OptionSpelling spell = flag_spelling) const;

 private:
  SourcePos where_;
};

// An error message as the one line a front door shows (the command line
// after "ecmpsim: ", the Python module's exception text): line breaks become
// spaces, the rest escaped as escape_text escapes a name (sim/base/text.h:
// controls, bidi overrides, invalid UTF-8), and a message past 1000 bytes is
// cut, saying how long it was.
std::string one_line(std::string_view s);

}  // namespace ecmpsim
