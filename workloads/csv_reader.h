// A small reader for the comma-separated inputs of the importers (flows CSV,
// the rdma device map): one record per line, fields located by column for
// error messages. No quoting: no field of these formats holds a comma.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ecmpsim::workloads {

struct CsvField {
  std::string_view text;     // trimmed of blanks
  std::uint32_t column = 0;  // 1-based byte column of the first non-blank character
};

struct CsvLine {
  std::uint32_t number = 0;  // 1-based line number
  std::uint32_t end_column = 0;  // column just past the line's last character
  std::vector<CsvField> fields;
};

// Walks `text` line by line ("\n" or "\r\n"), skipping blank lines and lines
// whose first non-blank character is '#'.
class CsvReader {
 public:
  explicit CsvReader(std::string_view text) noexcept : rest_(text) {}
  // False at the end of the text.
  bool next(CsvLine& line);

 private:
  std::string_view rest_;
  std::uint32_t number_ = 0;
};

// Takes the next line off the front of `rest`, without its "\n" or "\r\n".
std::string_view take_line(std::string_view& rest) noexcept;

// `s` made safe to quote in a one-line message: bytes outside printable ASCII
// as \xNN, only its first 40 bytes, then "...".
std::string printable(std::string_view s);

// Decimal, or hexadecimal with 0x; nullopt when malformed or above max.
std::optional<std::uint64_t> parse_uint_text(std::string_view s, std::uint64_t max) noexcept;

}  // namespace ecmpsim::workloads
