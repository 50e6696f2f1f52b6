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
// RFC 4180, section 2: fields with commas, double quotes or line breaks are
// enclosed in double quotes, and a double quote inside one is doubled.
TEST_CASE("CSV cells that need quoting are quoted as RFC 4180 says; the rest are not") {
  Csv csv;
  csv.cells({"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""}).end_row();
  CHECK(std::move(csv).take() == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\",\n");
  // The negative control: characters RFC 4180 does not name stay bare.
  Csv bare;
  bare.cells({"a;b", "tab\there", "x'y", " spaced "}).end_row();
  CHECK(std::move(bare).take() == "a;b,tab\there,x'y, spaced \n");
}
}  // namespace format_test
