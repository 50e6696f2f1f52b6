// The JSON format's writer (sim/base/format.h) against nlohmann's own dump():
// the same bytes for every document nlohmann can write, whole or written
// member by member; and for the strings it cannot (invalid UTF-8, which
// dump() refuses with type_error.316) a valid document from which
// json_string_bytes() recovers the bytes exactly.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <nlohmann/json.hpp>

#include "sim/base/format.h"
#include "sim/base/text.h"

namespace json_writer_test {

using namespace ecmpsim;

// Strings nlohmann writes as the JSON writer does: printable ASCII (quotes
// and backslashes included), the JSON escapes, C0 controls and valid
// multi-byte UTF-8; not a backslash that reads as the start of \xNN or of a
// doubled backslash, which only the JSON writer doubles (the next test).
std::string random_text(std::mt19937_64& rng) {
  static const std::string_view kPieces[] = {"a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
                                             "\xc3\xa9", "\xe2\x88\x9e", "\xf0\x9f\x98\x80", "x", "{", "]"};
  for (;;) {
    std::string s;
    const auto n = rng() % 12;
    for (std::uint64_t i = 0; i < n; ++i) s += kPieces[rng() % std::size(kPieces)];
    if (s.find("\\\\") == std::string::npos && s.find("\\x") == std::string::npos) return s;
  }
}

double random_double(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return static_cast<double>(static_cast<std::int64_t>(rng() % 2001) - 1000);  // integral: "1.0"
    case 1: return std::ldexp(static_cast<double>(rng() % (1ULL << 53)), static_cast<int>(rng() % 200) - 100);
    case 2: return -std::ldexp(static_cast<double>(rng() % 1000 + 1), -static_cast<int>(rng() % 1070));  // subnormals
    case 3: return std::numeric_limits<double>::max() / static_cast<double>(rng() % 1000 + 1);
    case 4: return static_cast<double>(rng() % 1000000) / 1000.0;
    default: return std::bit_cast<double>(rng() & 0x7FEFFFFFFFFFFFFFULL);  // any finite positive double
  }
}

Json random_value(std::mt19937_64& rng, int depth) {
  const auto kind = depth > 3 ? rng() % 6 : rng() % 8;
  switch (kind) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return static_cast<std::int64_t>(rng());
    case 3: return rng();
    case 4: return random_double(rng);
    case 5: return random_text(rng);
    case 6: {
      Json a = Json::array();
      for (auto n = rng() % 4; n > 0; --n) a.push_back(random_value(rng, depth + 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (auto n = rng() % 4; n > 0; --n) o[random_text(rng)] = random_value(rng, depth + 1);
      return o;
    }
  }
}

// `v` written through the streaming calls, container by container.
void stream(JsonWriter& w, const Json& v) {
  if (v.is_object()) {
    w.begin_object();
    for (const auto& [k, x] : v.items()) {
      w.key(k);
      stream(w, x);
    }
    w.end();
  } else if (v.is_array()) {
    w.begin_array();
    for (const Json& x : v) stream(w, x);
    w.end();
  } else {
    w.value(v);
  }
}

TEST_CASE("every document nlohmann can write: the same bytes, whole or streamed, at every indent") {
  std::mt19937_64 rng(47);
  for (int i = 0; i < 3000; ++i) {
    const Json doc = random_value(rng, 0);
    for (const int indent : {-1, 0, 1, 2, 4}) {
      const std::string want = doc.dump(indent);
      CHECK(json_text(doc, indent) == want);
      std::string streamed;
      JsonWriter w([&](std::string_view p) { streamed += p; }, indent);
      stream(w, doc);
      w.finish();
      CHECK(streamed == want + "\n");
    }
  }
  // Non-finite numbers are null in both; empty containers stay on one line.
  const Json odd = {{"nan", std::nan("")}, {"inf", -std::numeric_limits<double>::infinity()}, {"e", Json::object()},
                    {"a", Json::array()}};
  CHECK(json_text(odd, 2) == odd.dump(2));
}

TEST_CASE("any bytes make a valid document that json_string_bytes turns back into them, without U+FFFD") {
  std::mt19937_64 rng(316);
  int invalid = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (auto n = rng() % 10; n > 0; --n) {
      const auto pick = rng() % 5;
      s += pick == 0 ? static_cast<char>(rng() % 256) : pick == 1 ? '\\' : pick == 2 ? 'x' : "0aF"[rng() % 3];
    }
    const std::string text = json_text(Json(s), -1);
    Json parsed;
    REQUIRE_NOTHROW(parsed = Json::parse(text));  // nlohmann's parser checks UTF-8 strictly
    CHECK(json_string_bytes(parsed.get<std::string>()) == s);
    CHECK(text.find("\xef\xbf\xbd") == std::string::npos);
    CHECK(text.find("ufffd") == std::string::npos);
    bool threw = false;
    try {
      (void)Json(s).dump();
    } catch (const nlohmann::json::type_error& e) {
      threw = e.id == 316;
    }
    invalid += threw;
  }
  // The negative control: nlohmann's own dump() refuses thousands of these strings (D7).
  CHECK(invalid > 1000);
}

