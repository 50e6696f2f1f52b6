#include <doctest/doctest.h>

#include <string>

#include "sim/base/error.h"
#include "sim/config/config.h"

namespace names_test {

namespace {

std::string error_of(const std::string& text) {
  try {
    ecmpsim::parse_config(text, "n.toml");
  } catch (const ecmpsim::InputError& e) {
    return e.describe();
  }
  return "no error";
}

const std::string kFabric = "[fabric]\nkind = \"leaf-spine\"\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n";

}  // namespace

// Issue 35: a name reaches every table, CSV row and error line; a control
// character in one would break them, so it is refused where it is read, and
// the error line shows it escaped.
TEST_CASE("scenario and job names with control characters are refused, escaped in the message") {
  CHECK(error_of(kFabric + "[[scenario]]\nname = \"ecmp\\u0007\\u001b[31m\"\nrouting = \"ecmp\"\n") ==
        "n.toml:7:8: scenario.name: a name cannot hold control characters, found 'ecmp\\x07\\x1b[31m'");
  CHECK(error_of(kFabric + "[workload]\nname = \"j\\tob\"\n") ==
        "n.toml:7:8: workload.name: a name cannot hold control characters, found 'j\\x09ob'");
  // The negative control: printable names, commas and quotes included, are names.
  CHECK(error_of(kFabric + "[workload]\nname = \"job, \\\"one\\\"\"\n[[scenario]]\nname = \"e c m p\"\nrouting = \"ecmp\"\n") ==
        "no error");
}

}  // namespace names_test
