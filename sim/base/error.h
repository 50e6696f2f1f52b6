// User-facing errors: a value that says where the bad input is and why.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ecmpsim {

struct SourcePos {
  std::string file;    // empty when the input has no file (a flag, a value)
  std::uint32_t line = 0;  // 1-based; 0 when unknown
  std::uint32_t column = 0;
  std::string field;   // config key or flag name, when it helps
  std::uint32_t record = 0;  // 1-based record (packet, JSON element) of a file read by records; 0 for text
};

// Bad input from the user: the CLI prints `ecmpsim: <where>: <message>` and exits 2.
class InputError : public std::runtime_error {
 public:
  InputError(SourcePos where, const std::string& message)
      : std::runtime_error(message), where_(std::move(where)) {}
  const SourcePos& where() const noexcept { return where_; }
  // "FILE:LINE:COL: message", "FILE: record N: field: message" or "field: message".
  std::string describe() const;

 private:
  SourcePos where_;
};

}  // namespace ecmpsim
