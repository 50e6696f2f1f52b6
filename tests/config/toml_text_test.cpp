#include "sim/config/toml_text.h"

#include <doctest/doctest.h>

#include <string>

#include "sim/base/error.h"
#include "sim/config/config.h"

namespace toml_text_test {

namespace {

using ecmpsim::InputError;
using ecmpsim::config::overlong_key;

std::string dotted(std::size_t parts) {
  std::string s = "a";
  for (std::size_t i = 1; i < parts; ++i) s += ".a";
  return s;
}

std::string error_of(const std::string& text) {
  try {
    ecmpsim::parse_config(text, "deep.toml");
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace

// The inputs that crashed toml++ (issue 35): refused, located, before parsing.
TEST_CASE("a dotted key or header of 35,000 parts is refused where it starts") {
  CHECK(error_of(dotted(35000) + " = 1\n") ==
        "deep.toml:1:1: a dotted key of 35000 parts nests deeper than the limit of 256");
  CHECK(error_of("[fabric]\nkind = \"leaf-spine\"\n\n  [" + dotted(40000) + "]\n") ==
        "deep.toml:4:4: a dotted key of 40000 parts nests deeper than the limit of 256");
  CHECK(error_of("[[" + dotted(300) + "]]\n") ==
        "deep.toml:1:3: a dotted key of 300 parts nests deeper than the limit of 256");
}

TEST_CASE("key chains are counted as TOML writes them, and values never count") {
  // Quoted parts, blanks around the dots; a dot inside quotes is not a separator.
  const auto k = overlong_key("x = 1\n\"a.b\" . 'c.d'.e = 2\n", 2);
  REQUIRE(k);
  CHECK(k->parts == 3);
  CHECK(k->line == 2);
  CHECK(k->column == 1);
  // The negative controls: at the limit, and what only looks dotted.
  CHECK_FALSE(overlong_key(dotted(256) + " = 1\n", 256));
  CHECK(overlong_key(dotted(257) + " = 1\n", 256));
  std::string floats = "x = [";
  for (int i = 0; i < 1000; ++i) floats += "1.5, ";
  floats += "2.5]\n";
  CHECK_FALSE(overlong_key(floats, 2));
  CHECK_FALSE(overlong_key("x = \"" + dotted(1000) + "\"\n", 2));
  CHECK_FALSE(overlong_key("x = '" + dotted(1000) + "'\n", 2));
  CHECK_FALSE(overlong_key("# " + dotted(1000) + "\nx = 1\n", 2));
  CHECK_FALSE(overlong_key("x = \"\"\"\n" + dotted(1000) + " = 1\n\"\"\"\n", 2));
  CHECK_FALSE(overlong_key("x = '''\n" + dotted(1000) + "\n'''\n", 2));
  CHECK_FALSE(overlong_key("x = \"\\\"" + dotted(1000) + "\"\n", 2));
  // Past a multi-line string the scan goes on.
  const auto after = overlong_key("x = \"\"\"\n a.b \"\"\"\n" + dotted(5) + " = 1\n", 4);
  REQUIRE(after);
  CHECK(after->line == 3);
}

}  // namespace toml_text_test
