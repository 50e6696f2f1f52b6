// The format table and its writers. A new format is a row here and its
// writer beside it; every command whose result has the row's shape accepts
// it, with no command edited.
#include "sim/base/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/base/text.h"

namespace ecmpsim {

Csv& Csv::cell(std::string_view v) {
  if (!first_) text_ += ',';
  first_ = false;
  std::string escaped;
  if (std::any_of(v.begin(), v.end(), [](char c) { return c < 0x20 || c >= 0x7F; })) {
    escaped = escape_text(v);
    v = escaped;
  }
  if (v.find_first_of(",\"") == std::string_view::npos) {
    text_ += v;
  } else {
    text_ += '"';
    for (const char c : v) text_.append(c == '"' ? 2 : 1, c);
    text_ += '"';
  }
  return *this;
}

void Csv::flush() {
  if (!sink_ || text_.empty()) return;
  sink_(text_);
  text_.clear();
}

void JsonWriter::flush() {
  if (buf_.empty()) return;
  sink_(buf_);
  buf_.clear();
}

void JsonWriter::newline(std::size_t depth) {
  buf_ += '\n';
  buf_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::next_value() {
  if (open_.empty()) return;
  if (after_key_) {
    after_key_ = false;
    return;
  }
  Level& level = open_.back();
  if (level.count++ > 0) buf_ += ',';
  if (indent_ >= 0) newline(open_.size());
}

JsonWriter& JsonWriter::open(char bracket) {
  next_value();
  buf_ += bracket;
  open_.push_back({bracket == '{', 0});
  return *this;
}

JsonWriter& JsonWriter::end() {
  if (open_.empty() || after_key_) throw std::logic_error("JsonWriter::end without an open value");
  const Level level = open_.back();
  open_.pop_back();
  if (level.count > 0 && indent_ >= 0) newline(open_.size());
  buf_ += level.object ? '}' : ']';
  spill();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  if (open_.empty() || !open_.back().object || after_key_) throw std::logic_error("JsonWriter::key outside an object");
  next_value();
  put_string(k);
  buf_ += indent_ >= 0 ? ": " : ":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(const Json& v) {
  if (!open_.empty() && open_.back().object && !after_key_) throw std::logic_error("JsonWriter::value without a key");
  next_value();
  put(v, open_.size());
  spill();
  return *this;
}

JsonWriter& JsonWriter::members(const Json& members) {
  for (const auto& [k, v] : members.get_ref<const Json::object_t&>()) {
    key(k);
    value(v);
  }
  return *this;
}

void JsonWriter::finish() {
  if (!open_.empty()) throw std::logic_error("JsonWriter::finish with a value open");
  buf_ += '\n';
  flush();
}

void JsonWriter::put_string(std::string_view s) { append_json_string(buf_, s); }

// One value at `depth`, as nlohmann's serializer::dump() lays it out.
void JsonWriter::put(const Json& v, std::size_t depth) {
  const bool pretty = indent_ >= 0;
  switch (v.type()) {
    case Json::value_t::object: {
      const auto& object = v.get_ref<const Json::object_t&>();
      if (object.empty()) {
        buf_ += "{}";
        return;
      }
      buf_ += '{';
      bool first = true;
      for (const auto& [k, x] : object) {
        if (!first) buf_ += ',';
        first = false;
        if (pretty) newline(depth + 1);
        put_string(k);
        buf_ += pretty ? ": " : ":";
        put(x, depth + 1);
      }
      if (pretty) newline(depth);
      buf_ += '}';
      return;
    }
    case Json::value_t::array: {
      const auto& array = v.get_ref<const Json::array_t&>();
      if (array.empty()) {
        buf_ += "[]";
        return;
      }
      buf_ += '[';
      for (std::size_t i = 0; i < array.size(); ++i) {
        if (i > 0) buf_ += ',';
        if (pretty) newline(depth + 1);
        put(array[i], depth + 1);
      }
      if (pretty) newline(depth);
      buf_ += ']';
      return;
    }
    case Json::value_t::string: put_string(v.get_ref<const std::string&>()); return;
    case Json::value_t::boolean: buf_ += v.get<bool>() ? "true" : "false"; return;
    case Json::value_t::null: buf_ += "null"; return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: {
      std::array<char, 24> digits{};
      const auto [end, ec] = v.is_number_unsigned()
                                 ? std::to_chars(digits.data(), digits.data() + digits.size(), v.get<std::uint64_t>())
                                 : std::to_chars(digits.data(), digits.data() + digits.size(), v.get<std::int64_t>());
      buf_.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
      return;
    }
    case Json::value_t::number_float: {
      const double x = v.get<double>();
      if (!std::isfinite(x)) {
        buf_ += "null";
        return;
      }
      // nlohmann's own shortest round-trip digits (Grisu2), as dump() writes them.
      std::array<char, 64> digits{};
      const char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), x);
      buf_.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
      return;
    }
    case Json::value_t::binary:
    case Json::value_t::discarded: break;
  }
  throw std::logic_error("JsonWriter: a binary or discarded value");
}

namespace {

// The table's text with each line escaped, its line breaks kept.
void write_lines(const std::string& text, const Sink& out) {
  std::string escaped;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    escaped += escape_text(std::string_view(text).substr(at, end - at));
    if (end < text.size()) escaped += '\n';
    at = end + 1;
    if (escaped.size() >= kSinkChunk) {
      out(escaped);
      escaped.clear();
    }
  }
  if (!escaped.empty()) out(escaped);
}

void write_text(const Result& r, const Sink& out) { write_lines(r.text(), out); }
void write_brief(const Result& r, const Sink& out) { write_lines(r.brief(), out); }

void write_json(const Result& r, const Sink& out) {
  JsonWriter w(out, r.json_indent);
  r.json(w);
  w.finish();
}

void write_csv(const Result& r, const Sink& out) {
  Csv csv(out);
  r.csv(csv);
  csv.flush();
}

constexpr std::array kFormats{
    FormatRow{{Format::Table, "table"}, Shape::Text, &write_text},
    FormatRow{{Format::Summary, "summary", "the table without its per-link list"}, Shape::Brief, &write_brief},
    FormatRow{{Format::Json, "json"}, Shape::Json, &write_json},
    FormatRow{{Format::Csv, "csv"}, Shape::Csv, &write_csv},
};

}  // namespace

std::span<const FormatRow> formats() noexcept { return kFormats; }

std::vector<std::string> format_names(std::initializer_list<Shape> shapes) {
  std::vector<std::string> out;
  for (const FormatRow& row : kFormats)
    if (std::find(shapes.begin(), shapes.end(), row.from) != shapes.end()) out.emplace_back(row.name);
  return out;
}

void write(Format f, const Result& r, const Sink& out) {
  for (const FormatRow& row : kFormats)
    if (row.value == f) return row.write(r, out);
  throw std::logic_error("format missing from the table");
}

std::string write(Format f, const Result& r) {
  std::string text;
  write(f, r, [&](std::string_view part) { text += part; });
  return text;
}

std::string json_text(const Json& v, int indent) {
  std::string text;
  JsonWriter w([&](std::string_view part) { text += part; }, indent);
  w.value(v);
  w.flush();
  return text;
}

}  // namespace ecmpsim
