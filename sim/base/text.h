// Text formatting shared by every writer (terminal tables, CSV, JSON helpers,
// the HTML report, the assumptions text): one function per way of printing a
// value, so two outputs of one number cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ecmpsim {

// "a.b.c.d" from an address in host byte order.
std::string format_ipv4(std::uint32_t ip);
// "02:00:00:00:01:0a" for the 48-bit value 0x02000000010a.
std::string format_mac(std::uint64_t mac);
// Bytes as hex pairs joined by ':' ("6d:5a:56:da"), as `ethtool -x` prints an RSS key.
std::string format_hex_bytes(std::span<const std::uint8_t> bytes);
// The shortest decimal that reads back as the same double ("nan", "inf" as is).
std::string format_number(double v);
// `decimals` digits after the point, as printf's "%.*f"; an undefined value
// (NaN) prints "-" and an infinite one "∞" or "-∞", in tables and pages alike.
std::string fixed(double v, int decimals);
// `s` without the characters of `chars` at either end.
std::string_view trim(std::string_view s, std::string_view chars);
// A fraction as a percentage with one decimal: 0.123 -> "12.3%"; NaN -> "-".
std::string format_percent(double fraction);
// 4096 -> "4.00 KiB": binary units, two decimals above bytes.
std::string human_bytes(double bytes);
// 0.0123 -> "12.300 ms": s, ms or µs with three decimals.
std::string human_seconds(double s);
// "0x1f".
std::string format_hex(std::uint32_t v);
// `s` padded with spaces to width `w`: pad_left right-aligns, pad_right left-aligns.
std::string pad_left(std::string s, std::size_t w);
std::string pad_right(std::string s, std::size_t w);
// `s` broken at spaces into lines of at most `width` columns, for printing
// after a label of `indent` columns: every line after the first starts with
// `indent` spaces (a word longer than a line gets one of its own); no
// trailing newline.
std::string wrap(std::string_view s, std::size_t width, std::size_t indent);
// 12345 -> "12,345": a count with `separator` between groups of three digits.
std::string grouped(std::uint64_t v, std::string_view separator = ",");
// "1 QP", "3 QPs": a count and its noun, with an "s" unless the count is 1.
std::string plural(std::uint64_t n, std::string_view word);
// "a", "a or b", "a, b or c": choices as a sentence names them.
std::string or_list(std::span<const std::string> items);

// Escaping: one function per context where a name, a path or other outside
// text is shown (docs/errors.md#names-and-paths-in-outputs). Each escapes the
// same characters, the ones a terminal would act on or draw misleadingly:
// C0 controls and DEL, C1 controls (U+0080..U+009F), the bidirectional and
// line-separator controls (U+061C, U+200E, U+200F, U+2028, U+2029,
// U+202A..U+202E, U+2066..U+2069), and each byte of invalid UTF-8.

// For a terminal, a table, a CSV cell or an error line: C0 controls, DEL and
// invalid bytes as \xNN, the other escaped code points as \uNNNN; valid
// printable UTF-8 as it is. Its output holds no escaped character, so
// escaping it again changes nothing.
std::string escape_text(std::string_view s);
// escape_text of the first `max` bytes of `s`, then "..." if it was longer:
// a value quoted in a one-line message.
std::string printable(std::string_view s, std::size_t max = 40);
// For JSON: `s` as a quoted JSON string literal appended to `out`. Valid
// UTF-8 is written as nlohmann's dump() writes it, with the characters above
// as \uNNNN escapes (so the parsed string is `s` itself); an invalid byte
// becomes the four characters \xNN of the parsed string, and a backslash
// that would read as the start of such an escape is doubled.
// json_string_bytes() turns the parsed string back into `s`'s bytes.
void append_json_string(std::string& out, std::string_view s);
// The bytes `decoded` (a string parsed from append_json_string's output)
// stands for: \xNN is the byte NN, a doubled backslash one backslash, and
// any other character itself.
std::string json_string_bytes(std::string_view decoded);
// For a shell: `s` as one word that sh, bash and zsh read back as `s`. Bare
// when it holds only [A-Za-z0-9_@%+=:,./-]; in single quotes otherwise; and
// when it holds an escaped character, as $'...' with that character's bytes
// as \xNN, so the command line shows no control character and pastes back
// the same bytes.
std::string shell_quote(std::string_view s);
// `words` each shell_quote()d, joined by spaces: a command to paste.
std::string shell_command(std::span<const std::string> words);

}  // namespace ecmpsim
