// The reader of comma-separated inputs: the importers' flows CSV and rdma
// device map, `hash --tuples` and the `fit` observations. One record per
// line, fields located by column for error messages. No quoting: no field of
// these formats holds a comma.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ecmpsim {

struct CsvField {
  std::string_view text;     // trimmed of blanks (CsvStyle::Lenient)
  std::uint32_t column = 0;  // 1-based byte column of its first (Lenient: first non-blank) character
};

struct CsvLine {
  std::uint32_t number = 0;  // 1-based line number
  std::uint32_t end_column = 0;  // column just past the line's last character
  std::vector<CsvField> fields;
};

// What a format treats as not data. Both accept "\n" and "\r\n" line ends.
enum class CsvStyle : std::uint8_t {
  // Files people write (flows, device maps): blanks
  // around fields trimmed; blank lines and lines whose first non-blank
  // character is '#' skipped.
  Lenient,
  // Tables tools write (`hash --tuples`, `fit` observations): fields exactly
  // as written; line 1, the header, always returned (even when empty, so its
  // absence is reported on line 1); after it only empty lines skipped.
  Strict,
};

// Walks `text` line by line, returning the data lines split at commas.
class CsvReader {
 public:
  explicit CsvReader(std::string_view text, CsvStyle style = CsvStyle::Lenient) noexcept
      : rest_(text), style_(style) {}
  // False at the end of the text.
  bool next(CsvLine& line);
  // Lines consumed so far, returned or skipped.
  std::uint32_t lines_read() const noexcept { return number_; }

 private:
  bool skipped(std::string_view text) const noexcept;

  std::string_view rest_;
  CsvStyle style_;
  std::uint32_t number_ = 0;
};

// Takes the next line off the front of `rest`, without its "\n" or "\r\n".
std::string_view take_line(std::string_view& rest) noexcept;

// Decimal, or hexadecimal with 0x; nullopt when malformed or above max.
std::optional<std::uint64_t> parse_uint_text(std::string_view s, std::uint64_t max) noexcept;

}  // namespace ecmpsim
