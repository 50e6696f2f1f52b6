// The shared text formatters, against values worked by hand and the C
// library's own printf.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "sim/base/parse.h"
#include "sim/base/text.h"

namespace text_test {

using namespace ecmpsim;

TEST_CASE("fixed: printf's %.*f for finite values; '-' for NaN and infinity signs for the rest") {
  for (double v : {0.0, 1.0, -2.5, 3.14159, 1e-7, 123456.789, 0.125})
    for (int d : {0, 1, 3, 6}) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.*f", d, v);
      CHECK(fixed(v, d) == buf);
    }
  CHECK(fixed(0.125, 2) == "0.12");  // round half to even, as printf does for the exact binary 0.125
  CHECK(fixed(std::numeric_limits<double>::quiet_NaN(), 3) == "-");
  CHECK(fixed(std::numeric_limits<double>::infinity(), 3) == "\u221e");
  CHECK(fixed(-std::numeric_limits<double>::infinity(), 0) == "-\u221e");
}

TEST_CASE("format_number is the shortest text that reads back to the same double") {
  for (double v : {0.1, 1.0 / 3, 2.0, 1e300, 5e-324, -0.25}) CHECK(std::strtod(format_number(v).c_str(), nullptr) == v);
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(2.0) == "2");
  CHECK(format_number(1e21) == "1e+21");
}

TEST_CASE("human_bytes and human_seconds pick the unit by hand-worked thresholds") {
  CHECK(human_bytes(0) == "0 B");
  CHECK(human_bytes(1023) == "1023 B");
  CHECK(human_bytes(1024) == "1.00 KiB");
  CHECK(human_bytes(1536) == "1.50 KiB");
  CHECK(human_bytes(3.0 * (1ULL << 30)) == "3.00 GiB");
  CHECK(human_bytes(2048.0 * (1ULL << 40)) == "2.00 PiB");
  CHECK(human_seconds(2.5) == "2.500 s");
  CHECK(human_seconds(0.0123) == "12.300 ms");
  CHECK(human_seconds(4.2e-6) == "4.200 \u00b5s");
  CHECK(human_seconds(std::numeric_limits<double>::quiet_NaN()) == "-");
}

TEST_CASE("addresses and hex round-trip through the parsers") {
  for (std::uint32_t ip : {0u, 0x0A000101u, 0xFFFFFFFFu, 0xC0A80001u}) CHECK(parse_ipv4(format_ipv4(ip)) == ip);
  CHECK(format_ipv4(0x0A000101u) == "10.0.1.1");
  CHECK(format_hex(0x1f) == "0x1f");
  CHECK(parse_uint(format_hex(0xdeadbeef), 0xFFFFFFFFu) == 0xdeadbeefu);
  CHECK(pad_left("ab", 4) == "  ab");
  CHECK(pad_right("ab", 4) == "ab  ");
  CHECK(pad_left("abcde", 4) == "abcde");
}

