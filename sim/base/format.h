// Output formats: one table row each (sim/base/format.cpp), one writer each.
// Every command hands its result to write() in the shapes it comes in (its
// table text, a JSON document, CSV rows); the format's writer turns that
// shape into bytes, so a JSON or CSV convention is written once, as toml++
// keeps one formatter per format. The command line's accepted --format names,
// their --help and the dispatch all read the same table.
#pragma once

#include <cstddef>
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

#include "sim/base/named.h"

namespace ecmpsim {

// Key order as written: documents read in the order their builders chose.
// Declared only (json_fwd.hpp): the files that build documents include
// nlohmann/json.hpp, the many that only pass them on do not parse it.
using Json = nlohmann::ordered_json;

enum class Format : std::uint8_t { Table, Summary, Json, Csv };

// The shapes a command's result comes in; each format is written from one.
enum class Shape : std::uint8_t { Text, Brief, Json, Csv };

// Where a writer's bytes go, in pieces of about a megabyte: an output file,
// standard output, or a string. A document therefore never has to be in
// memory whole: `run -f json` on a large fabric writes gigabytes.
using Sink = std::function<void(std::string_view)>;

// The bytes a writer holds before it hands them to its sink.
inline constexpr std::size_t kSinkChunk = 1 << 20;

// Comma-separated rows, each ended by a newline. Every cell is escaped as
// escape_text (sim/base/text.h) escapes a table's text, so no cell holds a
// control character or a line break; a cell holding a comma or a double quote
// is then quoted as RFC 4180 says (its quotes doubled); every other cell is
// written as given. Rows go to the sink as they end, or are kept for take().
class Csv {
 public:
  Csv() = default;
  explicit Csv(Sink sink) : sink_(std::move(sink)) {}
  Csv& cell(std::string_view v);
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
    if (sink_ && text_.size() >= kSinkChunk) flush();
  }
  // Hands what is held to the sink (none: keeps it).
  void flush();
  std::string take() && { return std::move(text_); }

 private:
  Sink sink_;
  std::string text_;
  bool first_ = true;
};

// The JSON format's writer: a document written as it is made, value by value,
// in nlohmann's dump() layout (an indent of N spaces per level, or one line
// when the indent is negative), so a document written whole with value() and
// one written member by member are the same bytes. Strings are escaped by
// append_json_string (sim/base/text.h): any bytes, valid UTF-8 or not, make a
// valid document. Numbers are written as dump() writes them.
class JsonWriter {
 public:
  JsonWriter(Sink sink, int indent) : sink_(std::move(sink)), indent_(indent) {}
  // Opens an object or array as the next value; end() closes the innermost.
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end();
  // The key of the next member of the open object.
  JsonWriter& key(std::string_view k);
  // A whole value (an object, an array or a scalar) as the next value.
  JsonWriter& value(const Json& v);
  // Each member of the object `members` as a member of the open object.
  JsonWriter& members(const Json& members);
  // Ends the document with a newline and hands the rest to the sink.
  void finish();
  // Hands what is held to the sink.
  void flush();

 private:
  JsonWriter& open(char bracket);
  void next_value();  // the separator and indentation before a value or a key
  void newline(std::size_t depth);
  void put(const Json& v, std::size_t depth);
  void put_string(std::string_view s);
  void spill() {
    if (buf_.size() >= kSinkChunk) flush();
  }

  Sink sink_;
  int indent_;
  std::string buf_;
  struct Level {
    bool object = false;
    std::size_t count = 0;
  };
  std::vector<Level> open_;
  bool after_key_ = false;
};

// A command's result: each shape it comes in, made only when a format written
// from it is asked for. A shape left empty is one the command does not have.
struct Result {
  std::function<std::string()> text;   // the terminal table
  std::function<std::string()> brief;  // the table without what grows with the fabric
  std::function<void(JsonWriter&)> json;  // writes the document: one value
  int json_indent = 2;  // the JSON's indent per level; -1 writes the document on one line
  std::function<void(Csv&)> csv;          // writes the rows
};

struct FormatRow : Named<Format> {
  Shape from;
  void (*write)(const Result&, const Sink&);
};

// Every format, in the order --help and the "not in {...}" messages list them.
std::span<const FormatRow> formats() noexcept;

// The names of the formats written from `shapes`, in the table's order.
std::vector<std::string> format_names(std::initializer_list<Shape> shapes);

// `r` written as `f` to `out`; `r` has the shape `f` is written from. A table
// is escaped line by line as escape_text (sim/base/text.h) escapes a name, so
// no name in it can move the cursor, colour the terminal or reorder the text.
void write(Format f, const Result& r, const Sink& out);
// The same, collected in a string: for results that are small by nature.
std::string write(Format f, const Result& r);
// `v` as the JSON writer writes it (no newline after it).
std::string json_text(const Json& v, int indent);

}  // namespace ecmpsim
