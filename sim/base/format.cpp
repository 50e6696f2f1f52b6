// The format table and its writers. A new format is a row here and its
// writer beside it; every command whose result has the row's shape accepts
// it, with no command edited.
#include "sim/base/format.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ecmpsim {
namespace {

std::string write_text(const Result& r) { return r.text(); }
std::string write_brief(const Result& r) { return r.brief(); }
std::string write_json(const Result& r) { return r.json().dump(r.json_indent) + "\n"; }
std::string write_csv(const Result& r) { return r.csv().take(); }

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

std::string write(Format f, const Result& r) {
  for (const FormatRow& row : kFormats)
    if (row.value == f) return row.write(r);
  throw std::logic_error("format missing from the table");
}

}  // namespace ecmpsim
