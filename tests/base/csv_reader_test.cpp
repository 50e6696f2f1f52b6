#include <doctest/doctest.h>

#include "hashing/address.h"
#include "sim/base/csv_reader.h"
#include "sim/base/text.h"

namespace csv_reader_test {

using namespace ecmpsim;
namespace hashing = ecmpsim::hashing;

TEST_CASE("the CSV reader skips blank and comment lines and locates trimmed fields") {
  CsvReader r("# comment\n\n a , b,,c\r\n   \n\t# indented comment\nlast");
  CsvLine l;
  REQUIRE(r.next(l));
  CHECK(l.number == 3);
  REQUIRE(l.fields.size() == 4);
  CHECK(l.fields[0].text == "a");
  CHECK(l.fields[0].column == 2);
  CHECK(l.fields[1].text == "b");
  CHECK(l.fields[1].column == 6);
  CHECK(l.fields[2].text.empty());
  CHECK(l.fields[2].column == 8);
  CHECK(l.fields[3].text == "c");
  CHECK(l.fields[3].column == 9);
  CHECK(l.end_column == 10);  // " a , b,,c" is 9 characters once "\r" is dropped
  REQUIRE(r.next(l));
  CHECK(l.number == 6);
  CHECK(l.fields.size() == 1);
  CHECK(l.fields[0].text == "last");
  CHECK_FALSE(r.next(l));
}

TEST_CASE("the lenient CSV reader keeps a trailing comma's empty field and drops one \\r per line") {
  CsvReader r("x,y,\r\n,\r\n");
  CsvLine l;
  REQUIRE(r.next(l));
  REQUIRE(l.fields.size() == 3);
  CHECK(l.fields[2].text.empty());
  CHECK(l.fields[2].column == 5);  // "x,y," is 4 characters
  CHECK(l.end_column == 5);
  REQUIRE(r.next(l));
  CHECK(l.number == 2);
  REQUIRE(l.fields.size() == 2);  // "," alone: two empty fields
  CHECK(l.fields[0].column == 1);
  CHECK(l.fields[1].column == 2);
  CHECK_FALSE(r.next(l));
  CHECK(r.lines_read() == 2);
}

TEST_CASE("the strict CSV reader keeps blanks and '#', returns line 1 even empty, skips only empty lines") {
  // The same text read both ways: the lenient reader skips lines 1, 4 and 5
  // and trims " b"; the strict one must not.
  const std::string_view text = "\r\na, b ,\r\n\n  \n# not a comment\n\n\n";
  CsvReader strict(text, CsvStyle::Strict);
  CsvLine l;
  REQUIRE(strict.next(l));
  CHECK(l.number == 1);
  REQUIRE(l.fields.size() == 1);
  CHECK(l.fields[0].text.empty());
  CHECK(l.fields[0].column == 1);
  CHECK(l.end_column == 1);
  REQUIRE(strict.next(l));
  CHECK(l.number == 2);
  REQUIRE(l.fields.size() == 3);
  CHECK(l.fields[0].text == "a");
  CHECK(l.fields[1].text == " b ");
  CHECK(l.fields[1].column == 3);
  CHECK(l.fields[2].text.empty());
  CHECK(l.fields[2].column == 7);  // "a, b ," is 6 characters once "\r" is dropped
  REQUIRE(strict.next(l));
  CHECK(l.number == 4);  // line 3 is empty
  REQUIRE(l.fields.size() == 1);
  CHECK(l.fields[0].text == "  ");
  REQUIRE(strict.next(l));
  CHECK(l.number == 5);
  CHECK(l.fields[0].text == "# not a comment");
  CHECK_FALSE(strict.next(l));
  CHECK(strict.lines_read() == 7);  // the two empty lines at the end were read and skipped

  CsvReader lenient(text);
  REQUIRE(lenient.next(l));
  CHECK(l.number == 2);
  CHECK(l.fields[1].text == "b");
  CHECK_FALSE(lenient.next(l));
}

TEST_CASE("the strict CSV reader finds no line in empty input") {
  CsvReader r("", CsvStyle::Strict);
  CsvLine l;
  CHECK_FALSE(r.next(l));
  CHECK(r.lines_read() == 0);
  CsvReader one("\n", CsvStyle::Strict);  // one empty line: still the header line
  REQUIRE(one.next(l));
  CHECK(l.number == 1);
  CHECK(l.fields.size() == 1);
}

TEST_CASE("IPv4 and unsigned values parse strictly") {
  CHECK(hashing::parse_ip("10.0.1.2") == hashing::IpAddr(0x0A000102u));
  CHECK(hashing::parse_ip("255.255.255.255") == hashing::IpAddr(0xFFFFFFFFu));
  CHECK_FALSE(hashing::parse_ip("10.0.1"));
  CHECK_FALSE(hashing::parse_ip("10.0.1.2.3"));
  CHECK_FALSE(hashing::parse_ip("10.0.1.256"));
  CHECK_FALSE(hashing::parse_ip("10.0..2"));
  CHECK_FALSE(hashing::parse_ip("10.0.1.2 "));
  CHECK(parse_uint_text("0x2b7", 0xFFFFFF) == 0x2b7u);
  CHECK(parse_uint_text("4791", 65535) == 4791u);
  CHECK_FALSE(parse_uint_text("65536", 65535));
  CHECK_FALSE(parse_uint_text("+1", 10));
  CHECK_FALSE(parse_uint_text("0x", 10));
  CHECK_FALSE(parse_uint_text("", 10));
}

TEST_CASE("quoted input is made printable and short") {
  CHECK(printable("sport") == "sport");
  // escape_text's rules (text.h): invalid UTF-8 (d4 without its continuation, a stray a1) and controls as
  // \xNN, the valid pair c3 b2 ("ò") as it is.
  CHECK(printable(std::string_view("\xd4\xc3\xb2\xa1\x02\x00", 6)) == "\\xd4\xc3\xb2\\xa1\\x02\\x00");
  CHECK(printable(std::string(50, 'a')) == std::string(40, 'a') + "...");
}
}  // namespace csv_reader_test
