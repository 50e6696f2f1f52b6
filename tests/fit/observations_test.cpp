#include <doctest/doctest.h>

#include "sim/base/error.h"
#include "sim/fit/observations.h"

namespace observations_test {

using namespace ecmpsim;

TEST_CASE("observations: columns in any order, optional fields, switch filter") {
  const std::string text =
      "member,dst,src,proto,dport,sport,in_port,switch\n"
      "3,10.0.1.2,10.0.0.1,17,4791,49152,7,leaf0\n"
      "\n"
      "1,10.0.1.3,10.0.0.1,17,4791,49153,7,leaf1\r\n";
  const fit::Observations all = fit::read_observations(text, "o.csv");
  REQUIRE(all.rows.size() == 2);
  CHECK(all.rows[0].member == 3);
  CHECK(all.rows[0].tuple.src_ip == 0x0A000001u);
  CHECK(all.rows[0].tuple.dst_ip == 0x0A000102u);
  CHECK(all.rows[0].tuple.sport == 49152);
  CHECK(all.rows[0].tuple.in_port == 7);
  CHECK(all.rows[1].line == 4);
  CHECK(all.fields.back() == hashing::Field::InPort);
  const fit::Observations leaf1 = fit::read_observations(text, "o.csv", "leaf1");
  REQUIRE(leaf1.rows.size() == 1);
  CHECK(leaf1.rows[0].member == 1);
  CHECK_THROWS_AS(fit::read_observations(text, "o.csv", "spine0"), InputError);
}

TEST_CASE("observations: errors name the line and column") {
  try {
    fit::read_observations("src,dst,proto,sport,dport,member\n10.0.0.1,10.0.0.2,17,70000,4791,0\n", "o.csv");
    FAIL("accepted port 70000");
  } catch (const InputError& e) {
    CHECK(e.describe() == "o.csv:2:22: invalid sport '70000' (0..65535)");
  }
  try {
    fit::read_observations("src,dst,proto,sport,dport,member\n10.0.0.1,10.0.0.2,17\n", "o.csv");
    FAIL("accepted a short row");
  } catch (const InputError& e) {
    CHECK(e.describe() == "o.csv:2:21: expected 6 fields as the header names, found 3");
  }
}
}  // namespace observations_test