TEST_CASE("the escapes, spelled out") {
  const auto text = [](std::string_view s) { return json_text(Json(std::string(s)), -1); };
  CHECK(text("\xff") == R"("\\xff")");                  // an invalid byte: the text \xff
  CHECK(text("a\xc3") == R"("a\\xc3")");                // a sequence cut short
  CHECK(text("\xed\xa0\x80") == R"("\\xed\\xa0\\x80")");  // a surrogate, encoded: invalid in UTF-8
  CHECK(text("\xc0\xaf") == R"("\\xc0\\xaf")");          // an overlong '/'
  CHECK(text("C:\\dir") == R"("C:\\dir")");              // a lone backslash: one, as nlohmann writes it
  CHECK(text("\\xff") == R"("\\\\xff")");                // a backslash that would read as \xff: doubled
  CHECK(text("\\\xff") == R"("\\\\\\xff")");             // a backslash before an invalid byte: doubled
  CHECK(text("\\\\") == R"("\\\\\\")");                  // two backslashes: the first doubled
  CHECK(text("\x1b[1m") == R"("\u001b[1m")");            // C0, as nlohmann writes it
  CHECK(text("\x7f") == R"("\u007f")");                  // DEL
  CHECK(text("\xc2\x85") == R"("\u0085")");              // C1 (NEL)
  CHECK(text("a\xe2\x80\xae" "b") == R"("a\u202eb")");      // RIGHT-TO-LEFT OVERRIDE
  CHECK(text("\xe2\x81\xa6") == R"("\u2066")");          // LEFT-TO-RIGHT ISOLATE
  CHECK(text("caf\xc3\xa9 \xe2\x88\x9e") == "\"caf\xc3\xa9 \xe2\x88\x9e\"");  // the rest of Unicode as it is
  // An escaped character parses back to itself: no \x text for valid UTF-8.
  CHECK(Json::parse(text("a\xe2\x80\xae" "b")).get<std::string>() == "a\xe2\x80\xae" "b");
  CHECK(json_string_bytes("\\x41\\\\x41\\q") == "A\\x41\\q");
}

TEST_CASE("JsonWriter refuses a misuse instead of writing an invalid document") {
  std::string out;
  JsonWriter w([&](std::string_view p) { out += p; }, 2);
  w.begin_object();
  CHECK_THROWS_AS(w.value(1), std::logic_error);  // a member without its key
  w.key("a");
  CHECK_THROWS_AS(w.key("b"), std::logic_error);  // two keys in a row
  w.value(1);
  CHECK_THROWS_AS(w.finish(), std::logic_error);  // the object still open
  w.end();
  w.finish();
  CHECK(out == "{\n  \"a\": 1\n}\n");
}

}  // namespace json_writer_test
