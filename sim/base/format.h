// Output formats: one table row each (sim/base/format.cpp), one writer each.
// Every command hands its result to write() in the shapes it comes in (its
// table text, a JSON document, CSV rows); the format's writer turns that
// shape into bytes, so a JSON or CSV convention is written once, as toml++
// keeps one formatter per format. The command line's accepted --format names,
// their --help and the dispatch all read the same table.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "hashing/named.h"

namespace ecmpsim {

// Key order as written: documents read in the order their builders chose.
// Declared only (json_fwd.hpp): the files that build documents include
// nlohmann/json.hpp, the many that only pass them on do not parse it.
using Json = nlohmann::ordered_json;

enum class Format : std::uint8_t { Table, Summary, Json, Csv };

// The shapes a command's result comes in; each format is written from one.
enum class Shape : std::uint8_t { Text, Brief, Json, Csv };

// Comma-separated rows, each ended by a newline. A cell holding a comma, a
// double quote or a line break is quoted as RFC 4180 says (its quotes
// doubled); every other cell is written as given, as it always was.
class Csv {
 public:
  Csv& cell(std::string_view v) {
    if (!first_) text_ += ',';
    if (v.find_first_of(",\"\r\n") == std::string_view::npos) {
      text_ += v;
    } else {
      text_ += '"';
      for (const char c : v) text_.append(c == '"' ? 2 : 1, c);
      text_ += '"';
    }
    first_ = false;
    return *this;
  }
  template <class T>
    requires std::is_integral_v<T>
  Csv& cell(T v) {
    return cell(std::string_view(std::to_string(v)));
  }
  // The cells of a header or a row whose values are already text.
  Csv& cells(std::initializer_list<std::string_view> vs) {
    for (std::string_view v : vs) cell(v);
    return *this;
  }
  void end_row() {
    text_ += '\n';
    first_ = true;
  }
  std::string take() && { return std::move(text_); }

 private:
  std::string text_;
  bool first_ = true;
};

// A command's result: each shape it comes in, made only when a format written
// from it is asked for. A shape left empty is one the command does not have.
struct Result {
  std::function<std::string()> text;   // the terminal table
  std::function<std::string()> brief;  // the table without what grows with the fabric
  std::function<Json()> json;
  int json_indent = 2;  // nlohmann's dump(): -1 writes the document on one line
  std::function<Csv()> csv;
};

struct FormatRow : Named<Format> {
  Shape from;
  std::string (*write)(const Result&);
};

// Every format, in the order --help and the "not in {...}" messages list them.
std::span<const FormatRow> formats() noexcept;

// The names of the formats written from `shapes`, in the table's order.
std::vector<std::string> format_names(std::initializer_list<Shape> shapes);

// `r` written as `f`; `r` has the shape `f` is written from.
std::string write(Format f, const Result& r);

}  // namespace ecmpsim
