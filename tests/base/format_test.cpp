// The format table: the names --format accepts per shape, in the order the
// "not in {...}" messages list them, and each writer's bytes.
#include <doctest/doctest.h>

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "sim/base/format.h"

namespace format_test {

using namespace ecmpsim;

TEST_CASE("format_names: the table's order, filtered by the shapes a command's result has") {
  using V = std::vector<std::string>;
  CHECK(format_names({Shape::Text, Shape::Brief, Shape::Json, Shape::Csv}) == V{"table", "summary", "json", "csv"});
  CHECK(format_names({Shape::Csv, Shape::Json}) == V{"json", "csv"});
  CHECK(format_names({Shape::Text, Shape::Json}) == V{"table", "json"});
  for (const FormatRow& row : formats()) CHECK(parse_name(formats(), row.name) == row.value);
}

TEST_CASE("write: each format through its one writer") {
  Result r;
  r.text = [] { return std::string("the table\n"); };
  r.brief = [] { return std::string("brief\n"); };
  r.json = [] { return Json{{"b", 1}, {"a", {1, 2}}}; };
  r.csv = [] {
    Csv csv;
    csv.cells({"name", "n"}).end_row();
    csv.cell("x").cell(std::uint16_t{7}).end_row();
    csv.cells({"", ""}).end_row();
    return csv;
  };
  CHECK(write(Format::Table, r) == "the table\n");
  CHECK(write(Format::Summary, r) == "brief\n");
  CHECK(write(Format::Json, r) == "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
  CHECK(write(Format::Csv, r) == "name,n\nx,7\n,\n");
  r.json_indent = -1;
  CHECK(write(Format::Json, r) == "{\"b\":1,\"a\":[1,2]}\n");
}
}  // namespace format_test