TEST_CASE("wrap breaks at spaces within the width, indenting continuation lines") {
  // After a 4-column label, width 14: "aaa bbb" reaches column 11, "ccc" would end at 15.
  CHECK(wrap("aaa bbb ccc dd", 14, 4) == "aaa bbb\n    ccc dd");
  CHECK(wrap("one", 2, 0) == "one");                       // a long word keeps its own line
  CHECK(wrap("a  b", 80, 0) == "a b");                     // runs of spaces collapse
  CHECK(wrap("xxxxxxxx yy", 10, 2) == "xxxxxxxx\n  yy");  // 2 + 8 = 10 fits; 11 + 2 does not
  CHECK(wrap("", 10, 2).empty());
}
TEST_CASE("escape_text: a terminal's controls, bidi overrides and invalid UTF-8 escaped; the rest as it is") {
  CHECK(escape_text("paper16.toml") == "paper16.toml");
  CHECK(escape_text("caf\xc3\xa9 \xe2\x88\x9e \xc2\xb5s") == "caf\xc3\xa9 \xe2\x88\x9e \xc2\xb5s");  // negative control
  CHECK(escape_text("a\x1b[2Jb") == "a\\x1b[2Jb");                       // ESC (C0)
  CHECK(escape_text("two\nlines\r\t") == "two\\x0alines\\x0d\\x09");
  CHECK(escape_text("del\x7f") == "del\\x7f");
  CHECK(escape_text("\xc2\x9b" "31m") == "\\u009b31m");                     // CSI, a C1 control
  CHECK(escape_text("\xc2\x80\xc2\x9f\xc2\xa0") == "\\u0080\\u009f\xc2\xa0");  // C1's ends; NBSP is not C1
  CHECK(escape_text("abc\xe2\x80\xae" "def") == "abc\\u202edef");               // RIGHT-TO-LEFT OVERRIDE
  for (const char* bidi : {"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x81\xa6",
                           "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9", "\xe2\x80\x8e", "\xe2\x80\x8f",
                           "\xd8\x9c", "\xe2\x80\xa8", "\xe2\x80\xa9"})
    CHECK(escape_text(bidi).substr(0, 2) == "\\u");
  CHECK(escape_text("\xe2\x80\xaf") == "\xe2\x80\xaf");  // U+202F, a space beside them: as it is
  CHECK(escape_text("\xff\xfe") == "\\xff\\xfe");                   // invalid UTF-8
  CHECK(escape_text("\xe2\x80") == "\\xe2\\x80");                   // cut short
  CHECK(escape_text("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(escape_text(std::string("a\0b", 3)) == "a\\x00b");
  // Escaping twice changes nothing: the output holds only what it passes through.
  for (const char* s : {"a\x1b" "b", "\xff", "\xe2\x80\xae", "\\x1b"}) CHECK(escape_text(escape_text(s)) == escape_text(s));
  CHECK(printable(std::string(50, 'a')) == std::string(40, 'a') + "...");
  CHECK(printable("\x1b", 40) == "\\x1b");
}

// What a shell makes of a word: bash's printf prints the one argument it got.
std::string through_shell(const std::string& shell, const std::string& word) {
  const std::string script = "printf '[%s]' " + word;
  const std::string command = shell + " -c " + shell_quote(script);
  FILE* p = popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[256];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  return out;
}

TEST_CASE("shell_quote: one word that bash reads back as the same bytes, shown without controls") {
  CHECK(shell_quote("configs/paper16.toml") == "configs/paper16.toml");
  CHECK(shell_quote("--seed=7") == "--seed=7");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b;id") == "'a b;id'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$(id)`id`") == "'$(id)`id`'");
  CHECK(shell_quote("a\x1b[2Jb") == "$'a\\x1b[2Jb'");
  CHECK(shell_quote("new\nline's\\") == "$'new\\x0aline\\'s\\\\'");
  CHECK(shell_quote("x\xe2\x80\xaey\xff") == "$'x\\xe2\\x80\\xaey\\xff'");
  // D11: pasted, `--scenario 'a b;id'` is one argument and runs nothing.
  CHECK(through_shell("bash", shell_quote("a b;id")) == "[a b;id]");
  CHECK(through_shell("bash", "a b;id") != "[a b;id]");  // the negative control: unquoted, it splits and runs id
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200; ++i) {
    std::string s;
    for (auto n = rng() % 8 + 1; n > 0; --n) {
      const auto pick = rng() % 4;
      s += pick == 0 ? static_cast<char>(rng() % 255 + 1) : pick == 1 ? "'\"$`\\ ;&|*?~!#"[rng() % 14]
                                                                         : static_cast<char>('a' + rng() % 26);
    }
    CAPTURE(s);
    CHECK(through_shell("bash", shell_quote(s)) == "[" + s + "]");
    const std::string q = shell_quote(s);
    CHECK(escape_text(q) == q);  // nothing in it for a terminal to act on
  }
}

TEST_CASE("grouped: thousands separators between groups of three digits, none below 1000") {
  CHECK(ecmpsim::grouped(0) == "0");
  CHECK(ecmpsim::grouped(999) == "999");
  CHECK(ecmpsim::grouped(1000) == "1,000");
  CHECK(ecmpsim::grouped(1234567) == "1,234,567");
  CHECK(ecmpsim::grouped(12345, "\u2009") == "12\u2009345");
}

TEST_CASE("trim: only the given characters, only at the ends") {
  CHECK(trim("  a b\t", " \t") == "a b");
  CHECK(trim("\r x \r", " \r") == "x");
  CHECK(trim("\ta ", " ") == "\ta");  // a tab is kept when only spaces are trimmed
  CHECK(trim("   ", " ").empty());
  CHECK(trim("", " ").empty());
}

TEST_CASE("format_percent: one decimal, NaN as a dash") {
  CHECK(format_percent(0.123) == "12.3%");
  CHECK(format_percent(1) == "100.0%");
  CHECK(format_percent(-0.0456) == "-4.6%");
  CHECK(format_percent(std::nan("")) == "-");
}

}  // namespace text_test
