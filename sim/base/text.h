// Text formatting shared by every writer (terminal tables, CSV, JSON helpers,
// the HTML report, the assumptions text): one function per way of printing a
// value, so two outputs of one number cannot disagree.
#pragma once

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
// "1 QP", "3 QPs": a count and its noun, with an "s" unless the count is 1.
std::string plural(std::uint64_t n, std::string_view word);
// "a", "a or b", "a, b or c": choices as a sentence names them.
std::string or_list(std::span<const std::string> items);

}  // namespace ecmpsim
