// The format table: the names --format accepts per shape, in the order the
// "not in {...}" messages list them, and each writer's bytes.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
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
  r.json = [](JsonWriter& w) { w.value(Json{{"b", 1}, {"a", {1, 2}}}); };
  r.csv = [](Csv& csv) {
    csv.cells({"name", "n"}).end_row();
    csv.cell("x").cell(std::uint16_t{7}).end_row();
    csv.cells({"", ""}).end_row();
  };
  CHECK(write(Format::Table, r) == "the table\n");
  CHECK(write(Format::Summary, r) == "brief\n");
  CHECK(write(Format::Json, r) == "{\n  \"b\": 1,\n  \"a\": [\n    1,\n    2\n  ]\n}\n");
  CHECK(write(Format::Csv, r) == "name,n\nx,7\n,\n");
  r.json_indent = -1;
  CHECK(write(Format::Json, r) == "{\"b\":1,\"a\":[1,2]}\n");
}
// RFC 4180, section 2: fields with commas or double quotes are enclosed in
// double quotes, and a double quote inside one is doubled. Line breaks and
// other controls never reach the quoting: a cell is escaped first, as a
// table's text is (sim/base/text.h).
TEST_CASE("CSV cells: escaped as text, then quoted as RFC 4180 says where they hold a comma or a quote") {
  Csv csv;
  csv.cells({"plain", "a,b", "say \"hi\"", "two\nlines", "cr\r", ""}).end_row();
  CHECK(std::move(csv).take() == "plain,\"a,b\",\"say \"\"hi\"\"\",two\\x0alines,cr\\x0d,\n");
  // The negative control: characters neither rule names stay bare.
  Csv bare;
  bare.cells({"a;b", "x'y", " spaced ", "caf\u00e9"}).end_row();
  CHECK(std::move(bare).take() == "a;b,x'y, spaced ,caf\u00e9\n");
  // Bytes a terminal would act on: ESC, a C1 control, a bidi override, invalid UTF-8.
  Csv hostile;
  hostile.cells({"\x1b[31mred", "\u0085", "a\u202eb", "\xff\xfe", "tab\there"}).end_row();
  CHECK(std::move(hostile).take() == "\\x1b[31mred,\\u0085,a\\u202eb,\\xff\\xfe,tab\\x09here\n");
}

TEST_CASE("a table is escaped line by line: its line breaks stay, a name's controls do not") {
  Result r;
  r.text = [] { return std::string("config  \x1b]0;title\x07x.toml\nname    a\u202eb\xc3\n"); };
  CHECK(write(Format::Table, r) == "config  \\x1b]0;title\\x07x.toml\nname    a\\u202eb\\xc3\n");
  r.text = [] { return std::string("plain \u221e \u00b5s\n\nlast"); };  // negative control: nothing to escape
  CHECK(write(Format::Table, r) == "plain \u221e \u00b5s\n\nlast");
}

TEST_CASE("Csv and JsonWriter with a sink hand their text on in pieces, the same bytes as collected") {
  std::vector<std::string> pieces;
  std::string whole;
  const Sink sink = [&](std::string_view p) {
    pieces.emplace_back(p);
    whole += p;
  };
  {
    Csv csv(sink);
    for (int i = 0; i < 200000; ++i) csv.cell(i).cell("row").end_row();
    csv.flush();
  }
  CHECK(pieces.size() > 1);  // more than kSinkChunk bytes: at least one piece before the end
  Csv collected;
  for (int i = 0; i < 200000; ++i) collected.cell(i).cell("row").end_row();
  CHECK(whole == std::move(collected).take());
  for (const std::string& p : pieces) CHECK(p.size() <= kSinkChunk + 64);
}
}  // namespace format_test
